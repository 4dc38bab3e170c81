/**
 * How a program is started, decided before anything is spawned, the same way for an agent, a
 * terminal command and what "Add Agent" reports.
 *
 * On Windows an `.exe` is started directly. A `.cmd` or `.bat` cannot be
 * (Node refuses them without a shell since 18.20.2 / 20.12.2, `EINVAL`): a shim that npm wrote
 * is read and its Node script started with `node` directly, one process less and no `cmd.exe`
 * parsing at all; any other script runs through `cmd.exe /d /s /c` with every argument escaped
 * by `cross-spawn`'s rules (ported here: its module decides by `process.platform`, so it cannot
 * be tested for Windows on another system, and its lookup is not the one "Add Agent" shows).
 * Never `shell: true` with raw arguments: an argument `x&y` would then run two commands.
 *
 * Where a program is found (PATH, PATHEXT, Homebrew's folders) is `src/platform/programs.ts`.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { envValue, findProgram, HOMEBREW_BINS, isExecutableFile, isPathLike, type PathEnv } from '../platform/programs';

export interface LaunchEnv extends PathEnv {
  /** The environment the program gets (PATH, PATHEXT, ComSpec, APPDATA are read from it, in any case). */
  env?: Readonly<Record<string, string | undefined>>;
  /** A script's text, to read an npm shim (tests pass a fake); undefined when it cannot be read. */
  readText?: (path: string) => string | undefined;
}

/** What will be spawned for a command. */
export interface LaunchPlan {
  readonly ok: true;
  /** The program spawned, and its arguments as spawned. */
  readonly file: string;
  readonly args: readonly string[];
  /** The arguments are already quoted for `cmd.exe` (Node must pass them as they are). */
  readonly verbatim: boolean;
  /** `direct`: the program itself; `node`: the Node script behind an npm shim; `cmd`: a script through `cmd.exe`. */
  readonly via: 'direct' | 'node' | 'cmd';
  /** Where the command was found (the script itself for `node` and `cmd`). */
  readonly found: string;
}

export interface LaunchRefusal {
  readonly ok: false;
  readonly why: string;
  /** No such program was found (rather than one that cannot be started so). */
  readonly missing?: boolean;
}

export type Launch = LaunchPlan | LaunchRefusal;

