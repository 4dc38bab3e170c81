import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { entryId, withChanged, withoutEntry } from '../../agent/agentEntries';
import { joinCommandLine, splitCommandLine } from '../../agent/commandLine';
import { openAgentSettings, scopeAgents, scopeName, writeAgents } from './agentSettings';
import { commandProblem } from './presets';
import { agentNotEditable, agentSaved, badAgentCommand, type Confirm } from '../messages';

/** A field "Edit Agent…" changes; given with a value (tests, automation), nothing is asked. */
export type AgentField = 'name' | 'command';

/** The agent's entry is not in the settings this window writes (written by hand somewhere else). */
function missingEntry(host: AgentHost): void {
  agentNotEditable(host.config.name, scopeName());
}

/**
 * "Edit Agent…": its name, its command (checked on this machine like a new one), and the
 * settings file at its entry for the rest (environment, MCP servers). The change restarts the
 * agent if it was running.
 */
export async function editAgent(host: AgentHost, field?: AgentField, value?: string): Promise<boolean> {
  const id = host.config.id;
  if (!scopeAgents().some((e) => entryId(e) === id)) {
    missingEntry(host);
    return false;
  }
  type Item = vscode.QuickPickItem & { field?: AgentField; json?: true };
  if (!field) {
    const items: Item[] = [
      { label: '$(edit) Name', description: host.config.name, field: 'name' },
      {
        label: '$(terminal) Command',
        description: joinCommandLine(host.config.command, host.config.args),
        field: 'command',
      },
      {
        label: '$(json) Environment, MCP servers and more…',
        description: `in your ${scopeName()} (settings.json)`,
        json: true,
      },
    ];
    const choice = await vscode.window.showQuickPick(items, { title: `Edit ${host.config.name}` });
    if (choice?.json) await openAgentSettings(id);
    field = choice?.field;
    if (!field) return false;
  }
  if (value === undefined) {
    value = await vscode.window.showInputBox({
      title: `Edit ${host.config.name} — ${field}`,
      value: field === 'name' ? host.config.name : joinCommandLine(host.config.command, host.config.args),
      ignoreFocusOut: true,
      validateInput: (v) => (field === 'command' ? commandProblem(v) : v.trim() ? undefined : 'Type a name.'),
    });
    if (value === undefined) return false;
  }
  let patch: Record<string, unknown>;
  if (field === 'command') {
    const problem = commandProblem(value);
    if (problem) {
      badAgentCommand(problem);
      return false;
    }
    const [command, ...args] = splitCommandLine(value);
    patch = { command, args };
  } else {
    if (!value.trim()) return false;
    patch = { name: value.trim() };
  }
  await writeAgents(withChanged(scopeAgents(), id, patch));
  agentSaved(host.config.name, scopeName());
  return true;
}

/** "Remove Agent": after asking, its entry leaves the settings and its process stops. Its sessions stay with it. */
export async function removeAgent(host: AgentHost, confirm: Confirm): Promise<boolean> {
  const id = host.config.id;
  if (!scopeAgents().some((e) => entryId(e) === id)) {
    missingEntry(host);
    return false;
  }
  const ok = await confirm(
    `Remove ${host.config.name} from your ${scopeName()}? It stops; its sessions stay where it keeps them, and adding it again shows them again.`,
    'Remove',
  );
  if (!ok) return false;
  await writeAgents(withoutEntry(scopeAgents(), id));
  agentSaved(host.config.name, scopeName(), true);
  return true;
}
