import { chmodSync, copyFileSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import type { FileStatus } from './porcelain';

/** What a fork carried from the folder into its new worktree. */
export interface Carried {
  /** Files copied as the folder has them (changed, added, untracked), `/`-separated. */
  copied: string[];
  /** Files the folder deleted, deleted in the worktree too. */
  deleted: string[];
  /** Changes not carried, each with why (a nested repository, a file gone meanwhile…). */
  skipped: { path: string; reason: string }[];
}

/**
 * Copies the folder's uncommitted changes into a worktree just made from the same commit: each
 * changed or untracked file (never an ignored one: `git status` does not list them) is copied
 * as the folder has it on disk, each deleted one is deleted, a rename is both. The folder keeps
 * its changes; in the worktree they are unstaged. A link is copied as the link it is, never
 * followed; a path that would leave the worktree is refused.
 */
export function carryChanges(from: string, to: string, changes: readonly FileStatus[]): Carried {
  const out: Carried = { copied: [], deleted: [], skipped: [] };
  const inside = (root: string, rel: string): string | undefined => {
    const abs = path.resolve(root, ...rel.split('/'));
    const back = path.relative(root, abs);
    return back && !back.startsWith('..') && !path.isAbsolute(back) ? abs : undefined;
  };
  for (const change of changes) {
    if (change.from && change.status === 'R') remove(change.from);
    if (change.status === 'D') remove(change.path);
    else copy(change.path);
  }
  return out;

  function remove(rel: string): void {
    const dst = inside(to, rel);
    if (!dst) return void out.skipped.push({ path: rel, reason: 'outside the folder' });
    rmSync(dst, { force: true });
    out.deleted.push(rel);
  }

  function copy(rel: string): void {
    const src = inside(from, rel);
    const dst = inside(to, rel);
    if (!src || !dst) return void out.skipped.push({ path: rel, reason: 'outside the folder' });
    let st;
    try {
      st = lstatSync(src);
    } catch {
      // Staged, then deleted on disk ("MD"): the folder has no such file, nor will the worktree.
      return remove(rel);
    }
    if (st.isDirectory()) return void out.skipped.push({ path: rel, reason: 'a nested repository' });
    if (!st.isFile() && !st.isSymbolicLink())
      return void out.skipped.push({ path: rel, reason: 'neither a file nor a link' });
    try {
      mkdirSync(path.dirname(dst), { recursive: true });
      rmSync(dst, { force: true });
      if (st.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
      else {
        copyFileSync(src, dst);
        chmodSync(dst, st.mode & 0o777);
      }
      out.copied.push(rel);
    } catch (e) {
      // Windows refuses links without the right to make them; a locked file refuses a copy.
      out.skipped.push({ path: rel, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
    }
  }
}
