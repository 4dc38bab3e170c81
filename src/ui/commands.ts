import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import { chatTarget, type OpenMode } from '../chat/target';
import { pickAgent, pickFolder } from './pickers/agentPicker';
import type { ChatPanels } from './chat/chatPanels';
import { noChatOpen, showError, type Confirm } from './messages';
import { editAgent, removeAgent, type AgentField } from './agents/agentEditor';
import { answerNoAgent, copyIgnoredAgents, openAgentSettings } from './agents/agentSettings';
import { addAgent, type AddAgentArgs } from './agents/presets';
import { folderPath, type SessionNode, type SessionsTree, type TreeNode } from './sessionsView/sessionsTree';
import type { SessionLists } from '../sessions/sessionLists';
import type { SettingsService } from './settings';
import { sessionLink } from './uriHandler';

export interface CommandDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  chats: ChatPanels;
  tree: SessionsTree;
  /** The Sessions view, to move the keyboard focus; absent where no view exists. */
  view?: vscode.TreeView<TreeNode>;
  settings: SettingsService;
  log: vscode.LogOutputChannel;
  /** Keeps the view fresh; told when the user's Refresh read everything. */
  fresh?: { refreshed(): void };
  /** Asks before a destructive action; tests replace it (payload mode skips modal dialogs). */
  confirm: Confirm;
}

/** The other folders of a multi-root window: extra roots for a new session. */
function otherFolders(cwd: string): string[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file' && folderPath(f) !== cwd)
    .map(folderPath);
}

/** Opens a listed session in its chat panel. */
export function openRow(deps: CommandDeps, node: SessionNode, mode: OpenMode): void {
  void deps.chats.open(chatTarget(node.host.config.id, node.row), mode);
}

/** Starts a new session in a folder (the node's, or the user's choice) with an agent. */
export async function newSession(deps: CommandDeps, node?: TreeNode): Promise<void> {
  let host: AgentHost | undefined;
  let cwd: string | undefined;
  if (node && node.type !== 'folder') {
    host = node.host;
    cwd = node.type === 'agent' ? node.path : node.list.folder;
  } else if (node?.type === 'folder') {
    cwd = node.path;
  }
  if (!cwd) {
    const folder = await pickFolder('Start a session in which folder?');
    if (!folder) return;
    cwd = folderPath(folder);
  }
  host ??= await pickAgent(deps.agents, 'Start a session with which agent?');
  if (!host) return;
  await deps.chats.open({ agentId: host.config.id, cwd, additionalDirectories: otherFolders(cwd) }, 'new');
}

/** The agent a command was given (a tree node's, a host, an agent id), else the user's choice. */
async function agentOf(deps: CommandDeps, arg: unknown, placeHolder: string): Promise<AgentHost | undefined> {
  if (typeof arg === 'string') return deps.agents.get(arg);
  const host = (arg as { host?: unknown } | undefined)?.host ?? arg;
  if (host && deps.agents.all.includes(host as AgentHost)) return host as AgentHost;
  return pickAgent(deps.agents, placeHolder);
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { agents, lists, settings } = deps;
  const asSession = (node: unknown): SessionNode | undefined =>
    (node as TreeNode | undefined)?.type === 'session' ? (node as SessionNode) : undefined;
  const run = (id: string, fn: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        // What a command resolves with reaches its caller (tests, other commands).
        return await fn(...args);
      } catch (e) {
        // The command is over; the message stays until the user dismisses it.
        void showError('ACP', e);
        return undefined;
      }
    });
  return [
    run('acp.openSession', (node) => {
      const s = asSession(node);
      if (s) openRow(deps, s, settings.value.openMode);
      else return vscode.commands.executeCommand('acp.resumeSession');
    }),
    run('acp.openSessionWithHistory', (node) => {
      const s = asSession(node);
      if (s) openRow(deps, s, 'load');
    }),
    run('acp.resumeSessionRow', (node) => {
      const s = asSession(node);
      if (s) openRow(deps, s, 'resume');
    }),
    run('acp.deleteSession', async (node) => {
      const s = asSession(node);
      if (!s) return;
      const ok = await deps.confirm(`Delete the session "${s.row.label}"? The agent removes it for good.`, 'Delete');
      if (!ok) return;
      const c = await s.host.connect();
      await c.deleteSession(s.row.sessionId);
      lists.removeSession(s.host.config.id, s.row.sessionId);
    }),
    run('acp.copySessionId', async (node) => {
      const s = asSession(node);
      if (s) await vscode.env.clipboard.writeText(s.row.sessionId);
    }),
    run('acp.copySessionLink', async (node) => {
      const s = asSession(node);
      if (s) await vscode.env.clipboard.writeText(sessionLink(s.row.sessionId, s.host.config.id, s.list.folder));
    }),
    run('acp.loadMore', async (node) => {
      const n = node as TreeNode | undefined;
      if (n?.type !== 'state') return;
      const before = n.list.items.length;
      await n.list.loadMore();
      // The keyboard focus goes to the first new row, not to the next "Load more…" below them.
      const first = n.list.items[before];
      const target = first && deps.tree.sessionNode(n.list, n.host, n.folder, first.sessionId);
      if (target && deps.view?.visible) await deps.view.reveal(target, { select: false, focus: true });
    }),
    run('acp.retryList', (node) => {
      const n = node as TreeNode | undefined;
      if (n?.type === 'state') return n.list.retry();
    }),
    run('acp.refreshSessions', async () => {
      deps.fresh?.refreshed();
      if (agents.all.length === 0) return answerNoAgent();
      await Promise.all(lists.all().map((l) => l.refresh()));
      deps.tree.refreshAll();
    }),
    run('acp.newSession', (node) => newSession(deps, node as TreeNode | undefined)),
    run('acp.restartAgent', async (node) => {
      const host = await agentOf(deps, node, 'Restart which agent?');
      if (!host) return;
      // Open chats attach again when the agent is ready (each chat watches its agent's state).
      await vscode.window.withProgress(
        { location: { viewId: 'acp.sessions' }, title: `Restarting ${host.config.name}` },
        () => host.restart(),
      );
    }),
    run('acp.stopAgent', async (node) => {
      const host = await agentOf(deps, node, 'Stop which agent?');
      await host?.stop();
    }),
    // Arguments (tests, automation): an agent, then a field and its new value to skip the questions.
    run('acp.editAgent', async (node, field, value) => {
      const host = await agentOf(deps, node, 'Edit which agent?');
      const known = field === 'name' || field === 'command' ? (field as AgentField) : undefined;
      return host ? editAgent(host, known, typeof value === 'string' ? value : undefined) : false;
    }),
    run('acp.removeAgent', async (node) => {
      const host = await agentOf(deps, node, 'Remove which agent?');
      return host ? removeAgent(host, (m, a) => deps.confirm(m, a)) : false;
    }),
    run('acp.showLog', () => deps.log.show(true)),
    run('acp.focusChatInput', () => {
      if (!deps.chats.focusInput()) noChatOpen();
    }),
    run('acp.openAgentSettings', async (node) => {
      const host = (node as { host?: AgentHost } | undefined)?.host;
      await openAgentSettings(typeof node === 'string' ? node : host?.config.id);
    }),
    // Returns the new agent's id; a preset id (links, tests) or a command line skips the questions.
    run('acp.addAgent', (args) =>
      addAgent(
        typeof args === 'string' ? { preset: args } : args && typeof args === 'object' ? (args as AddAgentArgs) : {},
      ),
    ),
    run('acp.copyAgentsToRemote', () => copyIgnoredAgents()),
  ];
}
