import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';

/** An agent users commonly run through its ACP adapter. */
export interface AgentPreset {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** The program that must be on PATH (the launcher). */
  readonly requires: string;
  readonly install: string;
}

export const PRESETS: readonly AgentPreset[] = [
  { id: 'claude-code', name: 'Claude Code', command: 'npx', args: ['-y', '@zed-industries/claude-agent-acp'], requires: 'npx', install: 'Install Node.js (which provides npx), then sign in with `claude` once.' },
  { id: 'codex', name: 'Codex', command: 'npx', args: ['-y', '@zed-industries/codex-acp'], requires: 'npx', install: 'Install Node.js (which provides npx), then sign in with `codex login` once.' },
  { id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--experimental-acp'], requires: 'gemini', install: 'Install it with `npm install -g @google/gemini-cli`.' },
  { id: 'opencode', name: 'OpenCode', command: 'opencode', args: ['acp'], requires: 'opencode', install: 'Install it with `npm install -g opencode-ai`.' },
];

/** Whether a program is on PATH (no shell: the name is passed as an argument). */
export function onPath(program: string): boolean {
  try {
    execFileSync(process.platform === 'win32' ? 'where' : 'which', [program], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/** "ACP: Add Agent": a preset or a custom command, written to `acp.agents` (user settings). */
export async function addAgent(): Promise<void> {
  const custom = { label: '$(terminal) Custom command…', description: 'Any program that speaks ACP over stdio', preset: undefined };
  const items = [...PRESETS.map((p) => ({ label: p.name, description: [p.command, ...p.args].join(' '), preset: p })), custom];
  const choice = await vscode.window.showQuickPick(items, { placeHolder: 'Which agent do you want to add?' });
  if (!choice) return;
  const config = vscode.workspace.getConfiguration('acp');
  const agents = (config.inspect<unknown[]>('agents')?.globalValue ?? []).slice();
  let entry: { id: string; name: string; command: string; args: string[]; env: Record<string, string> };
  if (choice.preset) {
    const p = choice.preset;
    if (!onPath(p.requires)) {
      void vscode.window.showWarningMessage(`ACP: "${p.requires}" was not found on PATH, so ${p.name} cannot start yet. ${p.install}`);
      return;
    }
    entry = { id: p.id, name: p.name, command: p.command, args: [...p.args], env: {} };
  } else {
    const line = await vscode.window.showInputBox({ prompt: 'The command that starts the agent (program and arguments)', placeHolder: '/usr/local/bin/my-agent --acp' });
    if (!line?.trim()) return;
    const [command, ...args] = line.trim().split(/\s+/);
    const name = (await vscode.window.showInputBox({ prompt: 'A name for this agent', value: command!.split(/[\\/]/).pop() })) ?? command!;
    entry = { id: name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-') || 'agent', name, command: command!, args, env: {} };
  }
  const ids = new Set(agents.map((a) => (a as { id?: unknown }).id));
  let id = entry.id;
  for (let n = 2; ids.has(id); n++) id = `${entry.id}-${n}`;
  agents.push({ ...entry, id });
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`ACP: added ${entry.name}.`);
}