function readSmallText(path: string): string | undefined {
  try {
    // A shim is a few hundred bytes; anything large is not one.
    return statSync(path).size > 64 * 1024 ? undefined : readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `cmd.exe`, as the environment names it (`ComSpec`), or where Windows keeps it. */
export function cmdExe(env: Readonly<Record<string, string | undefined>>): string {
  const comspec = envValue(env, 'ComSpec', 'win32');
  if (comspec && nodePath.win32.isAbsolute(comspec)) return comspec;
  const root = envValue(env, 'SystemRoot', 'win32') ?? 'C:\\Windows';
  return nodePath.win32.join(root, 'System32', 'cmd.exe');
}

// cross-spawn's lib/util/escape.js: the characters cmd.exe gives a meaning to, escaped with ^.
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/** A program's path escaped for a `cmd.exe` command line (cross-spawn's `escapeCommand`). */
export function escapeCmdCommand(command: string): string {
  return command.replace(CMD_META, '^$1');
}

/**
 * One argument escaped for `cmd.exe` and then for the program's own parsing (cross-spawn's
 * `escapeArgument`, after https://qntm.org/cmd): backslashes before a quote or the end doubled,
 * quotes escaped with a backslash, the whole quoted, then every metacharacter (the quotes too,
 * so cmd.exe never enters a quoted state) escaped with `^`. `twice`: the script hands its
 * arguments on with `%*`, which cmd.exe parses a second time, so the carets are escaped again.
 */
export function escapeCmdArgument(arg: string, twice: boolean): string {
  let out = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1');
  out = `"${out}"`.replace(CMD_META, '^$1');
  return twice ? out.replace(CMD_META, '^$1') : out;
}

/** The program an npm shim runs, when the script is one npm wrote (`cmd-shim`, or npm's own `npx.cmd`). */
export interface ShimTarget {
  /** `node` (found on PATH by the caller) or an absolute program. */
  readonly program: string;
  readonly args: readonly string[];
}

/**
 * Reads what an npm `.cmd` shim runs. `cmd-shim` (every `npm install -g` program) writes
 * `"%_prog%" <args> "%dp0%\<script>" %*` with `_prog` set to `node.exe` beside the shim or else
 * `node`, or `"%dp0%\<program>" %*` for a target with no `#!`; npm's own `npx.cmd` runs
 * `node_modules\npm\bin\npx-cli.js` beside it (or the one of a newer npm installed in the default
 * global prefix). Anything else is not recognised: it runs through cmd.exe.
 */
export function readNpmShim(
  shim: string,
  text: string,
  exists: (path: string) => boolean,
  env: Readonly<Record<string, string | undefined>> = {},
): ShimTarget | undefined {
  const dir = nodePath.win32.dirname(shim);
  const nodeBeside = nodePath.win32.join(dir, 'node.exe');
  const node = exists(nodeBeside) ? nodeBeside : 'node';
  const name = nodePath.win32.basename(shim).toLowerCase();
  if (name === 'npx.cmd' && /"%NPX_CLI_JS%"\s+%\*/i.test(text)) {
    const appData = envValue(env, 'APPDATA', 'win32');
    const prefixed = appData && nodePath.win32.join(appData, 'npm', 'node_modules', 'npm', 'bin', 'npx-cli.js');
    const beside = nodePath.win32.join(dir, 'node_modules', 'npm', 'bin', 'npx-cli.js');
    const cli = prefixed && exists(prefixed) ? prefixed : exists(beside) ? beside : undefined;
    return cli ? { program: node, args: [cli] } : undefined;
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const last = lines.filter(Boolean).at(-1) ?? '';
  const withProg = /"%_prog%"\s+(?:([^"%]*?)\s+)?"%dp0%\\([^"%]+)"\s+%\*$/i.exec(last);
  if (withProg) {
    // `_prog` is node.exe beside the shim or `node`: anything else is not a shim we know.
    const sets = [...text.matchAll(/SET "_prog=([^"]*)"/gi)].map((m) => m[1]!.toLowerCase());
    if (sets.some((s) => s !== '%dp0%\\node.exe' && s !== 'node')) return undefined;
    const script = nodePath.win32.join(dir, withProg[2]!);
    const extra = withProg[1]?.trim() ? withProg[1].trim().split(/\s+/) : [];
    return exists(script) ? { program: node, args: [...extra, script] } : undefined;
  }
  const direct = /^"%dp0%\\([^"%]+)"\s+%\*$/i.exec(last);
  if (direct && !/%_prog%/i.test(text)) {
    const program = nodePath.win32.join(dir, direct[1]!);
    return /\.(exe|com)$/i.test(program) && exists(program) ? { program, args: [] } : undefined;
  }
  return undefined;
}

/** Why an argument cannot go through cmd.exe, or undefined: a line break would end its command line. */
function cmdUnsafe(args: readonly string[]): string | undefined {
  const bad = args.find((a) => /[\r\n\0]/.test(a));
  return bad === undefined ? undefined : 'an argument holds a line break, which cannot be passed through cmd.exe';
}

/**
 * What to spawn for `command` and `args`: on Windows the command resolved and a script made
 * startable; elsewhere the command as given (found on PATH by the system), or its Homebrew path
 * on macOS when PATH lacks it.
 */
export function planLaunch(command: string, args: readonly string[], env: LaunchEnv & { cwd?: string } = {}): Launch {
  const platform = env.platform ?? process.platform;
  const vars = env.env ?? process.env;
  if (platform !== 'win32') {
    if (platform === 'darwin' && !isPathLike(command, platform)) {
      const found = findProgram(command, { ...env, platform, PATH: env.PATH ?? envValue(vars, 'PATH', platform) });
      if (found && HOMEBREW_BINS.includes(nodePath.posix.dirname(found)))
        return { ok: true, file: found, args, verbatim: false, via: 'direct', found };
    }
    return { ok: true, file: command, args, verbatim: false, via: 'direct', found: command };
  }
  const lookup = { ...env, platform, env: vars };
  const found = findProgram(command, lookup);
  if (!found)
    return {
      ok: false,
      missing: true,
      why: isPathLike(command, platform)
        ? `the command "${command}" was not found (no such file, with any extension of PATHEXT)`
        : `the command "${command}" was not found on PATH (with the extensions of PATHEXT)`,
    };
  const ext = nodePath.win32.extname(found).toLowerCase();
  if (ext === '.exe' || ext === '.com') return { ok: true, file: found, args, verbatim: false, via: 'direct', found };
  const read = env.readText ?? readSmallText;
  const text = ext === '.cmd' || ext === '.bat' ? read(found) : undefined;
  const exists = env.isExecutable ?? isExecutableFile;
  const shim = text === undefined ? undefined : readNpmShim(found, text, exists, vars);
  if (shim) {
    const node = shim.program === 'node' ? findProgram('node', lookup) : shim.program;
    if (node) return { ok: true, file: node, args: [...shim.args, ...args], verbatim: false, via: 'node', found };
  }
  const unsafe = cmdUnsafe(args);
  if (unsafe) return { ok: false, why: `"${command}" is a script run by cmd.exe, and ${unsafe}` };
  // A script that hands its arguments on with %* (as npm's shims do) has them parsed twice.
  const twice = /%\*/.test(text ?? '') || /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(found);
  const line = [escapeCmdCommand(found), ...args.map((a) => escapeCmdArgument(a, twice))].join(' ');
  return {
    ok: true,
    file: cmdExe(vars),
    args: ['/d', '/v:off', '/s', '/c', `"${line}"`],
    verbatim: true,
    via: 'cmd',
    found,
  };
}

/** What a launch runs, as one line for the log and for "Add Agent" (not for a shell). */
export function describeLaunch(plan: LaunchPlan): string {
  if (plan.via === 'node') return `${plan.file} ${plan.args.join(' ')} (the Node script behind ${plan.found})`;
  if (plan.via === 'cmd') return `${plan.found} through cmd.exe`;
  return plan.file;
}

/**
 * Spawns what a plan says, never throwing: Node throws for some refusals (EINVAL for a script
 * started without a shell, a NUL byte in an argument), which come back in words.
 */
export function spawnPlanned(
  plan: LaunchPlan,
  options: Omit<SpawnOptions, 'windowsVerbatimArguments' | 'shell'> & { cwd?: string },
): { readonly child: ChildProcess } | { readonly why: string } {
  try {
    return {
      child: spawn(plan.file, [...plan.args], {
        ...options,
        windowsHide: true,
        windowsVerbatimArguments: plan.verbatim,
      }),
    };
  } catch (e) {
    return { why: spawnFailure(e as NodeJS.ErrnoException, plan.found, options.cwd) };
  }
}

/** Why a command could not be spawned, in words (Node says only `spawn x ENOENT`). */
export function spawnFailure(err: NodeJS.ErrnoException, command: string, cwd: string | undefined): string {
  // A missing working folder fails with ENOENT too, naming the command.
  if (cwd && !existsSync(cwd)) return `the folder "${cwd}" it is started in does not exist`;
  switch (err.code) {
    case 'ENOENT':
      return `the command "${command}" was not found`;
    case 'EACCES':
    case 'EPERM':
      return `the command "${command}" cannot be run (permission denied: is it executable?)`;
    case 'EINVAL':
      return `the command "${command}" was refused by the system (EINVAL: on Windows a .cmd or .bat script cannot be started directly)`;
    case 'E2BIG':
    case 'ENAMETOOLONG':
      return `the command "${command}" was not started: its arguments or environment are too long`;
    case 'ERR_INVALID_ARG_VALUE':
    case 'ERR_INVALID_ARG_TYPE':
      return `the command "${command}" was not started: an argument or environment value is not valid (${err.message})`;
    default:
      return `the command "${command}" failed to start (${err.message})`;
  }
}
