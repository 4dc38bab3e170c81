import * as vscode from 'vscode';
import type { AgentHost } from '../agent/agentHost';
import { displayState, STATE_WORDS } from './agentStates';
import { pickAgent } from './agentPicker';
import { showError } from './messages';
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
    run('acp.agentMenu', async () => {
      type Item = vscode.QuickPickItem & { run?: () => unknown };
      const items: Item[] = [];
      for (const h of deps.agents.all) {
        const shown = displayState(h.state.kind, h.needsSignIn);
        items.push({ label: h.config.name, kind: vscode.QuickPickItemKind.Separator });
        if (shown === 'signIn')
          items.push({
            label: `$(account) Sign in to ${h.config.name}`,
            run: () => vscode.commands.executeCommand('acp.signIn', h.config.id),
          });
        items.push({
          label: `$(debug-restart) Restart ${h.config.name}`,
          description: STATE_WORDS[shown],
          run: () => vscode.commands.executeCommand('acp.restartAgent', { type: 'agent', host: h }),
        });
        if (shown !== 'stopped') items.push({ label: `$(debug-stop) Stop ${h.config.name}`, run: () => h.stop() });
        if (h.connection?.features.logout && shown === 'ready')
          items.push({
            label: `$(sign-out) Sign out of ${h.config.name}`,
            run: () => vscode.commands.executeCommand('acp.signOut', h.config.id),
          });
      }
      items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
      items.push({
        label: '$(key) Set Agent Secret…',
        run: () => vscode.commands.executeCommand('acp.setAgentSecret'),
      });
      items.push({ label: '$(output) Show Log', run: () => vscode.commands.executeCommand('acp.showLog') });
      const choice = await vscode.window.showQuickPick(items, { placeHolder: 'ACP agents' });
      await choice?.run?.();
    }),
  ];
}
