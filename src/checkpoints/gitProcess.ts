import { spawn } from 'node:child_process';
import { CheckpointFailed, StorageFull } from './errors';

/** One git command of a shadow repository. */
export interface GitCall {
  args: readonly string[];
  /** Written to stdin, which is then closed. */
  input?: string | Buffer;
  /** `GIT_INDEX_FILE`: each operation works on an index file of its own. */
  index?: string;
  /** Another work tree than the folder's (a nested repository listed on its own). */
  workTree?: string;
  /** Exit codes that are not failures (0 always is). */
  ok?: readonly number[];
  timeoutMs?: number;
}

export interface GitOutput {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export interface GitPlace {
  /** The git executable found. */
  git: string;
  /** The shadow repository's git directory. */
  gitDir: string;
  /** The folder whose tree it keeps. */
  workTree: string;
  /** An empty folder of ours given to git as HOME, so no user or system config reaches it. */
  home: string;
  /** What a full disk is reported against. */
  storage: string;
}

/**
 * The environment git runs in: the user's `GIT_*` variables removed (a `GIT_DIR`,
 * `GIT_INDEX_FILE` or `GIT_WORK_TREE` in the environment must never point our commands at the
 * user's repository), no system or global config (hooks, fsmonitor commands, filters and
 * credential helpers configured there never run), and messages in English for the few errors
 * recognised here. Names are matched without case on Windows, where the environment ignores it.
 */
export function gitEnvironment(
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const key = platform === 'win32' ? k.toUpperCase() : k;
    if (key.startsWith('GIT_') || key === 'HOME' || key === 'XDG_CONFIG_HOME' || key === 'LC_ALL' || key === 'LANG')
      continue;
    out[k] = v;
  }
  return {
    ...out,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: `${home}${platform === 'win32' ? '\\' : '/'}gitconfig`,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    LANG: 'C',
    // update-index frees each file's buffer and glibc gives the memory back to the kernel at
    // once (four brk calls a file): a first snapshot of 50,000 files took six times as long as
    // `git add -A`. Keeping freed memory for the next file makes them equal; other C libraries
    // ignore these.
    MALLOC_TOP_PAD_: String(16 * 1024 * 1024),
    MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024),
  };
}

const FULL = /No space left on device|ENOSPC|Disk quota exceeded|EDQUOT|File too large|EFBIG|not enough space/i;

/** Whether an error text (git's stderr, a Node error) means the disk is full. */
export function isDiskFull(text: string): boolean {
  return FULL.test(text);
}

/** Runs git commands in one shadow repository: always with its git dir and work tree named. */
export class GitRunner {
  private readonly env: Record<string, string>;

  constructor(
    readonly place: GitPlace,
    env: NodeJS.ProcessEnv = process.env,
    platform: NodeJS.Platform = process.platform,
  ) {
    this.env = gitEnvironment(env, place.home, platform);
  }

  /** Runs `call`; a failure is {@link StorageFull} when the disk is full, else {@link CheckpointFailed}. */
  run(call: GitCall): Promise<GitOutput> {
    const { place } = this;
    const args = [`--git-dir=${place.gitDir}`, `--work-tree=${call.workTree ?? place.workTree}`, ...call.args];
    const env = call.index ? { ...this.env, GIT_INDEX_FILE: call.index } : this.env;
    return new Promise((resolve, reject) => {
      // The cwd is ours: nothing git does is relative to the user's folder or finds its .git.
      const child = spawn(place.git, args, { cwd: place.gitDir, env, windowsHide: true, stdio: 'pipe' });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let errBytes = 0;
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => {
        // What git complains about is short; a flood of warnings is cut, not kept.
        if (errBytes < 64 * 1024) err.push(b);
        errBytes += b.length;
      });
      const timer = setTimeout(() => child.kill(), call.timeoutMs ?? 10 * 60_000);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(new CheckpointFailed(`git could not be started (${e.message}).`, e.message));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        const stderr = Buffer.concat(err).toString('utf8');
        const result = { stdout: Buffer.concat(out), stderr, code: code ?? -1 };
        if (code === 0 || (code !== null && call.ok?.includes(code))) return resolve(result);
        // SIGXFSZ: a file-size limit stopped git in the middle of a write.
        if (isDiskFull(stderr) || signal === 'SIGXFSZ') return reject(new StorageFull(place.storage));
        const first = stderr.trim().split('\n').pop() || `exit ${code ?? signal}`;
        reject(new CheckpointFailed(`git ${call.args[0]} failed: ${first}`, stderr));
      });
      child.stdin.on('error', () => {
        // git may exit before reading all its input; its exit code says what went wrong.
      });
      child.stdin.end(call.input ?? '');
    });
  }

  /** Runs `call` and returns its stdout as text, without the final newline. */
  async text(call: GitCall): Promise<string> {
    return (await this.run(call)).stdout.toString('utf8').replace(/\n$/, '');
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
