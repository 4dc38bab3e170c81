import * as vscode from 'vscode';
import type { AgentDisplayState } from './agentStates';
import type { SessionDecor } from './sessionDecor';
import { ACTIVITY } from './sessionDecor';
import type { SessionNode, StateNode } from './sessionsTree';
import { relativeTime } from '../sessions/time';

/** The tree item of a session row: the user's name or the agent's title, its time, what its chat is doing. */
export function sessionItem(node: SessionNode, decor: SessionDecor, open: boolean, now: number): vscode.TreeItem {
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
export function sessionNotes(node: SessionNode, decor: SessionDecor): { label: string; notes: string[] } {
  const agentId = node.host.config.id;
  const shown = decor.name(agentId, node.row);
  const activity = decor.activity(agentId, node.row.sessionId);
  const notes = [shown.note, activity !== 'idle' ? ACTIVITY[activity].words : undefined].filter(
    (n): n is string => n !== undefined,
  );
  return { label: shown.label, notes };
}

export const AGENT_ICONS: Record<AgentDisplayState, vscode.ThemeIcon> = {
  stopped: new vscode.ThemeIcon('circle-outline'),
  starting: new vscode.ThemeIcon('loading~spin'),
  ready: new vscode.ThemeIcon('hubot'),
  signIn: new vscode.ThemeIcon('account', new vscode.ThemeColor('list.warningForeground')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
};

export function stateItem(node: StateNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.id = `state:${node.list.folder}:${node.host.config.id}:${node.kind}`;
  item.contextValue = `state.${node.kind}`;
  switch (node.kind) {
    case 'loadMore':
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'acp.loadMore', title: 'Load more', arguments: [node] };
      break;
    case 'loading':
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      break;
    case 'error':
      item.iconPath = new vscode.ThemeIcon('error');
      item.tooltip = node.label;
      item.command = { command: 'acp.retryList', title: 'Retry', arguments: [node] };
      break;
    case 'stopped':
      item.iconPath = new vscode.ThemeIcon('debug-disconnect');
      item.tooltip = node.detail;
      item.command = { command: 'acp.restartAgent', title: 'Restart Agent', arguments: [node] };
      break;
    case 'startFailed':
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
      item.description = node.detail;
      item.tooltip = `${node.label}: ${node.detail ?? ''}\nClick to try again.`;
      item.command = { command: 'acp.restartAgent', title: 'Restart Agent', arguments: [node] };
      break;
    case 'signIn':
      item.iconPath = new vscode.ThemeIcon('account');
      item.tooltip = `${node.host.config.name} asks you to sign in before it lists sessions.`;
      item.command = { command: 'acp.signIn', title: 'Sign In', arguments: [node] };
      break;
    case 'cannotList':
      item.iconPath = new vscode.ThemeIcon('info');
      item.description = 'New Session';
      item.command = { command: 'acp.newSession', title: 'New Session', arguments: [node] };
      break;
    case 'notice':
      item.iconPath = new vscode.ThemeIcon('warning');
      item.tooltip = node.label;
      break;
    case 'empty':
      item.iconPath = new vscode.ThemeIcon('info');
      item.description = 'New Session';
      item.command = { command: 'acp.newSession', title: 'New Session', arguments: [node] };
      break;
    case 'hidden':
      item.iconPath = new vscode.ThemeIcon(node.detail === 'shown' ? 'eye' : 'eye-closed');
      item.tooltip = `Sessions that "acp.sessions.hide" leaves out: sub-agents, side chains, sessions nobody wrote in, titles that match a pattern.`;
      item.command =
        node.detail === 'shown'
          ? { command: 'acp.hideHiddenSessions', title: 'Hide', arguments: [node] }
          : { command: 'acp.showHiddenSessions', title: 'Show', arguments: [node] };
      break;
  }
  return item;
}
