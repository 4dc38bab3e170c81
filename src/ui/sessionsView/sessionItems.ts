import * as vscode from 'vscode';
import type { SessionDecor } from '../sessionDecor';
import { ACTIVITY } from '../sessionDecor';
import type { AgentHost } from '../../agent/agentHost';
import type { SessionRow } from '../../sessions/rows';
import { relativeTime } from '../../sessions/time';

/** What a session row's item is made of: the tree's session node, which its commands get back. */
export interface SessionItemSource {
  readonly row: SessionRow;
  readonly host: AgentHost;
  readonly list: { readonly folder: string };
}

/** The tree item of a session row: the user's name or the agent's title, its time, what its chat is doing. */
export function sessionTreeItem(
  node: SessionItemSource,
  decor: SessionDecor,
  open: boolean,
  now: number,
): vscode.TreeItem {
  const { row, host } = node;
  const agentId = host.config.id;
  const shown = decor.name(agentId, row);
  const item = new vscode.TreeItem(shown.label, vscode.TreeItemCollapsibleState.None);
  item.id = `session:${node.list.folder}:${agentId}:${row.sessionId}`;
  if (row.updatedAtMs !== undefined) item.description = relativeTime(row.updatedAtMs, now);
  // The tooltip is built on hover (resolveTreeItem), not for every row of every refresh.
  const activity = decor.activity(agentId, row.sessionId);
  item.iconPath =
    activity !== 'idle' ? ACTIVITY[activity].icon : new vscode.ThemeIcon(open ? 'comment-discussion' : 'comment');
  const f = host.connection?.features;
  item.contextValue = [
    'session',
    f?.load !== false ? 'load' : '',
    f?.resume ? 'resume' : '',
    f?.delete ? 'delete' : '',
    open ? 'open' : '',
    f?.fork ? 'fork' : '',
    shown.named ? 'named' : '',
  ]
    .filter(Boolean)
    .join('.');
  item.command = { command: 'acp.openSession', title: 'Open', arguments: [node] };
  return item;
}

/** What a session row's tooltip adds to the agent's data: how the agent knows a named session, what its chat is doing. */
export function sessionNotes(node: SessionItemSource, decor: SessionDecor): { label: string; notes: string[] } {
  const agentId = node.host.config.id;
  const shown = decor.name(agentId, node.row);
  const activity = decor.activity(agentId, node.row.sessionId);
  const notes = [shown.note, activity !== 'idle' ? ACTIVITY[activity].words : undefined].filter(
    (n): n is string => n !== undefined,
  );
  return { label: shown.label, notes };
}
