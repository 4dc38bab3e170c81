import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { STATE_WORDS } from '../../app/agentStates';
import type { Commands } from '../commands';
import { canLogout, canSignIn, shownState } from '../contextKeys';
import { pickAgent } from '../pickers/agentPicker';
import { editAgent, removeAgent, type AgentField } from './agentEditor';
import { copyIgnoredAgents, openAgentSettings } from './agentSettings';
import { addAgent, type AddAgentArgs } from './presets';
import { updateAgent } from './registryInstall';
import { setAgentSecret, signIn, signOut, type SignInDeps } from './signIn';
import type { RegistryAgents } from '../../app/registryAgents';

export interface AgentCommandDeps extends SignInDeps {
  /** The "ACP" log channel, which Show Log reveals. */
  channel: { show(preserveFocus?: boolean): void };
  /** The ACP Registry: Add Agent's list, installs and updates. */
  registry: RegistryAgents;
  /** `media/registry/icons` of the extension. */
  shippedIcons: string;
}

/**
 * The agent a command was given (a tree node's, a host, an agent id), else the only one that
 * `filter` leaves, else the user's choice.
 */
async function agentOf(
  deps: AgentCommandDeps,
  arg: unknown,
  placeHolder: string,
  filter?: (h: AgentHost) => boolean,
): Promise<AgentHost | undefined> {
  if (typeof arg === 'string') return deps.agents.get(arg);
  const h = (arg as { host?: unknown } | undefined)?.host ?? arg;
  if (h && deps.agents.all.includes(h as AgentHost)) return h as AgentHost;
  const candidates = filter ? deps.agents.all.filter(filter) : deps.agents.all;
  if (candidates.length === 1) return candidates[0];
  return pickAgent(deps.agents, placeHolder);
}

/** Starting, stopping, editing, adding and removing agents; sign in and out, secrets, the log and the agents' menu. */
export function agentCommands(deps: AgentCommandDeps): Commands {
  return {
    'acp.restartAgent': async (node) => {
      const host = await agentOf(deps, node, 'Restart which agent?');
      if (!host) return;
      // Open chats attach again when the agent is ready (each chat watches its agent's state).
      // An update waiting for this agent's next start is switched to now.
      await vscode.window.withProgress(
        { location: { viewId: 'acp.sessions' }, title: `Restarting ${host.config.name}` },
        async () => {
          if (!(await deps.registry.restartWithSwitch(host.config.id))) await host.restart();
        },
      );
    },
    'acp.stopAgent': async (node) => {
      const host = await agentOf(deps, node, 'Stop which agent?');
      await host?.stop();
    },
    // Arguments (tests, automation): an agent, then a field and its new value to skip the questions.
    'acp.editAgent': async (node, field, value) => {
      const host = await agentOf(deps, node, 'Edit which agent?');
      const known = field === 'name' || field === 'command' ? (field as AgentField) : undefined;
      return host ? editAgent(host, known, typeof value === 'string' ? value : undefined) : false;
    },
    'acp.removeAgent': async (node) => {
      const host = await agentOf(deps, node, 'Remove which agent?');
      return host ? removeAgent(host, (m, a, d) => deps.confirm(m, a, d), deps.registry) : false;
    },
    'acp.openAgentSettings': async (node) => {
      const host = (node as { host?: AgentHost } | undefined)?.host;
      await openAgentSettings(typeof node === 'string' ? node : host?.config.id);
    },
    // Returns the new agent's id; a preset id (links, tests) or a command line skips the questions.
    'acp.addAgent': (args) =>
      addAgent(
        typeof args === 'string' ? { preset: args } : args && typeof args === 'object' ? (args as AddAgentArgs) : {},
        { registry: deps.registry, log: deps.log, shippedIcons: deps.shippedIcons },
      ),
    'acp.updateAgent': async (node) => {
      const host = await agentOf(deps, node, 'Update which agent?', (h) => deps.registry.updateOf(h) !== undefined);
      return host ? updateAgent({ registry: deps.registry, log: deps.log }, host) : false;
    },
    'acp.copyAgentsToRemote': () => copyIgnoredAgents(),
    // Arguments: a tree node, host or agent id; then a method id (tests, links) to skip the pick;
    // then, for an `env_var` method, the values by variable name to skip the input boxes (tests).
    'acp.signIn': async (arg, methodId, values) => {
      const host = await agentOf(deps, arg, 'Sign in to which agent?', (h) => h.needsSignIn);
      const given = values && typeof values === 'object' ? (values as Record<string, string>) : undefined;
      return host ? signIn(deps, host, typeof methodId === 'string' ? methodId : undefined, given) : false;
    },
    'acp.signOut': async (arg) => {
      const host = await agentOf(deps, arg, 'Sign out of which agent?', (h) => h.connection?.features.logout === true);
      return signOut(deps, host);
    },
    'acp.setAgentSecret': () => setAgentSecret(deps),
    'acp.agentMenu': () => manageAgents(deps),
    'acp.showLog': () => deps.channel.show(true),
  };
}

