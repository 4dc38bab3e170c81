import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';

/** The rows of the Sessions view that say where a list or its agent is, rather than show a session. */
export type StateKind =
  | 'loadMore'
  | 'loading'
  | 'error'
  | 'empty'
  | 'notice'
  | 'stopped'
  | 'startFailed'
  | 'cannotList'
  | 'signIn'
  | 'hidden';

/** What a state row's item is made of: the tree's state node, which its command gets back. */
export interface StateItemSource {
  readonly kind: StateKind;
  readonly label: string;
  /** Why, in full (the row's tooltip or description); for `hidden`, whether the hidden rows show. */
  readonly detail?: string;
  readonly host: AgentHost;
  readonly list: { readonly folder: string };
}

/** The tree item of a state row: its icon, words and the command a click runs. */
export function stateItem(node: StateItemSource): vscode.TreeItem {
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
    case 'hidden': {
      const shown = node.detail === 'shown';
      item.iconPath = new vscode.ThemeIcon(shown ? 'eye' : 'eye-closed');
      item.tooltip =
        'Sessions that "acp.sessions.hide" leaves out: sub-agents, side chains, sessions nobody wrote in, titles that match a pattern.';
      item.command = shown
        ? { command: 'acp.hideHiddenSessions', title: 'Hide', arguments: [node] }
        : { command: 'acp.showHiddenSessions', title: 'Show', arguments: [node] };
      break;
    }
  }
  return item;
}
