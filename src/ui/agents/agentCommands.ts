import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { STATE_WORDS } from '../../app/agentStates';
import { pickAgent } from '../pickers/agentPicker';
import { canLogout, canSignIn, shownState } from '../contextKeys';
import { showError } from '../messages';
import { setAgentSecret, signIn, signOut, type SignInDeps } from './signIn';

/** The agent a command was given: a tree node's, a host, an agent id, or the user's choice. */
async function hostOf(
  deps: SignInDeps,
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

/** Sign in, sign out, secrets and the status bar's menu. */
export function registerAgentCommands(deps: SignInDeps): vscode.Disposable[] {
  const run = (id: string, fn: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        // The command is over; the message stays until the user dismisses it.
        void showError('ACP', e);
        return undefined;
      }
    });
  return [
    // Arguments: a tree node, host or agent id; then a method id (tests, links) to skip the pick;
    // then, for an `env_var` method, the values by variable name to skip the input boxes (tests).
    run('acp.signIn', async (arg, methodId, values) => {
      const host = await hostOf(deps, arg, 'Sign in to which agent?', (h) => h.needsSignIn);
      const given = values && typeof values === 'object' ? (values as Record<string, string>) : undefined;
      return host ? signIn(deps, host, typeof methodId === 'string' ? methodId : undefined, given) : false;
    }),
    run('acp.signOut', async (arg) => {
      const host = await hostOf(deps, arg, 'Sign out of which agent?', (h) => h.connection?.features.logout === true);
      return signOut(deps, host);
    }),
    run('acp.setAgentSecret', () => setAgentSecret(deps)),
    run('acp.agentMenu', () => manageAgents(deps)),
  ];
}

type MenuItem = vscode.QuickPickItem & { run?: () => unknown };

/** "Manage Agents…" (the status bar item and the view's menu): each agent's actions, then adding and settings. */
async function manageAgents(deps: SignInDeps): Promise<void> {
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
    items.push({
      label: running ? `$(debug-restart) Restart ${name}` : `$(play) Start ${name}`,
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
  if (deps.agents.all.length > 0) items.push({ label: '$(key) Set Agent Secret…', run: command('acp.setAgentSecret') });
  items.push({ label: '$(settings-gear) Open Agent Settings', run: command('acp.openAgentSettings') });
  items.push({ label: '$(output) Show Log', run: command('acp.showLog') });
  const choice = await vscode.window.showQuickPick(items, {
    title: 'Manage ACP Agents',
    placeHolder: 'Choose an action',
  });
  await choice?.run?.();
}
