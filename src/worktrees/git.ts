import { existsSync } from 'node:fs';
import { atLeast, GitLocator, GitMissing, MIN_GIT, type GitFound } from '../platform/gitFind';
import { userGitEnv } from '../platform/gitEnv';
import { GitNotStarted, GitRunner, GitTimedOut } from '../platform/gitRun';
import { WorktreeError } from './errors';

/** What a worktree command says in Restricted Mode, having run nothing. */
export const UNTRUSTED =
  'This workspace is in Restricted Mode, and worktree sessions run git in its repository, which can run programs the repository names: trust the folder first.';

/** `git worktree list -z` came in 2.36; older versions are read line by line. */
export const LIST_Z_GIT: readonly [number, number] = [2, 36];

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  /** The window's one git finder; else one of its own for `gitPath`. */
  locator?: GitLocator;
  /** The git to run (VS Code's `git.path`); else git from PATH and the usual places. */
  gitPath?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The limit of a command that names none (2 min). */
  timeoutMs?: number;
  /**
   * Whether the workspace is trusted (VS Code's workspace trust); always, when absent. Before it
   * is, no git runs at all: a repository's config names programs (fsmonitor, filters, hooks).
   */
  trusted?: () => boolean;
}

export interface RunOptions {
  /** The repository's hooks run, as the user's own git runs them on this command. */
  hooks?: boolean;
  timeoutMs?: number;
}

/**
 * The machine's git on the user's repositories, run without a shell (arguments go as an array,
 * so names with spaces, quotes or non-ASCII letters reach git as they are, on Windows too) and
 * through the platform's runner: no fsmonitor, pager or hooks unless a call asks for hooks,
 * input closed, a time limit on each command.
 */
export class Git {
  private readonly locator: GitLocator;
  private readonly env: Record<string, string>;
  private runner: Promise<GitRunner> | undefined;

  constructor(private readonly options: GitOptions = {}) {
    const platform = options.platform ?? process.platform;
    this.locator = options.locator ?? new GitLocator({ configured: options.gitPath, env: options.env, platform });
    this.env = userGitEnv(options.env ?? process.env, platform);
  }

  private gate(): void {
    if (this.options.trusted && !this.options.trusted()) throw new WorktreeError('untrusted', UNTRUSTED);
  }

  private async found(): Promise<GitFound> {
    this.gate();
    try {
      return await this.locator.find();
    } catch (e) {
      if (!(e instanceof GitMissing)) throw e;
      if (e.kind === 'tooOld') {
        throw new WorktreeError(
          'gitTooOld',
          `Worktree sessions need git ${MIN_GIT.join('.')} or newer; ${e.detail}. Update git to use them.`,
        );
      }
      throw new WorktreeError(
        'gitMissing',
        `Worktree sessions need git ${MIN_GIT.join('.')} or newer, ${e.kind === 'missing' ? e.detail : `and ${e.detail}`}. Install git, or set git.path.`,
      );
    }
  }

  /** Runs git in `cwd`; resolves with its exit code (never rejects for a non-zero one). */
  async run(cwd: string, args: readonly string[], options: RunOptions = {}): Promise<GitResult> {
    this.gate();
    this.runner ??= this.found().then(
      (g) =>
        new GitRunner({
          git: g.path,
          env: this.env,
          timeoutMs: this.options.timeoutMs,
          platform: this.options.platform,
        }),
    );
    this.runner.catch(() => (this.runner = undefined));
    const runner = await this.runner;
    try {
      const r = await runner.run({ args, cwd, hooks: options.hooks, timeoutMs: options.timeoutMs });
      return { stdout: r.stdout.toString('utf8'), stderr: r.stderr, code: r.code };
    } catch (e) {
      if (e instanceof GitTimedOut) throw new WorktreeError('failed', `${e.message} Nothing after it was done.`);
      if (e instanceof GitNotStarted) {
        // Node says ENOENT both for a missing git and a missing folder to run it in.
        if (!existsSync(cwd)) throw new WorktreeError('failed', `${cwd} does not exist any more.`);
        throw new WorktreeError('gitMissing', `${e.message} Install git, or set git.path.`);
      }
      throw e;
    }
  }

  /** Runs git and returns its stdout; a non-zero exit is a {@link WorktreeError} with git's last line. */
  async out(cwd: string, args: readonly string[], what?: string, options?: RunOptions): Promise<string> {
    const r = await this.run(cwd, args, options);
    if (r.code !== 0) throw failed(what ?? `git ${args[0]}`, r);
    return r.stdout;
  }

  /** The version of the git found; a missing or too old git is said so, with the version needed. */
  async checkVersion(): Promise<readonly [number, number, number]> {
    return (await this.found()).version;
  }

  /** Whether the git found is at least `min`. */
  async atLeast(min: readonly [number, number]): Promise<boolean> {
    return atLeast(await this.checkVersion(), min);
  }
}

function firstLine(r: GitResult): string {
  return (
    r.stderr
      .trim()
      .split('\n')
      .find((l) => /^(fatal|error):/.test(l)) ??
    r.stderr.trim().split('\n').pop() ??
    `exit ${r.code}`
  );
}

/** A failed git command as the user reads it: what was tried and git's own reason. */
export function failed(what: string, r: GitResult): WorktreeError {
  return new WorktreeError('failed', `${what} failed: ${firstLine(r) || `exit ${r.code}`}`, r.stderr);
}
