/**
 * The outermost superproject of a submodule, found from the files git leaves behind, without
 * running git in a repository around the folder. `git rev-parse --show-superproject-working-tree`
 * answers by running `ls-files` in the parent folder's repository, reading its index and config:
 * a folder inside an extracted archive, a submodule or not, had the archive's repository read.
 *
 * A submodule's `.git` is a file, `gitdir: <super>/.git/modules/<name>` (a nested one's points
 * under its outermost superproject: `<outer>/.git/modules/<a>/modules/<b>`). A submodule added
 * from a repository already in place keeps its `.git` folder; it is found in the `.gitmodules`
 * of the repository around it, a file read as text.
 */
import { lstatSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** More than any real `.gitmodules` holds. */
const GITMODULES_MAX = 1024 * 1024;

/** The outermost superproject of the repository whose work tree is `top`; undefined when it is none's submodule. */
export function outermostSuperproject(top: string): string | undefined {
  let outer: string | undefined;
  const seen = new Set<string>();
  for (let at = path.resolve(top); !seen.has(at);) {
    seen.add(at);
    let sup: string | undefined;
    try {
      sup = viaGitFile(at) ?? viaGitmodules(at);
    } catch {
      // A folder on the way that cannot be read (EACCES): no superproject is known there.
    }
    if (!sup) break;
    outer = at = sup;
  }
  return outer;
}

/** Whether `inner` lies strictly inside `outer`. */
function inside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** `<super>` from a `.git` file naming `<super>/.git/modules/…`, when `top` lies inside `<super>`. */
function viaGitFile(top: string): string | undefined {
  let text: string;
  try {
    const dotGit = path.join(top, '.git');
    if (!lstatSync(dotGit).isFile()) return undefined;
    text = readFileSync(dotGit, 'utf8').slice(0, 64 * 1024);
  } catch {
    return undefined;
  }
  const named = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(text)?.[1];
  if (!named) return undefined;
  const parts = path.resolve(top, named).split(path.sep);
  const at = parts.findIndex((p, i) => i > 0 && p === '.git' && parts[i + 1] === 'modules');
  if (at < 0) return undefined;
  const sup = parts.slice(0, at).join(path.sep) || path.sep;
  // A linked worktree of a submodule also points there, from outside the superproject's tree.
  return inside(sup, top) ? sup : undefined;
}

/** The repository around `top` when its `.gitmodules` names `top` as a submodule's path. */
function viaGitmodules(top: string): string | undefined {
  for (let dir = path.dirname(top); ; dir = path.dirname(dir)) {
    if (lstatSync(path.join(dir, '.git'), { throwIfNoEntry: false })) {
      const rel = path.relative(dir, top).split(path.sep).join('/');
      return submodulePaths(path.join(dir, '.gitmodules')).includes(rel) ? dir : undefined;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The `path = …` values of a `.gitmodules` file (git's config syntax: quotes and backslash escapes). */
export function submodulePaths(file: string): string[] {
  let text: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > GITMODULES_MAX) return [];
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return parseSubmodulePaths(text);
}

export function parseSubmodulePaths(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*path\s*=\s*(.*)$/i.exec(line);
    if (!m) continue;
    let value = '';
    let quoted = false;
    const raw = m[1]!;
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i]!;
      if (c === '\\' && i + 1 < raw.length) {
        const n = raw[++i]!;
        value += n === 't' ? '\t' : n === 'n' ? '\n' : n;
      } else if (c === '"') quoted = !quoted;
      else if (!quoted && (c === '#' || c === ';')) break;
      else value += c;
    }
    const p = value.trim().replace(/\/+$/, '');
    if (p) out.push(p);
  }
  return out;
}
