import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { carryChanges, copyListed, type Carried } from './carry';
import { lossesOf, sameLosses, type Losses } from './discard';
import { mergeWorktree, type MergeResult } from './merge';
import { WorktreeError } from './errors';
import { failed, LIST_Z_GIT, type Git } from './git';
import { parseNameStatusZ, parseStatusZ, parseWorktreeList, type FileStatus, type WorktreeEntry } from './porcelain';

export type { FileStatus, Losses, MergeResult };
import { worktreePath } from './paths';
import { outermostSuperproject } from './superproject';

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

const STATUS = ['status', '--porcelain=v1', '-z', '--untracked-files=all'];
/** A full object id (SHA-1, or SHA-256). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** `--end-of-options` came in git 2.24. */
const END_OF_OPTIONS_GIT: readonly [number, number] = [2, 24];
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
    // From the files git leaves: asking git would have it read the index of the repository around.
    const outer = outermostSuperproject(top);
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
    const base = r.code === 0 ? r.stdout.trim() : '';
    // The repository's config is anyone's to write: only a plain branch name is taken.
    return base && !base.startsWith('-') && !/[\s\0:~^?*[\\]|\.\./.test(base) ? base : undefined;
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
    if (base?.startsWith('-'))
      throw new WorktreeError('badBase', `The base "${base}" is not a local branch of ${repo.top}.`);
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
    const carried = options.carry ? await carryChanges(repo.top, target, notCarried) : undefined;
    const copied = await copyListed(repo.top, target, options.copyFiles ?? []);
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
    const counts = await this.git.out(worktree, ['rev-list', '--left-right', '--count', `refs/heads/${base}...HEAD`]);
    const [behind = 0, ahead = 0] = counts.trim().split(/\s+/).map(Number);
    const { files } = await this.changes(worktree, base);
    return { ahead, behind, changed: files.length, files: files.map((f) => f.path) };
  }

  /**
   * The worktree's files against the merge base with `base`, as they are on disk: what its
   * sessions committed and what they left uncommitted (agents seldom commit), untracked files added.
   */
  async changes(worktree: string, base: string): Promise<{ mergeBase: string; files: FileStatus[] }> {
    const mergeBase = (await this.git.out(worktree, ['merge-base', `refs/heads/${base}`, 'HEAD'])).trim();
    const tracked = parseNameStatusZ(await this.git.out(worktree, ['diff', '--name-status', '-z', '-M', mergeBase]));
    const untracked = (await this.git.out(worktree, ['ls-files', '--others', '--exclude-standard', '-z']))
      .split('\0')
      .filter(Boolean)
      .map((p): FileStatus => ({ path: p, status: 'A' }));
    return { mergeBase, files: [...tracked, ...untracked].sort((a, b) => a.path.localeCompare(b.path)) };
  }

  /**
   * A file's bytes at a commit (the old side of a review), or undefined where it did not exist.
   * `rev` comes from a document's address, which anything can write: only an object id (as the
   * review names its merge base) is taken, never a name git could read as an option
   * (`--output=<file>` makes `git show` write one), and the blob is read as stored, no filter run.
   */
  async show(cwd: string, rev: string, file: string): Promise<string | undefined> {
    const rel = file.split(path.sep).join('/');
    if (!OBJECT_ID.test(rev) || !rel || path.isAbsolute(file) || rel.split('/').includes('..')) return undefined;
    const end = (await this.git.atLeast(END_OF_OPTIONS_GIT)) ? ['--end-of-options'] : [];
    const r = await this.git.run(cwd, ['cat-file', 'blob', ...end, `${rev}:${rel}`]);
    return r.code === 0 ? r.stdout : undefined;
  }

  /** Merges the worktree's branch into its base (see {@link mergeWorktree}). */
  async merge(
    worktree: WorktreeInfo,
    options: { mode: 'merge' | 'squash'; commitMessage?: string },
  ): Promise<MergeResult> {
    const { base } = worktree;
    if (!worktree.branch || !base) throw new WorktreeError('detached', `${worktree.path} has no branch to merge.`);
    const into = (await this.entries(worktree.path)).find((e) => e.branch === base);
    if (!into) {
      throw new WorktreeError(
        'baseNotCheckedOut',
        `${base} is not checked out in any folder: check it out to merge into it.`,
      );
    }
    const changes = async () => (await this.changes(worktree.path, base)).files;
    return mergeWorktree(this.git, worktree, into, changes, options);
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
    if (!sameLosses(await this.losses(repoFolder, worktree), seen)) {
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

  /** What discarding the worktree would lose (see {@link Losses}). */
  async losses(repoFolder: string, worktree: WorktreeInfo): Promise<Losses> {
    return lossesOf(this.git, repoFolder, worktree, await this.entries(repoFolder));
  }
}
