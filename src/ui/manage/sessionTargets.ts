import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../../agent/agentHost';
import { sortByUpdatedAt } from '../../sessions/picks';
import type { SessionRow } from '../../sessions/rows';
import type { SessionLists } from '../../sessions/sessionLists';
import { relativeTime } from '../../sessions/time';
import { pickFolder } from '../pickers/agentPicker';
import type { ChatPanels } from '../chat/chatPanels';
import type { SessionDecor } from '../sessionDecor';
import { folderPath, type SessionNode, type TreeNode } from '../sessionsView/sessionsTree';

/** A session a command acts on: a row of the tree, the focused chat's, or one the user picked. */
export interface SessionTarget {
  readonly host: AgentHost;
  readonly sessionId: string;
  readonly cwd: string;
  /** The listed row, when a list holds it. */
  readonly row?: SessionRow;
}

export interface TargetDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  chats: ChatPanels;
  decor: SessionDecor;
}

export const isSessionNode = (node: unknown): node is SessionNode => (node as TreeNode | undefined)?.type === 'session';

/** The listed row of a session, from any list of its agent. */
export function rowOf(deps: TargetDeps, agentId: string, sessionId: string): SessionRow | undefined {
  for (const list of deps.lists.listsOf(agentId)) {
    const row = list.get(sessionId);
    if (row) return row;
  }
  return undefined;
}

/**
 * The sessions a command acts on: the rows it was run on (several with multi-selection), else
 * the focused chat's session (the chat's title bar, and the palette over a chat), else the one
 * the user picks from the folder's sessions.
 */
export async function sessionTargets(
  deps: TargetDeps,
  node: unknown,
  selected: unknown,
  question: string,
): Promise<SessionTarget[]> {
  if (isSessionNode(node)) {
    const nodes = Array.isArray(selected) && selected.some((n) => n === node) ? selected.filter(isSessionNode) : [node];
    return nodes.map((n) => ({ host: n.host, sessionId: n.row.sessionId, cwd: n.row.cwd, row: n.row }));
  }
  const focused = focusedTarget(deps);
  if (focused) return [focused];
  const picked = await pickSession(deps, question);
  return picked ? [picked] : [];
}

/** The session of the chat the user is in, if it has one. */
export function focusedTarget(deps: TargetDeps): SessionTarget | undefined {
  const chat = deps.chats.active;
  const id = chat?.session.sessionId;
  const host = chat && deps.agents.get(chat.session.target.agentId);
  if (!chat || !id || !host) return undefined;
  return { host, sessionId: id, cwd: chat.session.target.cwd, row: rowOf(deps, host.config.id, id) };
}

/** Asks which session, among the folder's sessions the lists hold (newest first, by the names shown). */
export async function pickSession(deps: TargetDeps, question: string): Promise<SessionTarget | undefined> {
  const folder = await pickFolder(question);
  if (!folder) return undefined;
  const cwd = folderPath(folder);
  const lists = deps.agents.all.map((host) => ({ host, list: deps.lists.get(host, cwd) }));
  const items = Promise.all(lists.map(({ list }) => list.ensureLoaded())).then(() => {
    const several = lists.length > 1;
    const hostOf = new Map<SessionRow, AgentHost>();
    const rows = lists.flatMap(({ host, list }) =>
      deps.decor.visible(list).rows.map((row) => (hostOf.set(row, host), row)),
    );
    const now = Date.now();
    return sortByUpdatedAt(rows).map((row) => {
      const host = hostOf.get(row)!;
      const time = row.updatedAtMs !== undefined ? relativeTime(row.updatedAtMs, now) : '';
      return {
        label: deps.decor.name(host.config.id, row).label,
        description: [time, several ? host.config.name : ''].filter(Boolean).join(' · '),
        target: { host, sessionId: row.sessionId, cwd: row.cwd, row } satisfies SessionTarget,
      };
    });
  });
  const choice = await vscode.window.showQuickPick(items, {
    title: question,
    placeHolder: 'Search by name or title',
    matchOnDescription: true,
  });
  return choice?.target;
}
