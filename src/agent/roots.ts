import { lstatSync, realpathSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { ErrorCodes } from './errors';
import { unportableName } from '../platform/portableNames';

/**
 * A session root as it was when the session attached: its real path then, and whether its
 * volume compares names without case. Requests are checked against this, never against the
 * root's path resolved again: a root later replaced by a symbolic link (to "/") stays what it was.
 */
export interface PinnedRoot {
  /** As the session named it (said in refusals). */
  readonly path: string;
  readonly real: string;
  /** Names on its volume compare without case (as the volume does, not as the platform usually does). */
  readonly foldCase: boolean;
}

/** Options of {@link resolveInRoots} and {@link pinRoots}. */
export interface ResolveOptions {
  /** The path names a file about to be written: it may not exist yet. */
  forWrite?: boolean;
  /** Decides path syntax (and case folding where a volume cannot be asked); `process.platform` when absent. */
  platform?: NodeJS.Platform;
}

/** Longer paths are refused before any look-up (PATH_MAX on Linux). */
const MAX_PATH_LENGTH = 4096;

const flavour = (platform: NodeJS.Platform) => (platform === 'win32' ? nodePath.win32 : nodePath.posix);

/**
 * Pins roots: each one's real path now, and whether its volume folds case. A root that does not
 * exist is left out (it cannot contain anything).
 */
export function pinRoots(paths: readonly string[], opts: Pick<ResolveOptions, 'platform'> = {}): PinnedRoot[] {
  const platform = opts.platform ?? process.platform;
  const out: PinnedRoot[] = [];
  for (const path of paths) {
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch {
      continue;
    }
    out.push({ path, real, foldCase: volumeFoldsCase(real, flavour(platform), platform) });
  }
  return out;
}

/**
 * Whether the volume of a real path compares names without case: the deepest name in it whose
 * case can change is looked up with its case changed; the same file means the volume folds.
 * A path without such a name falls back to the platform's usual rule.
 */
export function volumeFoldsCase(real: string, p: typeof nodePath.posix, platform: NodeJS.Platform): boolean {
  for (let dir = real, parent = p.dirname(dir); parent !== dir; dir = parent, parent = p.dirname(dir)) {
    const name = p.basename(dir);
    const swapped = swapCase(name);
    if (swapped === name) continue;
    try {
      const a = statSync(dir);
      const b = statSync(p.join(parent, swapped));
      return a.dev === b.dev && a.ino === b.ino;
    } catch {
      return false;
    }
  }
  return platform === 'win32' || platform === 'darwin';
}

function swapCase(s: string): string {
  let out = '';
  for (const c of s) {
    const up = c.toUpperCase();
    out += up === c ? c.toLowerCase() : up;
  }
  return out;
}

/** Where a path lies: its real path, the deepest existing ancestor, the names to create below it. */
export interface Located {
  readonly real: string;
  /** Real path of the deepest existing ancestor (the path itself when it exists). */
  readonly base: string;
  /** Names below `base` that do not exist yet (empty when the path exists). */
  readonly rest: readonly string[];
  readonly root: PinnedRoot;
}

/**
 * Resolves a path an agent sent to the real absolute path it names, and refuses it unless it
 * lies inside one of the session's pinned roots (see {@link locate}).
 */
export function resolveInRoots(path: string, roots: readonly PinnedRoot[], opts: ResolveOptions = {}): string {
  return locate(path, roots, opts).real;
}

/**
 * Refused with `-32602`: a relative path, any `..` segment (even one that would land inside),
 * a NUL byte, a trailing separator, a path longer than 4,096 characters, a dangling symbolic
 * link, and anything whose real path (symbolic links followed) is outside every root. A file
 * that does not exist, on read, is `-32002` — but only once its deepest existing ancestor is
 * known to be inside, so a refused path never reveals whether something exists outside the
 * roots. A refusal names the path as the agent gave it, never what it resolves to.
 *
 * For a new file on write, the result is the real path of its deepest existing ancestor plus
 * the remaining names. A write is also refused where a name inside the root is one Windows
 * reads as another file or a device (see `portableNames.ts`), on every platform. Roots are compared by their pinned real paths, at a separator boundary
 * (`/root-evil` is not inside `/root`), without case only where the root's volume has none.
 */
export function locate(path: string, roots: readonly PinnedRoot[], opts: ResolveOptions = {}): Located {
  const platform = opts.platform ?? process.platform;
  const p = flavour(platform);
  const shown = describeRoots(roots);

  if (typeof path !== 'string' || path === '') throw invalid('The path is empty.');
  if (path.includes('\0')) throw invalid(`The path ${JSON.stringify(path)} contains a NUL byte.`);
  if (path.length > MAX_PATH_LENGTH) throw invalid(`The path is longer than ${MAX_PATH_LENGTH} characters.`);
  if (!p.isAbsolute(path)) throw invalid(`The path "${path}" is not absolute; give a path inside ${shown}.`);
  const segments = path.split(platform === 'win32' ? /[\\/]/ : '/');
  // Refused outright: a `..` that happens to land inside today may not after a rename, and a
  // check on the resolved string alone is what path-traversal bugs are made of.
  if (segments.includes('..'))
    throw invalid(`The path "${path}" contains "..". Give a path inside ${shown} without "..".`);
  if (path.length > 1 && (platform === 'win32' ? /[\\/]$/ : /\/$/).test(path)) {
    throw invalid(`The path "${path}" ends with a separator; name a file inside ${shown}.`);
  }
  if (roots.length === 0) throw invalid(`The session has no existing root folder; "${path}" is refused.`);

  // Before anything is resolved: on Windows a device name or a stream resolves to something else.
  if (opts.forWrite) refuseUnportable(path, namesBelow(p.normalize(path), roots, p));
  const { base, rest } = deepestReal(p.normalize(path), p);
  const real = rest.length ? p.join(base, ...rest) : base;
  const root = roots.find((r) => isInside(real, r.real, p.sep, r.foldCase));
  if (!root) throw invalid(`The path "${path}" is outside the session's roots: ${shown}.`);
  if (rest.length && !opts.forWrite) {
    throw new RequestError(ErrorCodes.ResourceNotFound, `The file "${path}" does not exist.`, { uri: path });
  }
  // Checked on the names inside the root (the root's own path may hold a drive's ":"), before
  // anything is matched against the files that need confirmation.
  if (opts.forWrite) refuseUnportable(path, real.slice(root.real.length).split(p.sep));
  return { real, base, rest, root };
}

/** The names of a path below the root it is written under (as given or as pinned), or none when it names no root. */
function namesBelow(path: string, roots: readonly PinnedRoot[], p: typeof nodePath.posix): string[] {
  for (const root of roots) {
    for (const prefix of [root.real, p.normalize(root.path)]) {
      if (isInside(path, prefix, p.sep, root.foldCase)) return path.slice(prefix.length).split(p.sep);
    }
  }
  return [];
}

function refuseUnportable(path: string, names: readonly string[]): void {
  for (const name of names) {
    const why = name ? unportableName(name) : undefined;
    if (why) throw invalid(`The path "${path}" is refused: the name "${name}" ${why}.`);
  }
}

/** Whether `child` is `root` or below it, at a separator boundary. Both are normalised. */
export function isInside(child: string, root: string, sep: string, caseInsensitive: boolean): boolean {
  const c = caseInsensitive ? child.toLowerCase() : child;
  const r = caseInsensitive ? root.toLowerCase() : root;
  if (c === r) return true;
  const prefix = r.endsWith(sep) ? r : r + sep;
  return c.startsWith(prefix);
}

/**
 * The real path of the deepest ancestor of `path` that exists, and the names below it that do
 * not. Found by halving the depth searched: a path of 2,000 missing names costs a dozen look-ups.
 */
export function deepestReal(
  path: string,
  p: typeof nodePath.posix,
  realpath: (path: string) => string = (x) => realpathSync.native(x),
): { base: string; rest: string[] } {
  const root = p.parse(path).root;
  const names = path.slice(root.length).split(p.sep).filter(Boolean);
  const at = (depth: number) => (depth === 0 ? root : p.join(root, ...names.slice(0, depth)));
  const tryReal = (depth: number): string | undefined => {
    try {
      return realpath(at(depth));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      if (code === 'ELOOP') throw invalid(`The path "${path}" runs into a loop of symbolic links.`);
      throw new RequestError(ErrorCodes.InternalError, `Cannot resolve "${path}" (${code ?? 'error'}).`);
    }
  };
  const whole = tryReal(names.length);
  if (whole !== undefined) return { base: whole, rest: [] };
  // Depth `lo` exists, depth `hi` does not: a missing name makes every deeper path missing too.
  let lo = 0;
  let hi = names.length;
  let base = tryReal(0);
  if (base === undefined) throw invalid(`The path "${path}" has no existing ancestor.`);
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const real = tryReal(mid);
    if (real === undefined) hi = mid;
    else {
      lo = mid;
      base = real;
    }
  }
  // An entry that lstat sees but realpath cannot follow is a dangling symbolic link: writing
  // through it would create its target, wherever that is.
  if (entryExists(at(hi)))
    throw invalid(`The path "${path}" goes through a symbolic link whose target does not exist; refused.`);
  return { base, rest: names.slice(lo) };
}

function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function describeRoots(roots: readonly PinnedRoot[]): string {
  return roots.length ? roots.map((r) => `"${r.path}"`).join(', ') : '(no roots)';
}

function invalid(message: string): RequestError {
  return new RequestError(ErrorCodes.InvalidParams, message);
}
