import * as path from 'node:path';

/**
 * The form in which the library compares paths (a session's cwd, a file a tool call touched):
 * absolute, no trailing separator, and lower-cased where file systems usually ignore case.
 * Symlinks are not resolved: a file a session touched may be gone, and the caller passes the
 * real path as well when it differs.
 */
export function pathKey(p: string, platform: NodeJS.Platform = process.platform): string {
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  let out = flavour.resolve(p);
  const root = flavour.parse(out).root;
  while (out.length > root.length && (out.endsWith('/') || (platform === 'win32' && out.endsWith('\\'))))
    out = out.slice(0, -1);
  if (platform === 'darwin') out = out.normalize('NFC');
  return platform === 'win32' || platform === 'darwin' ? out.toLowerCase() : out;
}

/** A path a tool call reported, made absolute against the session's cwd when it was not. */
export function absoluteIn(cwd: string, p: string, platform: NodeJS.Platform = process.platform): string {
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  return flavour.isAbsolute(p) ? p : flavour.resolve(cwd, p);
}
