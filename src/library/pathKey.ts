import * as path from 'node:path';

/**
 * The form in which the library compares paths (a session's cwd, a file a tool call touched):
 * absolute, no trailing separator, and lower-cased where file systems usually ignore case.
 * Symlinks are not resolved: a file a session touched may be gone, and the caller passes the
 * real path as well when it differs.
 */
export function pathKey(p: string, platform: NodeJS.Platform = process.platform): string {
  const flavour = flavourOf(p, platform);
  let out = flavour.resolve(platform === 'win32' ? withoutLongPrefix(p) : p);
  const root = flavour.parse(out).root;
  while (out.length > root.length && (out.endsWith('/') || (flavour === path.win32 && out.endsWith('\\'))))
    out = out.slice(0, -1);
  if (platform === 'darwin') out = out.normalize('NFC');
  // A POSIX path reported to a Windows window is another system's (WSL, a remote): its case counts.
  return flavour === path.win32 || platform === 'darwin' ? out.toLowerCase() : out;
}

/**
 * `\\?\C:\x` is `C:\x` and `\\?\UNC\server\share` is `\\server\share` (the long-path forms
 * Windows tools and some agents report).
 */
export function withoutLongPrefix(p: string): string {
  const m = /^[\\/]{2}[?.][\\/](UNC[\\/])?/i.exec(p);
  if (!m) return p;
  return m[1] ? `\\\\${p.slice(m[0].length)}` : p.slice(m[0].length);
}

/**
 * The path rules a path is read with. On Windows a path that starts with one `/` is a POSIX path
 * a WSL or remote agent reported: resolving it the Windows way would put this machine's drive
 * letter in front of it.
 */
function flavourOf(p: string, platform: NodeJS.Platform): typeof path.posix {
  if (platform !== 'win32') return path.posix;
  return /^\/(?!\/)/.test(p) ? path.posix : path.win32;
}

/** A path a tool call reported, made absolute against the session's cwd when it was not. */
export function absoluteIn(cwd: string, p: string, platform: NodeJS.Platform = process.platform): string {
  const flavour = flavourOf(cwd, platform);
  return flavour.isAbsolute(p) ? p : flavour.resolve(cwd, p);
}
