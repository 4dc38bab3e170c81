/**
 * The shell that runs an agent's shell lines (`terminal/create` with a command line and no
 * arguments). On Linux and macOS: `/bin/sh`. On Windows agents write POSIX lines (`ls | head`,
 * `export X=1; …`), which `cmd.exe` fails with exit 9009: Git Bash runs them when it is installed
 * (Claude Code on Windows needs it anyway), else PowerShell, else `cmd.exe`; the
 * `acp.terminal.shell` setting chooses one. WSL's `bash.exe` in System32 is never taken for Git
 * Bash: it runs in another system, with other paths.
 */
import { existsSync } from 'node:fs';
import * as nodePath from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { ErrorCodes } from './errors';
import { cmdExe, escapeCmdArgument, escapeCmdCommand, planLaunch, type LaunchEnv, type LaunchPlan } from './launch';
import { envValue, findProgram, isPathLike } from '../platform/programs';

/** `acp.terminal.shell`. */
export type ShellSetting = 'auto' | 'gitBash' | 'powershell' | 'cmd';

export const SHELL_SETTINGS: readonly ShellSetting[] = ['auto', 'gitBash', 'powershell', 'cmd'];

export type ShellKind = 'sh' | 'bash' | 'powershell' | 'cmd';

export interface Shell {
  readonly kind: ShellKind;
  readonly path: string;
}

const win = nodePath.win32;

/** Git for Windows' `bash.exe`: beside the `git` on PATH, or where its installer puts it. */
export function findGitBash(env: LaunchEnv = {}): string | undefined {
  const vars = env.env ?? process.env;
  const exists = env.isExecutable ?? ((p: string) => findProgram(p, { ...env, platform: 'win32' }) !== undefined);
  const roots: string[] = [];
  const git = findProgram('git', { ...env, platform: 'win32' });
  if (git) {
    // git.exe lives in <root>\cmd, <root>\bin or <root>\mingw64\bin.
    const dir = win.dirname(git);
    const up = win.basename(dir).toLowerCase() === 'bin' && /mingw(32|64)$/i.test(win.dirname(dir));
    roots.push(up ? win.dirname(win.dirname(dir)) : win.dirname(dir));
  }
  for (const v of ['ProgramW6432', 'ProgramFiles', 'ProgramFiles(x86)']) {
    const base = envValue(vars, v, 'win32');
    if (base) roots.push(win.join(base, 'Git'));
  }
  const local = envValue(vars, 'LOCALAPPDATA', 'win32');
  if (local) roots.push(win.join(local, 'Programs', 'Git'));
  for (const root of roots) {
    const bash = win.join(root, 'bin', 'bash.exe');
    if (!/\\system32\\/i.test(bash) && exists(bash)) return bash;
  }
  return undefined;
}

/** PowerShell 7 (`pwsh`) on PATH, else Windows PowerShell where Windows keeps it. */
export function findPowerShell(env: LaunchEnv = {}): string | undefined {
  const lookup = { ...env, platform: 'win32' as const };
  const pwsh = findProgram('pwsh', lookup);
  if (pwsh) return pwsh;
  const root = envValue(env.env ?? process.env, 'SystemRoot', 'win32');
  const builtIn = root && win.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
  return (builtIn && findProgram(builtIn, lookup)) || findProgram('powershell', lookup);
}

/**
 * The shell for shell lines, or why the one chosen cannot be used. `auto` on Windows: Git Bash,
 * else PowerShell, else cmd.exe.
 */
export function chooseShell(
  setting: ShellSetting,
  env: LaunchEnv = {},
): { readonly shell: Shell } | { readonly why: string } {
  const platform = env.platform ?? process.platform;
  if (platform !== 'win32') return { shell: { kind: 'sh', path: '/bin/sh' } };
  const cmd: Shell = { kind: 'cmd', path: cmdExe(env.env ?? process.env) };
  if (setting === 'cmd') return { shell: cmd };
  const bash = setting === 'auto' || setting === 'gitBash' ? findGitBash(env) : undefined;
  if (bash) return { shell: { kind: 'bash', path: bash } };
  if (setting === 'gitBash')
    return { why: 'Git Bash was chosen to run shell lines ("acp.terminal.shell"), but it was not found.' };
  const ps = findPowerShell(env);
  if (ps) return { shell: { kind: 'powershell', path: ps } };
  if (setting === 'powershell')
    return { why: 'PowerShell was chosen to run shell lines ("acp.terminal.shell"), but it was not found.' };
  return { shell: cmd };
}

