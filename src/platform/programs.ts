/**
 * Where a program is on this machine, like `which` (no shell, nothing run): the one lookup an
 * agent's start, a terminal command, "Add Agent" and the git finder all make.
 *
 * On Windows a bare name is looked up on PATH × PATHEXT as Windows does (never in the folder the
 * agent works in, which a cloned repository controls, and never the extensionless shell script
 * npm puts beside `npx.cmd`). On macOS a program not on PATH is also looked for where Homebrew
 * puts it: a VS Code started from the Dock may not have read the login shell's PATH.
 */
import { accessSync, constants, statSync } from 'node:fs';
import * as nodePath from 'node:path';

export interface PathEnv {
  PATH?: string;
  PATHEXT?: string;
  platform?: NodeJS.Platform;
  /** Whether a path is a file that may be run (tests pass a fake). */
  isExecutable?: (path: string) => boolean;
}

/** A lookup: PATH and PATHEXT given, or read from `env` (in any case on Windows). */
export interface ProgramLookup extends PathEnv {
  /** The environment the program gets (PATH, PATHEXT are read from it, in any case). */
  env?: Readonly<Record<string, string | undefined>>;
  /** What a relative path is taken from. */
  cwd?: string;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
/** Where Homebrew links programs (Apple silicon, then Intel). */
export const HOMEBREW_BINS = ['/opt/homebrew/bin', '/usr/local/bin'];

/** Whether `path` is a file this process may run. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const pathFlavour = (platform: NodeJS.Platform) => (platform === 'win32' ? nodePath.win32 : nodePath.posix);

/** A variable of `env`, its name matched without case on Windows (where `Path` is usual). */
export function envValue(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== 'win32') return env[name];
  const upper = name.toUpperCase();
  // The last spelling wins, as it does when Node builds the child's environment block.
  let value: string | undefined;
  for (const [k, v] of Object.entries(env)) if (k.toUpperCase() === upper && v !== undefined) value = v;
  return value;
}

/** Whether a command is a path (it names a folder) rather than a name to look up on PATH. */
export function isPathLike(command: string, platform: NodeJS.Platform = process.platform): boolean {
  return (
    pathFlavour(platform).isAbsolute(command) ||
    command.includes('/') ||
    (platform === 'win32' && command.includes('\\'))
  );
}

/** The extensions Windows tries, from PATHEXT, as spelled there. */
function pathExts(env: ProgramLookup, platform: NodeJS.Platform): string[] {
  const raw = env.PATHEXT ?? envValue(env.env ?? process.env, 'PATHEXT', platform) ?? DEFAULT_PATHEXT;
  const exts = raw
    .split(';')
    .map((e) => e.trim())
    .filter((e) => /^\.[^.\\/]+$/.test(e));
  return exts.length ? exts : DEFAULT_PATHEXT.split(';');
}

/**
 * The names Windows tries for `name` in one folder: the name as written when its extension is
 * one PATHEXT lists, then the name with each extension of PATHEXT. An extensionless file is never
 * run (npm's `npx` beside `npx.cmd` is a shell script for Git Bash).
 */
function windowsCandidates(name: string, exts: readonly string[]): string[] {
  const ext = nodePath.win32.extname(name).toUpperCase();
  const out = ext && exts.some((e) => e.toUpperCase() === ext) ? [name] : [];
  for (const e of exts) out.push(name + e);
  return out;
}

/**
 * Where `program` is found, or undefined. A path is taken as it is (relative to `cwd` when
 * given); a name is looked up on PATH (on Windows with PATHEXT; on macOS also in Homebrew's
 * folders when PATH lacks them).
 */
export function findProgram(program: string, env: ProgramLookup = {}): string | undefined {
  const platform = env.platform ?? process.platform;
  const isExec = env.isExecutable ?? isExecutableFile;
  const path = pathFlavour(platform);
  const exts = platform === 'win32' ? pathExts(env, platform) : [];
  const tries = (p: string) => (platform === 'win32' ? windowsCandidates(p, exts) : [p]);
  if (isPathLike(program, platform)) {
    const abs = path.isAbsolute(program) || !env.cwd ? program : path.resolve(env.cwd, program);
    return tries(abs).find(isExec);
  }
  const pathVar = env.PATH ?? envValue(env.env ?? process.env, 'PATH', platform) ?? '';
  const dirs = pathVar
    .split(platform === 'win32' ? ';' : ':')
    // Windows allows a folder in quotes (one with a `;` in its name).
    .map((d) => (platform === 'win32' ? d.trim().replace(/^"(.*)"$/, '$1') : d))
    .filter(Boolean);
  if (platform === 'darwin') for (const d of HOMEBREW_BINS) if (!dirs.includes(d)) dirs.push(d);
  for (const dir of dirs) {
    // Only absolute folders: a relative one would be looked up in the agent's working folder.
    if (!path.isAbsolute(dir)) continue;
    for (const candidate of tries(path.join(dir, program))) if (isExec(candidate)) return candidate;
  }
  return undefined;
}
