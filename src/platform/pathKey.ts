/**
 * The one rule for comparing paths on this machine. A path's key is absolute, resolved, without
 * a trailing separator (except at a root), in NFC on macOS, and lower-cased where file systems
 * usually ignore case (Windows, macOS). Windows' long-path forms (`\\?\C:\x`) key as the plain
 * ones, and on Windows a path that starts with one `/` is a POSIX path a WSL or remote agent
 * reported: it keeps its case and gets no drive letter.
 *
 * {@link pathKey} keys a path as spelled (a file a session touched may be gone);
 * {@link normalizePath} keys its real path where it exists, so a symlinked or differently
 * spelled folder still matches the `cwd` an agent reports; {@link relativeKey} keys a path
 * relative to a folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * `\\?\C:\x` is `C:\x` and `\\?\UNC\server\share` is `\\server\share` (the long-path forms
 * Windows tools and some agents report).
 */
export function withoutLongPrefix(p: string): string {
  const m = /^[\\/]{2}[?.][\\/](UNC[\\/])?/i.exec(p);
  if (!m) return p;
  return m[1] ? `\\\\${p.slice(m[0].length)}` : p.slice(m[0].length);
}

/** The path rules a path is read with on `platform` (see the module's comment for `/x` on Windows). */
function flavourOf(p: string, platform: NodeJS.Platform): typeof path.posix {
  if (platform !== 'win32') return path.posix;
  return /^\/(?!\/)/.test(p) ? path.posix : path.win32;
}

function resolved(p: string, platform: NodeJS.Platform): { out: string; flavour: typeof path.posix } {
  const flavour = flavourOf(p, platform);
  return { out: flavour.resolve(platform === 'win32' ? withoutLongPrefix(p) : p), flavour };
}

function keyed(resolvedPath: string, flavour: typeof path.posix, platform: NodeJS.Platform): string {
  let out = resolvedPath;
  const root = flavour.parse(out).root;
  while (out.length > root.length && (out.endsWith('/') || (flavour === path.win32 && out.endsWith('\\'))))
    out = out.slice(0, -1);
  if (platform === 'darwin') out = out.normalize('NFC');
  // A POSIX path reported to a Windows window is another system's (WSL, a remote): its case counts.
  return flavour === path.win32 || platform === 'darwin' ? out.toLowerCase() : out;
}

/** The key of `p` as spelled: symbolic links are not resolved. */
export function pathKey(p: string, platform: NodeJS.Platform = process.platform): string {
  const { out, flavour } = resolved(p, platform);
  return keyed(out, flavour, platform);
}

/**
 * Real paths already looked up, keyed by the resolved path. Matching runs once per listed row,
 * and an agent lists the same cwd thousands of times: one `realpath` per distinct string.
 * Bounded, oldest first out, so a long-lived window does not grow it without end.
 */
const realPaths = new Map<string, string>();
const MAX_CACHED = 512;

function realPath(p: string): string {
  const hit = realPaths.get(p);
  if (hit !== undefined) return hit;
  let real: string;
  try {
    real = fs.realpathSync.native(p);
  } catch {
    // A session's folder may have been deleted or live on another machine: compare as spelled.
    real = p;
  }
  realPaths.set(p, real);
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

/** The key of `p`'s real path where it exists (on this machine's own platform), else of `p` as spelled. */
export function normalizePath(p: string, platform: NodeJS.Platform = process.platform): string {
  const { out, flavour } = resolved(p, platform);
  // The real path is only meaningful on the platform the file system belongs to.
  return keyed(platform === process.platform ? realPath(out) : out, flavour, platform);
}

/** Whether two paths name the same folder, as {@link normalizePath} sees it. */
export function samePath(a: string, b: string, platform: NodeJS.Platform = process.platform): boolean {
  return a === b || normalizePath(a, platform) === normalizePath(b, platform);
}

/** A path a tool call reported, made absolute against the session's cwd when it was not. */
export function absoluteIn(cwd: string, p: string, platform: NodeJS.Platform = process.platform): string {
  const flavour = flavourOf(cwd, platform);
  return flavour.isAbsolute(p) ? p : flavour.resolve(cwd, p);
}

/** The key of a path relative to a folder: `/`-separated, without case where the platform's file systems ignore it. */
export function relativeKey(rel: string, platform: NodeJS.Platform = process.platform): string {
  const p = rel.replace(/\\/g, '/');
  if (platform === 'darwin') return p.normalize('NFC').toLowerCase();
  return platform === 'win32' ? p.toLowerCase() : p;
}
