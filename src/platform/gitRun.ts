/**
 * The one git runner. Whatever the repository says, a command run here starts no program of its
 * own beyond what the caller asked for: no fsmonitor (`core.fsmonitor`, which any `status`,
 * `diff` or `ls-files` would run), no pager, no colour codes, and no hooks unless the call asks
 * for them (a command the user ran, where their own git would run them). Input is closed at once (a hook or filter that
 * reads it ends instead of waiting for ever), every command has a time limit, and a command
 * that outlives it is stopped with what it started, and named ("git worktree add did not end
 * within 10 min").
 */
import { spawn } from 'node:child_process';

export interface GitCall {
  args: readonly string[];
  cwd: string;
  /** Written to stdin, which is then closed (it is closed at once without it). */
  input?: string | Buffer;
  /** Variables added for this call (`GIT_INDEX_FILE`). */
  env?: Readonly<Record<string, string>>;
  /** How long it may run; the runner's limit when absent. */
  timeoutMs?: number;
  /** The repository's hooks run, as the user's own git runs them on this command (off by default). */
  hooks?: boolean;
}

export interface GitOutput {
  stdout: Buffer;
  stderr: string;
  code: number;
  signal: NodeJS.Signals | null;
}

/** git could not be started at all (ENOENT, EACCES…), or the folder to run it in is gone. */
export class GitNotStarted extends Error {
  constructor(
    readonly git: string,
    readonly code: string,
  ) {
    super(`${git} could not be started (${code}).`);
    this.name = 'GitNotStarted';
  }
}

/** A git command ran past its time limit and was stopped. */
export class GitTimedOut extends Error {
  constructor(
    /** The command as the user reads it: "git worktree add". */
    readonly step: string,
    readonly ms: number,
  ) {
    super(`${step} did not end within ${describe(ms)} and was stopped.`);
    this.name = 'GitTimedOut';
  }
}

function describe(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

export interface GitRunnerOptions {
  /** The git executable (found by the one finder). */
  git: string;
  /** From `isolatedGitEnv` or `userGitEnv`. */
  env: Readonly<Record<string, string>>;
  /** The limit of a call that names none (2 min). */
  timeoutMs?: number;
  platform?: NodeJS.Platform;
}

/**
 * The options put before every command. Hooks are looked for under the git executable itself,
 * which is a file: nothing can lie under it, so no hook is ever found there.
 */
export function hardening(git: string, hooks: boolean): string[] {
  return [
    '--no-pager',
    // Empty, not `false`: git before 2.36 reads the value as a program to run.
    '-c',
    'core.fsmonitor=',
    '-c',
    'color.ui=false',
    ...(hooks ? [] : ['-c', `core.hooksPath=${git}`]),
  ];
}

/** stderr beyond this is counted, not kept: what git complains about is short. */
const STDERR_KEPT = 64 * 1024;

export class GitRunner {
  readonly git: string;

  constructor(private readonly options: GitRunnerOptions) {
    this.git = options.git;
  }

  /**
   * Runs `git <args>` in `cwd`. Resolves with whatever exit code git gave; rejects only with
   * {@link GitNotStarted} or {@link GitTimedOut}.
   */
  run(call: GitCall): Promise<GitOutput> {
    const platform = this.options.platform ?? process.platform;
    const ms = call.timeoutMs ?? this.options.timeoutMs ?? 120_000;
    const env = call.env ? { ...this.options.env, ...call.env } : this.options.env;
    return new Promise((resolve, reject) => {
      // Its own process group on POSIX, so a stop also ends the hooks and filters it started.
      const group = platform !== 'win32' && process.platform !== 'win32';
      const child = spawn(this.git, [...hardening(this.git, call.hooks === true), ...call.args], {
        cwd: call.cwd,
        env,
        windowsHide: true,
        stdio: 'pipe',
        detached: group,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let errBytes = 0;
      let timedOut = false;
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => {
        if (errBytes < STDERR_KEPT) err.push(b);
        errBytes += b.length;
      });
      const stop = () => {
        try {
          if (group && child.pid) process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, ms);
      child.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new GitNotStarted(this.git, e.code ?? e.message));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (timedOut) return reject(new GitTimedOut(`git ${call.args[0] ?? ''}`.trim(), ms));
        resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1, signal });
      });
      child.stdin.on('error', () => {
        // git may exit before reading all its input; its exit code says what went wrong.
      });
      child.stdin.end(call.input ?? '');
    });
  }
}

/**
 * Splits `-z` output into its parts. Paths are bytes to git: a name that is not UTF-8 does not
 * survive decoding, so it is returned apart and never named to git or the file system again.
 */
export function splitZ(out: Buffer): { parts: string[]; notUtf8: number } {
  const parts: string[] = [];
  let notUtf8 = 0;
  let start = 0;
  for (let i = out.indexOf(0, start); i !== -1; i = out.indexOf(0, start)) {
    const raw = out.subarray(start, i);
    const s = raw.toString('utf8');
    if (Buffer.from(s, 'utf8').equals(raw)) parts.push(s);
    else notUtf8++;
    start = i + 1;
  }
  return { parts, notUtf8 };
}
