import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { findOnPath } from '../agent/presets';
import { GitUnavailable } from './errors';

/**
 * The oldest git checkpoints run on: every command and output format used here is older than
 * this, and the config and environment that keep the user's settings out are read since.
 */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 20];

export interface GitFound {
  path: string;
  /** As `git --version` prints it, e.g. "2.39.5". */
  version: string;
}

export interface FindGitOptions {
  /** A path the user configured (VS Code's `git.path`); tried first. */
  configured?: string;
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
  add(findOnPath('git', { PATH: pathEnv ?? '', PATHEXT: '.EXE', platform, isExecutable: options.isExecutable }));
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

export function isRecentEnough(version: readonly number[]): boolean {
  const [major = 0, minor = 0] = version;
  return major > MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor >= MIN_GIT_VERSION[1]);
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 15_000, windowsHide: true, encoding: 'utf8' }, (error, stdout, stderr) => {
      // A string code is the spawn's own failure (ENOENT, EACCES): the file did not run at all.
      if (error && typeof error.code === 'string') return resolve({ code: -1, out: error.code });
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

/**
 * Finds a git that runs and is recent enough. Throws {@link GitUnavailable} saying which, with
 * the minimum version; the caller says it once.
 */
export async function findGit(options: FindGitOptions = {}): Promise<GitFound> {
  const platform = options.platform ?? process.platform;
  const env = { ...(options.env ?? process.env), LC_ALL: 'C', LANG: 'C' };
  const isExecutable = options.isExecutable;
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
    if (!isRecentEnough(version)) {
      tooOld ??= `${file} is git ${version.join('.')}`;
      continue;
    }
    return { path: file, version: version.join('.') };
  }
  const need = `${MIN_GIT_VERSION.join('.')} or newer`;
  if (tooOld) {
    throw new GitUnavailable('tooOld', `Checkpoints need git ${need}; ${tooOld}. Everything else works without them.`);
  }
  if (broken) {
    throw new GitUnavailable('broken', `Checkpoints need git ${need}; ${broken}. Everything else works without them.`);
  }
  throw new GitUnavailable(
    'missing',
    `Checkpoints need git ${need}, which was not found ${options.configured ? `at ${options.configured} (the git path set)` : 'on PATH'}. Install git to keep checkpoints; everything else works without them.`,
  );
}