/** How a shell is started to run one line. */
export function shellInvocation(shell: Shell, line: string): { args: string[]; verbatim: boolean } {
  switch (shell.kind) {
    case 'sh':
    case 'bash':
      return { args: ['-c', line], verbatim: false };
    case 'powershell':
      // Encoded, so no quoting of the line can go wrong on its way through the command line.
      return {
        args: [
          '-NoLogo',
          '-NoProfile',
          '-NonInteractive',
          '-ExecutionPolicy',
          'Bypass',
          '-EncodedCommand',
          Buffer.from(line, 'utf16le').toString('base64'),
        ],
        verbatim: false,
      };
    case 'cmd':
      // As Node's own `shell: true` does: the line is cmd.exe's syntax already.
      return { args: ['/d', '/s', '/c', `"${line}"`], verbatim: true };
  }
}

/** One word quoted so the shell passes it on as it is. */
export function quoteForShell(kind: ShellKind, word: string): string {
  switch (kind) {
    case 'sh':
    case 'bash':
      return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
    case 'powershell':
      // Single quotes take everything literally; a quote inside is doubled.
      return `'${word.replace(/['\u2018\u2019\u201a\u201b]/g, '$&$&')}'`;
    case 'cmd':
      return escapeCmdArgument(word, false);
  }
}

/** A program and its arguments as one line of the shell, each word quoted for it. */
export function shellCommandLine(kind: ShellKind, command: string, args: readonly string[]): string {
  const words = args.map((a) => quoteForShell(kind, a));
  if (kind === 'powershell') return ['&', quoteForShell(kind, command), ...words].join(' ');
  if (kind === 'cmd') return [escapeCmdCommand(command), ...words].join(' ');
  return [quoteForShell(kind, command), ...words].join(' ');
}

/**
 * What to spawn for an agent's command: a shell line through the shell (on Windows the one
 * `acp.terminal.shell` chooses); a program as `planLaunch` starts it (on Windows found with
 * PATHEXT, a `.cmd` made startable), or, when Windows finds no such program, through the shell
 * with its arguments quoted for it (`dir`, `echo` and Git Bash's tools are the shell's). Refuses
 * with a `RequestError` that says why.
 */
export function planCommand(
  command: string,
  args: readonly string[],
  opts: LaunchEnv & { env: NodeJS.ProcessEnv; cwd: string; shell?: ShellSetting },
): LaunchPlan & { shell?: ShellKind } {
  const platform = opts.platform ?? process.platform;
  const choose = () => chooseShell(opts.shell ?? 'auto', { ...opts, platform });
  const viaShell = (shell: Shell, line: string): LaunchPlan & { shell: ShellKind } => {
    const { args: shellArgs, verbatim } = shellInvocation(shell, line);
    return {
      ok: true,
      file: shell.path,
      args: shellArgs,
      verbatim,
      via: 'direct',
      found: shell.path,
      shell: shell.kind,
    };
  };
  if (needsShell(command, args)) {
    const chosen = choose();
    if ('why' in chosen) throw new RequestError(ErrorCodes.InvalidParams, chosen.why);
    return viaShell(chosen.shell, command);
  }
  const plan = planLaunch(command, args, { ...opts, platform });
  if (plan.ok) return plan;
  // A name Windows finds no program for may be the shell's own (`dir`); a path cannot be.
  if (platform === 'win32' && plan.missing && !isPathLike(command, platform)) {
    const chosen = choose();
    if ('shell' in chosen) return viaShell(chosen.shell, shellCommandLine(chosen.shell.kind, command, args));
  }
  // Not found is what a failed spawn says elsewhere (-32603); an argument cmd.exe cannot take is the request's fault.
  const code = plan.missing ? ErrorCodes.InternalError : ErrorCodes.InvalidParams;
  throw new RequestError(code, `Could not start "${command}": ${plan.why}.`);
}

/**
 * A command with no `args` that holds shell syntax or spaces is a shell line, the way agents
 * send `git log | head`; a plain program name or an existing path runs as it is.
 */
export function needsShell(command: string, args: readonly string[]): boolean {
  if (args.length > 0) return false;
  if (existsSync(command)) return false;
  return /[\s|&;<>()$`\\"'*?[\]#~={}!]/.test(command);
}