type MenuItem = vscode.QuickPickItem & { run?: () => unknown };

/** "Manage Agents…" (the status bar item and the view's menu): each agent's actions, then adding and settings. */
async function manageAgents(deps: AgentCommandDeps): Promise<void> {
  // The updates on offer come from the registry as last read (the kept copy within the hour).
  if (deps.agents.all.some((h) => h.config.registry)) await deps.registry.read().catch(() => undefined);
  const items: MenuItem[] = [];
  const command =
    (id: string, ...args: unknown[]) =>
    () =>
      vscode.commands.executeCommand(id, ...args);
  for (const h of deps.agents.all) {
    const shown = shownState(h);
    const name = h.config.name;
    items.push({ label: `${name} — ${STATE_WORDS[shown]}`, kind: vscode.QuickPickItemKind.Separator });
    if (canSignIn(h) && shown !== 'ready')
      items.push({ label: `$(account) Sign in to ${name}`, run: command('acp.signIn', h.config.id) });
    const running = shown !== 'stopped' && shown !== 'failed' && shown !== 'startFailed';
    const update = deps.registry.updateOf(h);
    if (update)
      items.push({
        label: `$(arrow-up) Update to ${update.version}`,
        description: `${name} ${h.config.registry?.version ?? ''}, from the ACP Registry`,
        run: command('acp.updateAgent', h.config.id),
      });
    const waiting = deps.registry.pendingVersion(h.config.id);
    items.push({
      label: running ? `$(debug-restart) Restart ${name}` : `$(play) Start ${name}`,
      ...(waiting ? { description: `switches to ${waiting}` } : {}),
      run: command('acp.restartAgent', h.config.id),
    });
    if (running) items.push({ label: `$(debug-stop) Stop ${name}`, run: () => h.stop() });
    if (canLogout(h))
      items.push({ label: `$(sign-out) Sign out of ${name}`, run: command('acp.signOut', h.config.id) });
    items.push({ label: `$(edit) Edit ${name}…`, run: command('acp.editAgent', h.config.id) });
    items.push({ label: `$(trash) Remove ${name}…`, run: command('acp.removeAgent', h.config.id) });
  }
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: '$(add) Add Agent…', run: command('acp.addAgent') });
  if (deps.agents.all.some((h) => h.config.registry))
    items.push({
      label: '$(refresh) Check the ACP Registry for Updates',
      description: deps.registry.url,
      run: async () => {
        await deps.registry.read(true);
        await manageAgents(deps);
      },
    });
  if (deps.agents.all.length > 0) items.push({ label: '$(key) Set Agent Secret…', run: command('acp.setAgentSecret') });
  items.push({ label: '$(settings-gear) Open Agent Settings', run: command('acp.openAgentSettings') });
  items.push({ label: '$(output) Show Log', run: command('acp.showLog') });
  const choice = await vscode.window.showQuickPick(items, {
    title: 'Manage ACP Agents',
    placeHolder: 'Choose an action',
  });
  await choice?.run?.();
}
