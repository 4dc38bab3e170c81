import { lstatSync, realpathSync } from 'node:fs';
import * as nodePath from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { ErrorCodes } from './errors';

/** Options of {@link resolveInRoots}. */
export interface ResolveOptions {
  /** The path names a file about to be written: it may not exist yet. */
  forWrite?: boolean;
  /** Decides path syntax and case sensitivity; `process.platform` when absent. */
  platform?: NodeJS.Platform;
}

/**
 * Resolves a path an agent sent to the real absolute path it names, and refuses it unless it
 * lies inside one of the session's roots.
 *
 * Refused with `-32602`: a relative path, any `..` segment (even one that would land inside),
 * a NUL byte, a trailing separator, a dangling symbolic link, and anything whose real path
 * (symbolic links followed) is outside every root. A file that does not exist, on read, is
 * `-32002` — but only once its deepest existing ancestor is known to be inside, so a refused
 * path never reveals whether something exists outside the roots.
 *
 * For a new file on write, the result is the real path of its deepest existing ancestor plus
 * the remaining names. Roots are compared by their real paths too, at a separator boundary
 * (`/root-evil` is not inside `/root`), case-insensitively on Windows and macOS.
 */
export function resolveInRoots(path: string, roots: readonly string[], opts: ResolveOptions = {}): string {
  const platform = opts.platform ?? process.platform;
  const p = platform === 'win32' ? nodePath.win32 : nodePath.posix;
  const shown = describeRoots(roots);

  if (typeof path !== 'string' || path === '') throw invalid('The path is empty.');
  if (path.includes('\0')) throw invalid(`The path ${JSON.stringify(path)} contains a NUL byte.`);
  if (!p.isAbsolute(path)) throw invalid(`The path "${path}" is not absolute; give a path inside ${shown}.`);
  const segments = path.split(platform === 'win32' ? /[\\/]/ : '/');
  // Refused outright: a `..` that happens to land inside today may not after a rename, and a
  // check on the resolved string alone is what path-traversal bugs are made of.
  if (segments.includes('..'))
    throw invalid(`The path "${path}" contains "..". Give a path inside ${shown} without "..".`);
  if (path.length > 1 && (platform === 'win32' ? /[\\/]$/ : /\/$/).test(path)) {
    throw invalid(`The path "${path}" ends with a separator; name a file inside ${shown}.`);
  }

  const realRoots = realRootsOf(roots);
  if (realRoots.length === 0)
    throw invalid(`The session has no existing root folder (${shown}); "${path}" is refused.`);

  const { base, rest } = deepestReal(p.normalize(path), p, shown);
  const real = rest.length ? p.join(base, ...rest) : base;
  const fold = platform === 'win32' || platform === 'darwin';
  if (!realRoots.some((root) => isInside(real, root, p.sep, fold))) {
    const via = real === path ? '' : ` (it resolves to "${real}")`;
    throw invalid(`The path "${path}"${via} is outside the session's roots: ${shown}.`);
  }
  if (rest.length && !opts.forWrite) {
    throw new RequestError(ErrorCodes.ResourceNotFound, `The file "${path}" does not exist.`, { uri: path });
  }
  return real;
}

/** Whether `child` is `root` or below it, at a separator boundary. Both are normalised. */
export function isInside(child: string, root: string, sep: string, caseInsensitive: boolean): boolean {
  const c = caseInsensitive ? child.toLowerCase() : child;
  const r = caseInsensitive ? root.toLowerCase() : root;
  if (c === r) return true;
  const prefix = r.endsWith(sep) ? r : r + sep;
  return c.startsWith(prefix);
}

function realRootsOf(roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    // A root that no longer exists cannot contain anything; the others still count.
    try {
      out.push(realpathSync.native(root));
    } catch {
      continue;
    }
  }
  return out;
}

/**
 * Walks up from `path` to the deepest ancestor that exists and returns its real path and the
 * names below it that do not exist yet.
 */
function deepestReal(path: string, p: typeof nodePath.posix, shown: string): { base: string; rest: string[] } {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return { base: realpathSync.native(current), rest };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw invalid(`The path "${path}" runs into a loop of symbolic links.`);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw new RequestError(ErrorCodes.InternalError, `Cannot resolve "${path}": ${(e as Error).message}`);
      }
    }
    // An entry that lstat sees but realpath cannot follow is a dangling symbolic link: writing
    // through it would create its target, wherever that is.
    if (entryExists(current))
      throw invalid(
        `The path "${path}" goes through a symbolic link whose target does not exist; refused (roots: ${shown}).`,
      );
    const parent = p.dirname(current);
    if (parent === current) throw invalid(`The path "${path}" has no existing ancestor.`);
    rest.unshift(p.basename(current));
    current = parent;
  }
}

function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function describeRoots(roots: readonly string[]): string {
  return roots.length ? roots.map((r) => `"${r}"`).join(', ') : '(no roots)';
}

function invalid(message: string): RequestError {
  return new RequestError(ErrorCodes.InvalidParams, message);
}
