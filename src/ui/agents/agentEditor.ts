import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { entryId, withChanged, withoutEntry } from '../../agent/agentEntries';
import { joinCommandLine, splitCommandLine } from '../../agent/commandLine';
import { openAgentSettings, scopeAgents, scopeName, writeAgents } from './agentSettings';
import { commandProblem } from './presets';
import { agentNotEditable, agentSaved, badAgentCommand, type Confirm } from '../messages';
import type { RegistryAgents } from '../../app/registryAgents';
import { installOf } from '../../registry/installs';

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

/**
 * "Remove Agent": after asking, its entry leaves the settings and its process stops. Its sessions
 * stay with it. For an agent installed from the registry, what was downloaded for it goes too
 * (named in the question), once nothing runs it; another entry using the same download keeps it.
 */
export async function removeAgent(host: AgentHost, confirm: Confirm, registry?: RegistryAgents): Promise<boolean> {
  const id = host.config.id;
  if (!scopeAgents().some((e) => entryId(e) === id)) {
    missingEntry(host);
    return false;
  }
  const install = registry ? installOf(registry.agentsDir, host.config.command) : undefined;
  const downloaded = install ? ` What was downloaded for it is deleted: ${install.dir}.` : '';
  const ok = await confirm(
    `Remove ${host.config.name} from your ${scopeName()}? It stops; its sessions stay where it keeps them, and adding it again shows them again.${downloaded}`,
    'Remove',
  );
  if (!ok) return false;
  // Stopped before its entry goes, so that its files are no longer in use when they are deleted.
  if (install) await host.stop();
  const rest = withoutEntry(scopeAgents(), id);
  await writeAgents(rest);
  agentSaved(host.config.name, scopeName(), true);
  const commands = rest
    .map((e) => (e as { command?: unknown }).command)
    .filter((c): c is string => typeof c === 'string');
  if (install && registry) await registry.sweep([install.id], commands);
  return true;
}
