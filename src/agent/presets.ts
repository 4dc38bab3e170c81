import { splitCommandLine } from './commandLine';
import { findProgram, type PathEnv } from '../platform/programs';

/** An agent users commonly run through its ACP adapter. */
export interface AgentPreset {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** The program that must be on PATH (the launcher). */
  readonly requires: string;
  /** What the user must install, and how, in one sentence. */
  readonly install: string;
  /** How signing in goes, and what works before it, in one sentence. */
  readonly signIn: string;
  /** The version this was checked at, and when (the README's "Checked" column). */
  readonly checked: { readonly version: string; readonly date: string };
  /**
   * The ACP Registry's entry for the same program, when it has one: its id, and the npm package
   * or the binary's program name it must run for what was checked here to hold for it.
   */
  readonly registry?: { readonly id: string; readonly npx?: string; readonly binary?: string };
}

// Each preset was started over stdio with the package's version named beside it, and its
// `initialize`, `session/list` and sign-in methods read: what `signIn` says is what they did.
export const PRESETS: readonly AgentPreset[] = [
  // @agentclientprotocol/claude-agent-acp 0.101.0 (the @zed-industries name stopped at 0.23).
  // It brings the Claude Agent SDK with it; its package asks for Node.js 22.
  {
    id: 'claude-code',
    name: 'Claude Code',
    command: 'npx',
    args: ['-y', '@agentclientprotocol/claude-agent-acp'],
    requires: 'npx',
    install: 'Install Node.js 22 or later (it provides npx, which fetches the adapter and Claude Code with it).',
    signIn:
      'Lists sessions signed out; "Sign In" offers a Claude subscription or the Anthropic Console, run in a terminal.',
    checked: { version: '0.101.0', date: '2026-11-23' },
    registry: { id: 'claude-code-acp', npx: '@agentclientprotocol/claude-agent-acp' },
  },
  // @zed-industries/codex-acp 0.16.0: a native binary behind an npm launcher. It does not exit
  // when its input closes; stopping it ends its process group, as for every agent.
  {
    id: 'codex',
    name: 'Codex',
    command: 'npx',
    args: ['-y', '@zed-industries/codex-acp'],
    requires: 'npx',
    install: 'Install Node.js (it provides npx, which fetches the adapter; Codex is built in).',
    signIn: 'Lists sessions only once signed in: with ChatGPT (in the browser), or a CODEX_API_KEY or OPENAI_API_KEY.',
    checked: { version: '0.16.0', date: '2026-11-23' },
    registry: { id: 'codex-acp', npx: '@zed-industries/codex-acp', binary: 'codex-acp' },
  },
  // @agentclientprotocol/codex-acp 2.6.0: the TypeScript adapter, on @openai/codex.
  {
    id: 'codex-ts',
    name: 'Codex (TypeScript adapter)',
    command: 'npx',
    args: ['-y', '@agentclientprotocol/codex-acp'],
    requires: 'npx',
    install: 'Install Node.js (it provides npx, which fetches the adapter and Codex with it).',
    signIn: 'Lists sessions only once signed in: with ChatGPT or an API key, through the agent.',
    checked: { version: '2.6.0', date: '2026-11-23' },
  },
  // @github/copilot 1.0.102: `--acp` starts the ACP server, `--stdio` keeps it on stdio. The npm
  // package is a loader for a native binary (no Node.js version asked for); its sign-in method
  // names that binary with `login` in _meta["terminal-auth"].
  {
    id: 'copilot',
    name: 'GitHub Copilot CLI',
    command: 'copilot',
    args: ['--acp', '--stdio'],
    requires: 'copilot',
    install:
      'Install it with `npm install -g @github/copilot` (or Homebrew `copilot-cli`, WinGet `GitHub.Copilot`); it needs a Copilot subscription.',
    signIn: 'Lists sessions signed out; "Sign In" runs `copilot login` in a terminal, then restarts it.',
    checked: { version: '1.0.102', date: '2026-11-23' },
    registry: { id: 'github-copilot', npx: '@github/copilot' },
  },
  // @google/gemini-cli 0.61.0: `--acp` (the older `--experimental-acp` is deprecated).
  {
    id: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    requires: 'gemini',
    install: 'Install it with `npm install -g @google/gemini-cli` (Node.js 20 or later).',
    signIn:
      'Cannot list sessions (0.61 has no session/list), so the view offers New Session; signs in with Google or an API key.',
    checked: { version: '0.61.0', date: '2026-11-23' },
    registry: { id: 'gemini', npx: '@google/gemini-cli' },
  },
  // opencode-ai 1.18.33: `opencode acp`.
  {
    id: 'opencode',
    name: 'OpenCode',
    command: 'opencode',
    args: ['acp'],
    requires: 'opencode',
    install: 'Install it with `npm install -g opencode-ai`.',
    signIn: 'Lists sessions signed out; sign in to a model provider with `opencode auth login` in a terminal.',
    checked: { version: '1.18.33', date: '2026-11-23' },
    registry: { id: 'opencode', npx: 'opencode-ai', binary: 'opencode' },
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

/**
 * Where `program` is found on PATH, like `which` (no shell, nothing run), or undefined: the same
 * lookup an agent's start makes (see launch.ts), so what "Add Agent" reports is what starting does.
 */
export function findOnPath(program: string, env: PathEnv = {}): string | undefined {
  return findProgram(program, env);
}

/** What "Add Agent" says instead of adding a preset whose program is missing. */
export function notInstalledMessage(p: AgentPreset): string {
  return `"${p.requires}" was not found on PATH, so ${p.name} cannot start yet. ${p.install} Then run "ACP: Add Agent" again.`;
}
