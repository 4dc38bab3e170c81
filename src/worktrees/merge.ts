import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { WorktreeError } from './errors';
import { failed, type Git } from './git';
import { parseNameStatusZ, parseStatusZ, type FileStatus, type WorktreeEntry } from './porcelain';

export type MergeResult =
  { kind: 'merged' | 'squashed'; into: string } | { kind: 'conflicts'; into: string; conflicts: string[] };

/** A worktree as merging it needs it (what the Sessions view lists). */
export interface Mergeable extends WorktreeEntry {
  base?: string;
}

const STATUS = ['status', '--porcelain=v1', '-z', '--untracked-files=all'];
/** A merge of a large repository may take minutes. */
const LONG_MS = 10 * 60_000;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const list = (paths: readonly string[]) => `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ', …' : ''}`;

/**
 * The paths among `files` (what the merge brings, `/`-separated) where the base's folder holds
 * something git does not track: a file git ignores (`.env`), which a merge replaces without a
 * word, or an untracked one; also a file or link where the merge needs a folder.
 */
async function untrackedInTheWay(git: Git, target: string, files: readonly FileStatus[]): Promise<string[]> {
  const found = await Promise.all(
    files
      .filter((f) => f.status !== 'D')
      .map(async (f) => {
        const parts = f.path.split('/');
        for (let i = 1; i <= parts.length; i++) {
          const st = await fs.lstat(path.join(target, ...parts.slice(0, i))).catch(() => undefined);
          if (!st) return undefined;
          if (i === parts.length || !st.isDirectory()) return parts.slice(0, i).join('/');
        }
        return undefined;
      }),
  );
  const there = [...new Set(found.filter((p): p is string => p !== undefined))];
  if (there.length === 0) return [];
  const tracked = new Set((await git.out(target, ['ls-files', '-z'])).split('\0'));
  return there.filter((p) => !tracked.has(p)).sort();
}

async function refuseOverwrites(
  git: Git,
  target: string,
  branch: string,
  files: readonly FileStatus[],
  committed = false,
): Promise<void> {
  const inTheWay = await untrackedInTheWay(git, target, files);
  if (inTheWay.length === 0) return;
  const n = inTheWay.length;
  throw new WorktreeError(
    'overwritesUntracked',
    `Merging ${branch} would overwrite ${plural(n, 'file', 'files')} in ${target} that git does not track (ignored files such as .env are replaced without a word): ${list(inTheWay)}. Move ${n === 1 ? 'it' : 'them'} aside, then merge. Nothing was merged${committed ? ' (the worktree’s changes were committed there)' : ' or committed'}.`,
  );
}

/**
 * Merges the worktree's branch into its base where the base is checked out: a merge commit (the
 * one the user asked for) or a squash left staged for the user to commit. Everything that could
 * refuse is checked before anything is written: uncommitted changes of the worktree are
 * committed only with the message the user gave, a base with uncommitted changes is refused,
 * and so is a merge that would land on a file git does not track in the base's folder (checked
 * again right before the merge). A conflict is left in the base's folder for the merge editor,
 * nothing else done. `changes` gives what the worktree brings, uncommitted files included.
 */
export async function mergeWorktree(
  git: Git,
  worktree: Mergeable,
  into: WorktreeEntry,
  changes: () => Promise<readonly FileStatus[]>,
  options: { mode: 'merge' | 'squash'; commitMessage?: string },
): Promise<MergeResult> {
  const { branch, base } = worktree;
  if (!branch || !base) throw new WorktreeError('detached', `${worktree.path} has no branch to merge.`);
  // A ref written by hand can be named like an option.
  if (branch.startsWith('-') || base.startsWith('-'))
    throw new WorktreeError('invalidBranch', `"${branch.startsWith('-') ? branch : base}" is not a branch to merge.`);
  const target = path.resolve(into.path);
  const pending = parseStatusZ(await git.out(worktree.path, STATUS));
  if (pending.length > 0 && !options.commitMessage) {
    throw new WorktreeError(
      'worktreeDirty',
      `${worktree.path} has ${plural(pending.length, 'uncommitted change', 'uncommitted changes')}: commit them there first.`,
    );
  }
  const dirty = parseStatusZ(await git.out(target, ['status', '--porcelain=v1', '-z', '--untracked-files=no']));
  if (dirty.length > 0) {
    throw new WorktreeError(
      'baseDirty',
      `${base} has uncommitted changes in ${target} (${dirty
        .slice(0, 3)
        .map((f) => f.path)
        .join(', ')}${dirty.length > 3 ? ', …' : ''}): commit or stash them before merging.`,
    );
  }
  await refuseOverwrites(git, target, branch, await changes());
  if (pending.length > 0) {
    await git.out(worktree.path, ['add', '-A'], 'git add');
    await git.out(worktree.path, ['commit', '-q', '-m', options.commitMessage!], 'git commit', { hooks: true });
  }
  const ref = `refs/heads/${branch}`;
  const mergeBase = (await git.out(target, ['merge-base', `refs/heads/${base}`, ref])).trim();
  const brought = parseNameStatusZ(
    await git.out(target, ['diff', '--name-status', '-z', '--no-renames', mergeBase, ref]),
  );
  await refuseOverwrites(git, target, branch, brought, pending.length > 0);
  const args = options.mode === 'squash' ? ['merge', '--squash', branch] : ['merge', '--no-ff', '--no-edit', branch];
  const r = await git.run(target, args, { hooks: true, timeoutMs: LONG_MS });
  const conflicts = (await git.out(target, ['diff', '--name-only', '--diff-filter=U', '-z']))
    .split('\0')
    .filter(Boolean)
    .map((p) => path.join(target, p));
  if (conflicts.length > 0) return { kind: 'conflicts', into: target, conflicts };
  if (r.code !== 0) throw failed(`git merge ${branch} into ${base}`, r);
  return { kind: options.mode === 'squash' ? 'squashed' : 'merged', into: target };
}
