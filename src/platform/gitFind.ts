/**
 * The one git finder: which git this machine has, where, and which version. Every feature that
 * runs git (checkpoints, worktrees) asks it, each checking the version it needs against what
 * was found.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { findProgram } from './programs';

/**
 * The oldest git the project runs on: every command and output format used by checkpoints and
 * worktrees is older than this, and the config and environment that keep the user's settings
 * out of the checkpoints' git are read since.
 */
export const MIN_GIT: readonly [number, number] = [2, 20];

export interface GitFound {
  path: string;
  /** As `git --version` prints it, e.g. [2, 39, 5]. */
  version: readonly [number, number, number];
}

/** Why no git was found: none at all, only too old ones, or one that does not run. */
export type GitMissingKind = 'missing' | 'tooOld' | 'broken';

/** No usable git: `detail` says what was found ("/usr/bin/git is git 2.19.1"), for the feature's own sentence. */
export class GitMissing extends Error {
  constructor(
    readonly kind: GitMissingKind,
    readonly detail: string,
    /** The git path the user set, when the search was only there. */
    readonly configured?: string,
  ) {
    super(detail);
    this.name = 'GitMissing';
  }
}

export interface FindGitOptions {
  /** A path the user configured (VS Code's `git.path`); tried alone when given. */
  configured?: string;
  /** The oldest version accepted ({@link MIN_GIT} by default): an older git is passed over for the next one. */
  minimum?: readonly [number, number];
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether a path is an executable file (tests pass a fake). */
  isExecutable?: (file: string) => boolean;
}

/**
 * Where git may be, best first: the configured path alone when there is one (a git the user
 * chose that does not work is said to be so, not replaced by another); else PATH, then where
 * the usual installers put it (an extension host started from the Dock or the Start menu may
 * have a short PATH). On Windows only `git.exe` counts: a `.cmd` shim would need `cmd.exe`.
 */
export function gitCandidates(options: FindGitOptions = {}): string[] {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const out: string[] = [];
  const add = (file: string | undefined) => {
    if (file && !out.includes(file)) out.push(file);
  };
  if (options.configured?.trim()) return [options.configured.trim()];
  const pathEnv = platform === 'win32' ? (env.Path ?? env.PATH) : env.PATH;
  add(findProgram('git', { PATH: pathEnv ?? '', PATHEXT: '.EXE', platform, isExecutable: options.isExecutable }));
  if (platform === 'win32') {
    for (const base of [env.ProgramFiles, env['ProgramFiles(x86)'], env.ProgramW6432]) {
      if (base) add(p.join(base, 'Git', 'cmd', 'git.exe'));
    }
    if (env.LOCALAPPDATA) add(p.join(env.LOCALAPPDATA, 'Programs', 'Git', 'cmd', 'git.exe'));
  } else if (platform === 'darwin') {
    add('/opt/homebrew/bin/git');
    add('/usr/local/bin/git');
    add('/usr/bin/git');
  } else {
    add('/usr/bin/git');
    add('/usr/local/bin/git');
  }
  return out;
}

/** The version `git --version` prints ("git version 2.39.5", "2.45.1.windows.1", "2.39.3 (Apple Git-146)"). */
export function parseGitVersion(output: string): [number, number, number] | undefined {
  const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(output);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** Whether `version` is `min` or newer (major and minor compared). */
export function atLeast(version: readonly number[], min: readonly [number, number]): boolean {
  const [major = 0, minor = 0] = version;
  return major > min[0] || (major === min[0] && minor >= min[1]);
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { env, timeout: 15_000, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        // A string code is the spawn's own failure (ENOENT, EACCES): the file did not run at all.
        if (error && typeof error.code === 'string') return resolve({ code: -1, out: error.code });
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: `${stdout}${stderr}` });
      },
    );
    child.stdin?.end();
  });
}

/**
 * Finds a git that runs and is at least `minimum`. Throws {@link GitMissing} saying what was
 * found instead; the caller words it for its feature and says it once.
 */
export async function findGit(options: FindGitOptions = {}): Promise<GitFound> {
  const platform = options.platform ?? process.platform;
  const env = { ...(options.env ?? process.env), LC_ALL: 'C', LANG: 'C' };
  const isExecutable = options.isExecutable;
  const minimum = options.minimum ?? MIN_GIT;
  const candidates = gitCandidates(options).filter((c) => (isExecutable ? isExecutable(c) : true));
  let tooOld: string | undefined;
  let broken: string | undefined;
  for (const file of candidates) {
    // macOS's /usr/bin/git is a stub that opens an installer dialog when the command line
    // tools are missing: ask xcode-select first, as VS Code's Git extension does.
    if (platform === 'darwin' && file === '/usr/bin/git' && (await run('xcode-select', ['-p'], env)).code !== 0)
      continue;
    const r = await run(file, ['--version'], env);
    if (r.code === -1 && /^(ENOENT|EACCES|ENOTDIR)$/.test(r.out)) continue;
    const version = parseGitVersion(r.out);
    if (r.code !== 0 || !version) {
      broken ??= `${file} did not run (${r.out.trim().split('\n')[0] || `exit ${r.code}`})`;
      continue;
    }
    if (!atLeast(version, minimum)) {
      tooOld ??= `${file} is git ${version.join('.')}`;
      continue;
    }
    return { path: file, version };
  }
  const configured = options.configured?.trim() || undefined;
  if (tooOld) throw new GitMissing('tooOld', tooOld, configured);
  if (broken) throw new GitMissing('broken', broken, configured);
  throw new GitMissing(
    'missing',
    `which was not found ${configured ? `at ${configured} (the git path set)` : 'on PATH'}`,
    configured,
  );
}

/** How long a failed search stands before git is looked for again (installed meanwhile). */
const RETRY_MS = 60_000;

/**
 * One finder per window, shared by every feature: git is looked for once; a failed search is
 * answered from memory for a minute, then made again.
 */
export class GitLocator {
  private found: Promise<GitFound> | undefined;
  private failedAt: number | undefined;

  constructor(
    private readonly options: FindGitOptions = {},
    private readonly now: () => number = Date.now,
  ) {}

  find(): Promise<GitFound> {
    if (this.found && this.failedAt !== undefined && this.now() - this.failedAt > RETRY_MS) this.found = undefined;
    if (!this.found) {
      this.failedAt = undefined;
      const search = findGit(this.options);
      search.catch(() => (this.failedAt = this.now()));
      this.found = search;
    }
    return this.found;
  }
}
