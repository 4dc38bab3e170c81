import { cpSync, existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { carryChanges, type Carried } from './carry';
import { WorktreeError } from './errors';
import { failed, LIST_Z_GIT, type Git } from './git';
import { parseNameStatusZ, parseStatusZ, parseWorktreeList, type FileStatus, type WorktreeEntry } from './porcelain';

export type { FileStatus };
import { worktreePath } from './paths';

/** A folder's repository as worktree sessions need it. */
export interface RepoInfo {
  /** The folder's work tree (the top of the repository or of the worktree opened). */
  top: string;
  /** The main worktree: where new worktrees are placed beside. */
  main: string;
  /** The branch checked out; absent when HEAD is detached. */
  branch?: string;
  head: string;
  /** The outermost superproject when the repository is a submodule. */
  outer?: string;
}

/** A worktree as the Sessions view lists it. */
export interface WorktreeInfo extends WorktreeEntry {
  /** The repository's own work tree (never discarded). */
  main: boolean;
  /** Its folder is gone (deleted by hand): git still lists it until pruned. */
  missing: boolean;
  /** The branch it was made from (kept in the branch's config), else the main worktree's. */
  base?: string;
}

export interface CreateOptions {
  branch: string;
  /** A local branch; the folder's current branch when absent. */
  base?: string;
  /** The user's `acp.worktrees.location`. */
  location?: string;
  /** Untracked files the user listed to copy into the new worktree (`.env`). */
  copyFiles?: readonly string[];
  /** Copy the folder's uncommitted changes into the worktree (a fork continues from them). */
  carry?: boolean;
}

export interface Created {
  path: string;
  branch: string;
  base: string;
  /** The files of `copyFiles` that were copied. */
  copied: string[];
  /** Uncommitted changes of the folder, which the worktree does not have: said, never carried silently. */
  notCarried: FileStatus[];
  /** The uncommitted changes copied in, when asked to carry them (the folder keeps them too). */
  carried?: Carried;
}

export interface Summary {
  ahead: number;
  behind: number;
  /** Files that differ from the merge base: commits and uncommitted changes, untracked files too. */
  changed: number;
  /** Their paths, relative to the worktree, `/`-separated. */
  files: string[];
}

/** What discarding a worktree loses: said first, and checked again before anything is removed. */
export interface Losses {
  uncommitted: FileStatus[];
  /** Commits of the branch not in its base, one line each ("abc1234 Subject"). */
  unmerged: string[];
  missing: boolean;
}

export type MergeResult =
  { kind: 'merged' | 'squashed'; into: string } | { kind: 'conflicts'; into: string; conflicts: string[] };

const STATUS = ['status', '--porcelain=v1', '-z', '--untracked-files=all'];
/** A checkout or merge of a large repository may take minutes. */
const LONG_MS = 10 * 60_000;

/** Worktree sessions' git work: each operation checks first and says what it refused. */
export class Worktrees {
  constructor(readonly git: Git) {}

  /** The folder's repository; not a repository, a bare one or one without commits is refused. */
  async repo(folder: string): Promise<RepoInfo> {
    await this.git.checkVersion();
    const kind = await this.git.run(folder, ['rev-parse', '--is-bare-repository']);
    if (kind.code !== 0) {
      throw new WorktreeError(
        'notRepo',
        `${folder} is not in a git repository: worktree sessions need one (git init, then a first commit).`,
        kind.stderr,
      );
    }
    if (kind.stdout.trim() === 'true') {
      throw new WorktreeError(
        'bare',
        `${folder} is a bare repository, which has no files to work on: open one of its worktrees instead.`,
      );
    }
    const top = (await this.git.out(folder, ['rev-parse', '--show-toplevel'])).trim();
    const head = await this.git.run(top, ['rev-parse', '--verify', '-q', 'HEAD']);
    if (head.code !== 0) {
      throw new WorktreeError(
        'badBase',
        `The repository at ${top} has no commit yet: commit once, then start a worktree.`,
      );
    }
    const branch = await this.git.run(top, ['symbolic-ref', '-q', '--short', 'HEAD']);
    const list = await this.entries(top);
    let outer: string | undefined;
    for (let at = top; ;) {
      const sup = (await this.git.out(at, ['rev-parse', '--show-superproject-working-tree'])).trim();
      if (!sup) break;
      outer = at = path.resolve(sup);
    }
    return {
      top: path.resolve(top),
      // A submodule's main worktree is listed as its git dir (inside the superproject's .git).
      main: path.resolve(outer ? top : (list[0]?.path ?? top)),
      branch: branch.code === 0 ? branch.stdout.trim() : undefined,
      head: head.stdout.trim(),
      outer,
    };
  }

  private async entries(cwd: string): Promise<WorktreeEntry[]> {
    const z = await this.git.atLeast(LIST_Z_GIT);
    const out = await this.git.out(cwd, ['worktree', 'list', '--porcelain', ...(z ? ['-z'] : [])]);
    return parseWorktreeList(out, z);
  }

  /** Every worktree of the folder's repository, the main one first, those made by hand too. */
  async list(folder: string): Promise<WorktreeInfo[]> {
    const repo = await this.repo(folder);
    const entries = await this.entries(repo.top);
    return Promise.all(
      entries.map(async (e, i): Promise<WorktreeInfo> => {
        const p = i === 0 ? repo.main : path.resolve(e.path);
        const base = e.branch && i > 0 ? ((await this.baseOf(repo.top, e.branch)) ?? entries[0]?.branch) : undefined;
        return { ...e, path: p, main: i === 0, missing: e.prunable !== undefined || !existsSync(p), base };
      }),
    );
  }

  private async baseOf(cwd: string, branch: string): Promise<string | undefined> {
    const r = await this.git.run(cwd, ['config', '--get', `branch.${branch}.acp-base`]);
    return r.code === 0 ? r.stdout.trim() || undefined : undefined;
  }

  /** Creates `<location>/<branch>` from `base` with `git worktree add -b`, refusing what git would half do. */
  async create(folder: string, options: CreateOptions): Promise<Created> {
    const repo = await this.repo(folder);
    const branch = options.branch.trim();
    const valid = await this.git.run(repo.top, ['check-ref-format', '--branch', branch]);
    if (!branch || valid.code !== 0 || branch.startsWith('-')) {
      throw new WorktreeError('invalidBranch', `"${branch}" is not a valid branch name (git check-ref-format).`);
    }
    if ((await this.git.run(repo.top, ['show-ref', '--verify', '-q', `refs/heads/${branch}`])).code === 0) {
      throw new WorktreeError('branchExists', `A branch named "${branch}" exists already: choose another name.`);
    }
    const base = options.base?.trim() || repo.branch;
    if (!base) {
      throw new WorktreeError(
        'detached',
        `HEAD is detached at ${repo.head.slice(0, 7)} in ${repo.top}: choose a branch as the base, so the worktree can be merged back into it.`,
      );
    }
    if ((await this.git.run(repo.top, ['show-ref', '--verify', '-q', `refs/heads/${base}`])).code !== 0) {
      throw new WorktreeError('badBase', `The base "${base}" is not a local branch of ${repo.top}.`);
    }
    const target = worktreePath(repo.main, branch, { location: options.location, outer: repo.outer });
    if (existsSync(target)) {
      throw new WorktreeError('folderExists', `${target} exists already: remove it or choose another branch name.`);
    }
    mkdirSync(path.dirname(target), { recursive: true });
    // The folder's status walks its whole tree, as the checkout does the new one: side by side,
    // they take the time of the longer (each reads and writes its own index).
    const [status, add] = await Promise.all([
      this.git.run(repo.top, STATUS),
      // The user's own `git worktree add` runs the post-checkout hook: so does this one.
      this.git.run(repo.top, ['worktree', 'add', '-b', branch, target, base], { hooks: true, timeoutMs: LONG_MS }),
    ]);
    if (add.code !== 0) throw failed('git worktree add', add);
    if (status.code !== 0) throw failed('git status', status);
    const notCarried = parseStatusZ(status.stdout);
    await this.git.run(repo.top, ['config', `branch.${branch}.acp-base`, base]);
    const carried = options.carry ? carryChanges(repo.top, target, notCarried) : undefined;
    const copied = copyInto(repo.top, target, options.copyFiles ?? []);
    return { path: target, branch, base, copied, notCarried: carried ? [] : notCarried, carried };
  }

  /** The repository's local branches. */
  async branches(folder: string): Promise<string[]> {
    const out = await this.git.out(folder, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']);
    return out.split('\n').filter(Boolean);
  }

  /** A folder's uncommitted changes, untracked files too. */
  async uncommitted(folder: string): Promise<FileStatus[]> {
    return parseStatusZ(await this.git.out(folder, STATUS));
  }

  /** Ahead and behind its base, and the files changed since the merge base (uncommitted ones too). */
  async summary(worktree: string, base: string): Promise<Summary> {
    const counts = await this.git.out(worktree, ['rev-list', '--left-right', '--count', `${base}...HEAD`]);
    const [behind = 0, ahead = 0] = counts.trim().split(/\s+/).map(Number);
    const { files } = await this.changes(worktree, base);
    return { ahead, behind, changed: files.length, files: files.map((f) => f.path) };
  }

  /**
   * The worktree's files against the merge base with `base`, as they are on disk: what its
   * sessions committed and what they left uncommitted (agents seldom commit), untracked files added.
   */
  async changes(worktree: string, base: string): Promise<{ mergeBase: string; files: FileStatus[] }> {
    const mergeBase = (await this.git.out(worktree, ['merge-base', base, 'HEAD'])).trim();
    const tracked = parseNameStatusZ(await this.git.out(worktree, ['diff', '--name-status', '-z', '-M', mergeBase]));
    const untracked = (await this.git.out(worktree, ['ls-files', '--others', '--exclude-standard', '-z']))
      .split('\0')
      .filter(Boolean)
      .map((p): FileStatus => ({ path: p, status: 'A' }));
    return { mergeBase, files: [...tracked, ...untracked].sort((a, b) => a.path.localeCompare(b.path)) };
  }

  /** A file's bytes at a commit (the old side of a review), or undefined where it did not exist. */
  async show(cwd: string, rev: string, file: string): Promise<string | undefined> {
    const r = await this.git.run(cwd, ['show', `${rev}:${file.split(path.sep).join('/')}`]);
    return r.code === 0 ? r.stdout : undefined;
  }

  /**
   * Merges the worktree's branch into its base where the base is checked out: a merge commit
   * (the one the user asked for) or a squash left staged for the user to commit. Uncommitted
   * changes of the worktree are committed only with the message the user gave; a conflict is
   * left in the base's folder for the merge editor, nothing else done.
   */
  async merge(
    worktree: WorktreeInfo,
    options: { mode: 'merge' | 'squash'; commitMessage?: string },
  ): Promise<MergeResult> {
    const { branch, base } = worktree;
    if (!branch || !base) throw new WorktreeError('detached', `${worktree.path} has no branch to merge.`);
    const into = (await this.entries(worktree.path)).find((e) => e.branch === base);
    if (!into) {
      throw new WorktreeError(
        'baseNotCheckedOut',
        `${base} is not checked out in any folder: check it out to merge into it.`,
      );
    }
    const pending = parseStatusZ(await this.git.out(worktree.path, STATUS));
    if (pending.length > 0) {
      if (!options.commitMessage) {
        throw new WorktreeError(
          'worktreeDirty',
          `${worktree.path} has ${pending.length} uncommitted change${pending.length === 1 ? '' : 's'}: commit them there first.`,
        );
      }
      await this.git.out(worktree.path, ['add', '-A'], 'git add');
      await this.git.out(worktree.path, ['commit', '-q', '-m', options.commitMessage], 'git commit', { hooks: true });
    }
    const target = path.resolve(into.path);
    const dirty = parseStatusZ(await this.git.out(target, ['status', '--porcelain=v1', '-z', '--untracked-files=no']));
    if (dirty.length > 0) {
      throw new WorktreeError(
        'baseDirty',
        `${base} has uncommitted changes in ${target} (${dirty
          .slice(0, 3)
          .map((f) => f.path)
          .join(', ')}${dirty.length > 3 ? ', …' : ''}): commit or stash them before merging.`,
      );
    }
    const args = options.mode === 'squash' ? ['merge', '--squash', branch] : ['merge', '--no-ff', '--no-edit', branch];
    const r = await this.git.run(target, args, { hooks: true, timeoutMs: LONG_MS });
    const conflicts = (await this.git.out(target, ['diff', '--name-only', '--diff-filter=U', '-z']))
      .split('\0')
      .filter(Boolean)
      .map((p) => path.join(target, p));
    if (conflicts.length > 0) return { kind: 'conflicts', into: target, conflicts };
    if (r.code !== 0) throw failed(`git merge ${branch} into ${base}`, r);
    return { kind: options.mode === 'squash' ? 'squashed' : 'merged', into: target };
  }

  /**
   * Removes the worktree and its branch, once the user saw `seen` (from {@link losses}): when
   * more would be lost now than they were told, nothing is removed.
   */
  async discard(repoFolder: string, worktree: WorktreeInfo, seen: Losses): Promise<void> {
    if (worktree.main) throw new WorktreeError('failed', `${worktree.path} is the repository itself, not a worktree.`);
    if (worktree.locked !== undefined) {
      throw new WorktreeError(
        'locked',
        `${worktree.path} is locked${worktree.locked ? ` (${worktree.locked})` : ''}: unlock it (git worktree unlock) to discard it.`,
      );
    }
    const now = await this.losses(repoFolder, worktree);
    const key = (l: Losses) => JSON.stringify([l.uncommitted.map((f) => f.path).sort(), l.unmerged]);
    if (key(now) !== key(seen)) {
      throw new WorktreeError(
        'failed',
        `${worktree.path} changed since you were asked: nothing was removed. Look again.`,
      );
    }
    if (worktree.missing) await this.git.out(repoFolder, ['worktree', 'prune'], 'git worktree prune');
    else
      await this.git.out(repoFolder, ['worktree', 'remove', '--force', worktree.path], 'git worktree remove', {
        timeoutMs: LONG_MS,
      });
    if (worktree.branch) {
      await this.git.out(repoFolder, ['branch', '-D', worktree.branch], 'git branch -D');
      await this.git.run(repoFolder, ['config', '--remove-section', `branch.${worktree.branch}`]);
    }
  }

  /** What discarding the worktree would lose: uncommitted changes and commits not in its base. */
  async losses(repoFolder: string, worktree: WorktreeInfo): Promise<Losses> {
    if (worktree.main) throw new WorktreeError('failed', `${worktree.path} is the repository itself, not a worktree.`);
    const uncommitted = worktree.missing ? [] : parseStatusZ(await this.git.out(worktree.path, STATUS));
    const range = worktree.base && worktree.branch ? `${worktree.base}..${worktree.branch}` : undefined;
    const unmerged = range
      ? (await this.git.out(repoFolder, ['log', '--format=%h %s', range])).split('\n').filter(Boolean)
      : [];
    return { uncommitted, unmerged, missing: worktree.missing };
  }
}

/** Copies the listed untracked files (relative paths inside the repository) the worktree lacks. */
function copyInto(from: string, to: string, files: readonly string[]): string[] {
  const copied: string[] = [];
  for (const rel of files) {
    const clean = rel.trim();
    if (!clean || path.isAbsolute(clean) || clean.split(/[\\/]/).includes('..')) continue;
    const src = path.join(from, clean);
    const dst = path.join(to, clean);
    if (!existsSync(src) || existsSync(dst)) continue;
    mkdirSync(path.dirname(dst), { recursive: true });
    cpSync(src, dst, { recursive: true });
    copied.push(clean);
  }
  return copied;
}
