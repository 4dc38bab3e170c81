import * as path from 'node:path';
import { WorktreeError } from './errors';
import type { Git } from './git';
import { parseStatusZ, type FileStatus, type WorktreeEntry } from './porcelain';

/** A worktree as discarding it needs it (what the Sessions view lists). */
export interface Discardable extends WorktreeEntry {
  main: boolean;
  missing: boolean;
  base?: string;
}

/**
 * What discarding a worktree loses, each named to the user first and checked again before
 * anything is removed: `git worktree remove --force` deletes the whole folder, ignored files
 * too, and `git branch -D` the branch, whatever it held.
 */
export interface Losses {
  uncommitted: FileStatus[];
  /** Files and folders git ignores there (`.env`, `node_modules/`): git keeps no copy of them. */
  ignored: string[];
  /**
   * Commits of the branch not in its base, one line each ("abc1234 Subject"); with no base,
   * those no other branch, tag or worktree holds.
   */
  unmerged: string[];
  /** Commits only its detached HEAD reaches: no branch, tag or other worktree holds them. */
  detached: string[];
  missing: boolean;
}

/** Uncommitted files, and ignored ones as their patterns name them (a wholly ignored folder once, `build/`). */
const STATUS = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching'];

const lines = (out: string) => out.split('\n').filter(Boolean);

/**
 * Commits `tip` reaches that nothing else will once the worktree is gone: no ref but `drop` (the
 * branch deleted with it), no other worktree's HEAD. Refs are named in full, so no name can be
 * read as an option.
 */
async function onlyFrom(
  git: Git,
  repoFolder: string,
  worktree: Discardable,
  entries: readonly WorktreeEntry[],
  tip: string,
  drop?: string,
): Promise<string[]> {
  const others = entries
    .filter((e) => e.head && path.resolve(e.path) !== path.resolve(worktree.path))
    .map((e) => e.head!);
  const out = await git.out(repoFolder, [
    'log',
    '--format=%h %s',
    tip,
    '--not',
    ...(drop ? [`--exclude=${drop}`] : []),
    // `--all` alone takes every worktree's HEAD, this one's too.
    '--single-worktree',
    '--all',
    ...others,
  ]);
  return lines(out);
}

/** What discarding the worktree would lose: uncommitted and ignored files, commits held nowhere else. */
export async function lossesOf(
  git: Git,
  repoFolder: string,
  worktree: Discardable,
  entries: readonly WorktreeEntry[],
): Promise<Losses> {
  if (worktree.main) throw new WorktreeError('failed', `${worktree.path} is the repository itself, not a worktree.`);
  const files = worktree.missing ? [] : parseStatusZ(await git.out(worktree.path, STATUS));
  const uncommitted = files.filter((f) => f.status !== '!');
  const ignored = files
    .filter((f) => f.status === '!')
    .map((f) => f.path)
    .sort();
  const { branch, base, head } = worktree;
  let unmerged: string[] = [];
  let detached: string[] = [];
  if (branch) {
    const ref = `refs/heads/${branch}`;
    const range = base ? await git.run(repoFolder, ['log', '--format=%h %s', `refs/heads/${base}..${ref}`]) : undefined;
    unmerged = range?.code === 0 ? lines(range.stdout) : await onlyFrom(git, repoFolder, worktree, entries, ref, ref);
  } else if (head && /^[0-9a-f]{40,64}$/.test(head)) {
    detached = await onlyFrom(git, repoFolder, worktree, entries, head);
  }
  return { uncommitted, ignored, unmerged, detached, missing: worktree.missing };
}

/** Two answers of {@link lossesOf} lose the same. */
export function sameLosses(a: Losses, b: Losses): boolean {
  const key = (l: Losses) =>
    JSON.stringify([l.uncommitted.map((f) => f.path).sort(), l.ignored, l.unmerged, l.detached, l.missing]);
  return key(a) === key(b);
}
