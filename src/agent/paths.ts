import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Real paths already looked up, keyed by the resolved path. Matching runs once per listed row,
 * and an agent lists the same cwd thousands of times: one `realpath` per distinct string.
 * Bounded, oldest first out, so a long-lived window does not grow it without end.
 */
const realPaths = new Map<string, string>();
const MAX_CACHED = 512;

function realPath(resolved: string): string {
  const hit = realPaths.get(resolved);
  if (hit !== undefined) return hit;
  let real: string;
  try {
    real = fs.realpathSync.native(resolved);
  } catch {
    // A session's folder may have been deleted or live on another machine: compare as spelled.
    real = resolved;
  }
  realPaths.set(resolved, real);
  if (realPaths.size > MAX_CACHED) {
    const oldest = realPaths.keys().next();
    if (!oldest.done) realPaths.delete(oldest.value);
  }
  return real;
}

/** Forgets the real paths looked up so far (a folder was renamed or a link changed). */
export function clearPathCache(): void {
  realPaths.clear();
}

/**
 * The form in which two folder paths are compared: resolved and absolute, no trailing
 * separator (except at a root), the real path where it exists, and lower-cased where the file
 * system usually ignores case (Windows, macOS). A symlinked or differently spelled folder then
 * still matches the `cwd` an agent reports.
 */
export function normalizePath(p: string, platform: NodeJS.Platform = process.platform): string {
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  let out = flavour.resolve(p);
  // The real path is only meaningful on the platform the file system belongs to.
  if (platform === process.platform) out = realPath(out);
  if (out.length > 1) {
    const root = flavour.parse(out).root;
    while (out.length > root.length && (out.endsWith('/') || (platform === 'win32' && out.endsWith('\\')))) {
      out = out.slice(0, -1);
    }
  }
  if (platform === 'darwin') out = out.normalize('NFC');
  if (platform === 'win32' || platform === 'darwin') out = out.toLowerCase();
  return out;
}

/** Whether two paths name the same folder, as {@link normalizePath} sees it. */
export function samePath(a: string, b: string, platform: NodeJS.Platform = process.platform): boolean {
  return a === b || normalizePath(a, platform) === normalizePath(b, platform);
}
