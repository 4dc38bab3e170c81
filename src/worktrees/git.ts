import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { WorktreeError } from './errors';

/**
 * The oldest git worktree sessions run on: `git worktree add` came in 2.5, `list` in 2.7 and
 * `remove` (which Discard uses) in 2.17.
 */
export const MIN_WORKTREE_GIT: readonly [number, number] = [2, 17];

/** `git worktree list -z` came in 2.36; older versions are read line by line. */
export const LIST_Z_GIT: readonly [number, number] = [2, 36];

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** The version `git --version` prints ("git version 2.39.5", "2.45.1.windows.1"). */
export function parseGitVersion(output: string): [number, number, number] | undefined {
  const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(output);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

export function atLeast(version: readonly number[], min: readonly [number, number]): boolean {
  const [major = 0, minor = 0] = version;
  return major > min[0] || (major === min[0] && minor >= min[1]);
}

/**
 * The environment the user's git runs in: theirs (their identity, hooks and config are theirs
 * to keep), without the `GIT_*` variables that would aim a command at another repository than
 * the folder named, and with English messages, the few recognised here. Names are matched
 * without case on Windows, where the environment ignores it.
 */
export function userGitEnvironment(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Record<string, string> {
  const aimed = new Set(['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY']);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const key = platform === 'win32' ? k.toUpperCase() : k;
    if (aimed.has(key) || key === 'LC_ALL' || key === 'LANGUAGE') continue;
    out[k] = v;
  }
  return { ...out, LC_ALL: 'C', LANGUAGE: 'C', GIT_TERMINAL_PROMPT: '0' };
}

export interface GitOptions {
  /** The git to run (VS Code's `git.path`); else `git` from PATH (Windows finds `git.exe`). */
  gitPath?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * The machine's git, run without a shell: arguments go as an array, so names with spaces,
 * quotes or non-ASCII letters reach git as they are, on Windows too.
 */
export class Git {
  readonly path: string;
  private readonly env: Record<string, string>;
  private version: Promise<[number, number, number]> | undefined;

  constructor(options: GitOptions = {}) {
    this.path = options.gitPath?.trim() || 'git';
    this.env = userGitEnvironment(options.env ?? process.env, options.platform ?? process.platform);
  }

  /** Runs git in `cwd`; resolves with its exit code (never rejects for a non-zero one). */
  run(cwd: string, args: readonly string[]): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      execFile(
        this.path,
        args,
        { cwd, env: this.env, windowsHide: true, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
        (error, stdout, stderr) => {
          // A string code is the spawn's own failure (ENOENT, EACCES): git did not run at all,
          // or the folder to run it in is gone (Node says ENOENT for both).
          if (error && typeof error.code === 'string') {
            if (!existsSync(cwd)) return reject(new WorktreeError('failed', `${cwd} does not exist any more.`));
            return reject(this.missing(error.code));
          }
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          resolve({ stdout, stderr, code });
        },
      );
    });
  }

  /** Runs git and returns its stdout; a non-zero exit is a {@link WorktreeError} with git's last line. */
  async out(cwd: string, args: readonly string[], what?: string): Promise<string> {
    const r = await this.run(cwd, args);
    if (r.code !== 0) throw failed(what ?? `git ${args[0]}`, r);
    return r.stdout;
  }

  /** The version, checked once: too old a git is said so, with the version needed. */
  checkVersion(cwd: string): Promise<[number, number, number]> {
    this.version ??= (async () => {
      const r = await this.run(cwd, ['--version']);
      const v = parseGitVersion(r.stdout);
      if (!v) throw new WorktreeError('gitMissing', `${this.path} did not answer as git does: ${firstLine(r)}`);
      if (!atLeast(v, MIN_WORKTREE_GIT)) {
        throw new WorktreeError(
          'gitTooOld',
          `Worktree sessions need git ${MIN_WORKTREE_GIT.join('.')} or newer; ${this.path} is git ${v.join('.')}. Update git to use them.`,
        );
      }
      return v;
    })();
    this.version.catch(() => (this.version = undefined));
    return this.version;
  }

  private missing(code: string): WorktreeError {
    const where = this.path === 'git' ? 'on PATH' : `at ${this.path} (the git path set)`;
    return new WorktreeError(
      'gitMissing',
      `Worktree sessions need git ${MIN_WORKTREE_GIT.join('.')} or newer, which was not found ${where} (${code}). Install git, or set git.path.`,
    );
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
