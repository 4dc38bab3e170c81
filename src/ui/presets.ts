import * as vscode from 'vscode';
import { customEntry, findOnPath, notInstalledMessage, presetEntry, PRESETS, type AgentEntry } from '../agent/presets';
import { agentAdded, presetNotInstalled } from './messages';

/**
 * "ACP: Add Agent": a preset or a custom command, written to `acp.agents` (user settings).
 * `presetId` (tests, links) skips the pick. Resolves with the entry added, if any.
 */
export async function addAgent(presetId?: string): Promise<AgentEntry | undefined> {
  const custom = {
    label: '$(terminal) Custom command…',
    description: 'Any program that speaks ACP over stdio',
    preset: undefined,
  };
  const items = [
    ...PRESETS.map((p) => ({
      label: p.name,
      description: [p.command, ...p.args].join(' '),
      // What to install and how sign-in goes, before the user picks.
      detail: `${p.install} ${p.signIn}`,
      preset: p,
    })),
    custom,
  ];
  const choice =
    presetId !== undefined
      ? items.find((i) => i.preset?.id === presetId)
      : await vscode.window.showQuickPick(items, {
          placeHolder: 'Which agent do you want to add?',
          matchOnDescription: true,
        });
  if (!choice) return undefined;
  const config = vscode.workspace.getConfiguration('acp');
  const agents = (config.inspect<unknown[]>('agents')?.globalValue ?? []).slice();
  const taken = agents.map((a) => (a as { id?: unknown }).id);
  let entry: AgentEntry | undefined;
  if (choice.preset) {
    const p = choice.preset;
    if (!findOnPath(p.requires)) {
      presetNotInstalled(notInstalledMessage(p));
      return undefined;
    }
    entry = presetEntry(p, taken);
  } else {
    const line = await vscode.window.showInputBox({
      prompt: 'The command that starts the agent (program and arguments)',
      placeHolder: '/usr/local/bin/my-agent --acp',
    });
    if (!line?.trim()) return undefined;
    const program = line.trim().split(/\s+/)[0]!;
    const name = await vscode.window.showInputBox({
      prompt: 'A name for this agent',
      value: program.split(/[\\/]/).pop(),
    });
    entry = customEntry(line, name, taken);
  }
  if (!entry) return undefined;
  agents.push(entry);
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  agentAdded(entry.name);
  return entry;
}
