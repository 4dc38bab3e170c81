import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { splitCommandLine } from './commandLine';

/** An agent users commonly run through its ACP adapter. */
export interface AgentPreset {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** The program that must be on PATH (the launcher). */
  readonly requires: string;
  /** How to install `requires` (and sign in), in one sentence. */
  readonly install: string;
}

export const PRESETS: readonly AgentPreset[] = [
  // The adapter moved to the agentclientprotocol scope; the old @zed-industries name stopped at
  // 0.23 (one page of sessions, no cursor). It needs Node.js 22 or later.
  {
    id: 'claude-code',
    name: 'Claude Code',
    command: 'npx',
    args: ['-y', '@agentclientprotocol/claude-agent-acp'],
    requires: 'npx',
    install: 'Install Node.js 22 or later (which provides npx), then sign in with `claude` once.',
  },
  {
    id: 'codex',
    name: 'Codex',
    command: 'npx',
    args: ['-y', '@zed-industries/codex-acp'],
    requires: 'npx',
    install: 'Install Node.js (which provides npx), then sign in with `codex login` once.',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    requires: 'gemini',
    install: 'Install it with `npm install -g @google/gemini-cli`.',
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    command: 'opencode',
    args: ['acp'],
    requires: 'opencode',
    install: 'Install it with `npm install -g opencode-ai`.',
  },
];

/** One `acp.agents` entry, complete: every field the settings schema knows, none left to defaults. */
export interface AgentEntry {
  id: string;
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** `base`, or `base-2`, `base-3`… so a second Codex does not replace the first. */
export function uniqueId(base: string, taken: Iterable<unknown>): string {
  const ids = new Set(taken);
  let id = base;
  for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
  return id;
}

export function presetEntry(p: AgentPreset, takenIds: Iterable<unknown>): AgentEntry {
  return { id: uniqueId(p.id, takenIds), name: p.name, command: p.command, args: [...p.args], env: {} };
}

/** A custom command line (program and arguments; quotes keep a path with spaces whole) and an optional name. */
export function customEntry(
  line: string,
  name: string | undefined,
  takenIds: Iterable<unknown>,
): AgentEntry | undefined {
  const [command, ...args] = splitCommandLine(line);
  if (!command) return undefined;
  const display = name?.trim() || command.split(/[\\/]/).pop() || command;
  const base =
    display
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'agent';
  return { id: uniqueId(base, takenIds), name: display, command, args, env: {} };
}

export interface PathEnv {
  PATH?: string;
  PATHEXT?: string;
  platform?: NodeJS.Platform;
  /** Whether a path is an executable file (tests pass a fake). */
  isExecutable?: (path: string) => boolean;
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `program` is found on PATH, like `which` (no shell, nothing run), or undefined. */
export function findOnPath(program: string, env: PathEnv = {}): string | undefined {
  const platform = env.platform ?? process.platform;
  const isExec = env.isExecutable ?? executable;
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const sep = platform === 'win32' ? ';' : ':';
  if (isAbsolute(program) || program.includes('/')) return exts.map((e) => program + e).find(isExec);
  for (const dir of (env.PATH ?? process.env.PATH ?? '').split(sep)) {
    if (!dir) continue;
    for (const e of exts) {
      const candidate = join(dir, program + e);
      if (isExec(candidate)) return candidate;
    }
  }
  return undefined;
}

/** What "Add Agent" says instead of adding a preset whose program is missing. */
export function notInstalledMessage(p: AgentPreset): string {
  return `"${p.requires}" was not found on PATH, so ${p.name} cannot start yet. ${p.install} Then run "ACP: Add Agent" again.`;
}
