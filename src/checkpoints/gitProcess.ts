import { isolatedGitEnv } from '../platform/gitEnv';
import { GitNotStarted, GitRunner, GitTimedOut } from '../platform/gitRun';
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

const FULL = /No space left on device|ENOSPC|Disk quota exceeded|EDQUOT|File too large|EFBIG|not enough space/i;

/** Whether an error text (git's stderr, a Node error) means the disk is full. */
export function isDiskFull(text: string): boolean {
  return FULL.test(text);
}

/** A snapshot of a large folder may take minutes; nothing here waits on the user. */
const SHADOW_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs git commands in one shadow repository: always with its git dir and work tree named, in
 * the isolated environment (no user or system config), through the platform's runner.
 */
export class ShadowGit {
  private readonly runner: GitRunner;

  constructor(
    readonly place: GitPlace,
    env: NodeJS.ProcessEnv = process.env,
    platform: NodeJS.Platform = process.platform,
  ) {
    this.runner = new GitRunner({
      git: place.git,
      env: isolatedGitEnv(env, place.home, platform),
      timeoutMs: SHADOW_TIMEOUT_MS,
      platform,
    });
  }

  /** Runs `call`; a failure is {@link StorageFull} when the disk is full, else {@link CheckpointFailed}. */
  async run(call: GitCall): Promise<GitOutput> {
    const { place } = this;
    const args = [`--git-dir=${place.gitDir}`, `--work-tree=${call.workTree ?? place.workTree}`, ...call.args];
    let r;
    try {
      // The cwd is ours: nothing git does is relative to the user's folder or finds its .git.
      r = await this.runner.run({
        args,
        cwd: place.gitDir,
        input: call.input,
        env: call.index ? { GIT_INDEX_FILE: call.index } : undefined,
        timeoutMs: call.timeoutMs,
      });
    } catch (e) {
      if (e instanceof GitNotStarted) throw new CheckpointFailed(`git could not be started (${e.code}).`, e.code);
      if (e instanceof GitTimedOut) throw new CheckpointFailed(e.message, e.message);
      throw e;
    }
    const { code, signal, stderr } = r;
    if (code === 0 || call.ok?.includes(code)) return r;
    // SIGXFSZ: a file-size limit stopped git in the middle of a write.
    if (isDiskFull(stderr) || signal === 'SIGXFSZ') throw new StorageFull(place.storage);
    const first = stderr.trim().split('\n').pop() || `exit ${signal ?? code}`;
    throw new CheckpointFailed(`git ${call.args[0]} failed: ${first}`, stderr);
  }

  /** Runs `call` and returns its stdout as text, without the final newline. */
  async text(call: GitCall): Promise<string> {
    return (await this.run(call)).stdout.toString('utf8').replace(/\n$/, '');
  }
}
