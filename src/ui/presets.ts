import * as vscode from 'vscode';
import { customEntry, findOnPath, notInstalledMessage, presetEntry, PRESETS, type AgentEntry } from '../agent/presets';
import { agentAdded, presetNotInstalled } from './messages';

/** "ACP: Add Agent": a preset or a custom command, written to `acp.agents` (user settings). */
export async function addAgent(): Promise<void> {
  const custom = {
    label: '$(terminal) Custom command…',
    description: 'Any program that speaks ACP over stdio',
    preset: undefined,
  };
  const items = [
    ...PRESETS.map((p) => ({ label: p.name, description: [p.command, ...p.args].join(' '), preset: p })),
    custom,
  ];
  const choice = await vscode.window.showQuickPick(items, { placeHolder: 'Which agent do you want to add?' });
  if (!choice) return;
  const config = vscode.workspace.getConfiguration('acp');
  const agents = (config.inspect<unknown[]>('agents')?.globalValue ?? []).slice();
  const taken = agents.map((a) => (a as { id?: unknown }).id);
  let entry: AgentEntry | undefined;
  if (choice.preset) {
    const p = choice.preset;
    if (!findOnPath(p.requires)) {
      presetNotInstalled(notInstalledMessage(p));
      return;
    }
    entry = presetEntry(p, taken);
  } else {
    const line = await vscode.window.showInputBox({
      prompt: 'The command that starts the agent (program and arguments)',
      placeHolder: '/usr/local/bin/my-agent --acp',
    });
    if (!line?.trim()) return;
    const program = line.trim().split(/\s+/)[0]!;
    const name = await vscode.window.showInputBox({
      prompt: 'A name for this agent',
      value: program.split(/[\\/]/).pop(),
    });
    entry = customEntry(line, name, taken);
  }
  if (!entry) return;
  agents.push(entry);
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  agentAdded(entry.name);
}
