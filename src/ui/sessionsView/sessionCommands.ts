import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../../agent/agentHost';
import { chatTarget, type OpenMode } from '../../chat/target';
import type { SessionLists } from '../../sessions/sessionLists';
import { answerNoAgent } from '../agents/agentSettings';
import type { ChatPanels } from '../chat/chatPanels';
import type { Commands } from '../commands';
import type { Confirm } from '../messages';
import { pickAgent, pickFolder } from '../pickers/agentPicker';
import type { SettingsService } from '../settings';
import { sessionLink } from '../uriHandler';
import { folderPath, type SessionNode, type SessionsTree, type TreeNode } from './sessionsTree';

export interface SessionCommandDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  chats: ChatPanels;
  tree: SessionsTree;
  /** The Sessions view, to move the keyboard focus; absent where no view exists. */
  view?: vscode.TreeView<TreeNode>;
  settings: SettingsService;
  /** Keeps the view fresh; told when the user's Refresh read everything. */
  fresh?: { refreshed(): void };
  /** Asks before a destructive action; tests replace it (payload mode skips modal dialogs). */
  confirm: Confirm;
  /** The folders' worktrees, read again on Refresh. */
  worktrees?: { refresh(): Promise<void> };
}

/**
 * The other folders of a multi-root window: extra roots for a new session. None for a session
 * in a worktree (a cwd that is no folder of the window): its changes stay in the worktree.
 */
function otherFolders(cwd: string): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map(folderPath);
  return folders.includes(cwd) ? folders.filter((f) => f !== cwd) : [];
}

/** Opens a listed session in its chat panel. */
export function openRow(deps: SessionCommandDeps, node: SessionNode, mode: OpenMode): void {
  void deps.chats.open(chatTarget(node.host.config.id, node.row), mode);
}

/** Starts a new session in a folder (the node's, or the user's choice) with an agent. */
export async function newSession(deps: SessionCommandDeps, node?: TreeNode): Promise<void> {
  let host: AgentHost | undefined;
  let cwd: string | undefined;
  if (node?.type === 'folder' || node?.type === 'worktree') {
    cwd = node.path;
  } else if (node) {
    host = node.host;
    cwd = node.type === 'agent' ? node.path : node.list.folder;
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

/** What the Sessions view's rows, title bar and welcome offer. */
export function sessionCommands(deps: SessionCommandDeps): Commands {
  const { agents, lists, settings } = deps;
  const asSession = (node: unknown): SessionNode | undefined =>
    (node as TreeNode | undefined)?.type === 'session' ? (node as SessionNode) : undefined;
  return {
    'acp.openSession': (node) => {
      const s = asSession(node);
      if (s) openRow(deps, s, settings.value.openMode);
      else return vscode.commands.executeCommand('acp.resumeSession');
    },
    'acp.openSessionWithHistory': (node) => {
      const s = asSession(node);
      if (s) openRow(deps, s, 'load');
    },
    'acp.resumeSessionRow': (node) => {
      const s = asSession(node);
      if (s) openRow(deps, s, 'resume');
    },
    'acp.deleteSession': async (node) => {
      const s = asSession(node);
      if (!s) return;
      const ok = await deps.confirm(`Delete the session "${s.row.label}"? The agent removes it for good.`, 'Delete');
      if (!ok) return;
      const c = await s.host.connect();
      await c.deleteSession(s.row.sessionId);
      lists.removeSession(s.host.config.id, s.row.sessionId);
    },
    'acp.copySessionId': async (node) => {
      const s = asSession(node);
      if (s) await vscode.env.clipboard.writeText(s.row.sessionId);
    },
    'acp.copySessionLink': async (node) => {
      const s = asSession(node);
      if (s) await vscode.env.clipboard.writeText(sessionLink(s.row.sessionId, s.host.config.id, s.list.folder));
    },
    'acp.loadMore': async (node) => {
      const n = node as TreeNode | undefined;
      if (n?.type !== 'state') return;
      const before = n.list.items.length;
      await n.list.loadMore();
      // The keyboard focus goes to the first new row, not to the next "Load more…" below them.
      const first = n.list.items[before];
      const target = first && deps.tree.sessionNode(n.list, n.host, n.folder, first.sessionId);
      if (target && deps.view?.visible) await deps.view.reveal(target, { select: false, focus: true });
    },
    'acp.retryList': (node) => {
      const n = node as TreeNode | undefined;
      if (n?.type === 'state') return n.list.retry();
    },
    'acp.refreshSessions': async () => {
      deps.fresh?.refreshed();
      if (agents.all.length === 0) return answerNoAgent();
      await Promise.all([...lists.all().map((l) => l.refresh()), deps.worktrees?.refresh()]);
      deps.tree.refreshAll();
    },
    'acp.newSession': (node) => newSession(deps, node as TreeNode | undefined),
  };
}
