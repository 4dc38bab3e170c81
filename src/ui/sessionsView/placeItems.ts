/** The rows of the Sessions view that group sessions: a workspace folder, an agent under it. */
import * as vscode from 'vscode';
import { STATE_WORDS, type AgentDisplayState } from '../../app/agentStates';
import { describeError } from '../../app/errorText';
import { canLogout, shownState } from '../contextKeys';
import type { AgentNode, FolderNode } from './treeNodes';

const AGENT_ICONS: Record<AgentDisplayState, vscode.ThemeIcon> = {
  stopped: new vscode.ThemeIcon('circle-outline'),
  starting: new vscode.ThemeIcon('loading~spin'),
  ready: new vscode.ThemeIcon('hubot'),
  signIn: new vscode.ThemeIcon('account', new vscode.ThemeColor('list.warningForeground')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  startFailed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
};

export function folderItem(node: FolderNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.folder.name, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `folder:${node.path}`;
  item.iconPath = vscode.ThemeIcon.Folder;
  item.resourceUri = node.folder.uri;
  item.contextValue = 'folder';
  return item;
}

/** An agent's row: its state in words and as an icon; why it failed in the tooltip. */
export function agentItem(node: AgentNode, update?: string): vscode.TreeItem {
  const item = new vscode.TreeItem(node.host.config.name, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `agent:${node.path}:${node.host.config.id}`;
  const shown = shownState(node.host);
  // An update the registry offers is said beside the state ("Ready · update to 1.4.0").
  item.description = update ? `${STATE_WORDS[shown]} · ${update}` : STATE_WORDS[shown];
  item.iconPath = AGENT_ICONS[shown];
  const { state } = node.host;
  item.tooltip = `${node.host.config.name}: ${STATE_WORDS[shown]}${state.kind === 'failed' ? `\n${describeError(state.error)}` : ''}`;
  // ".logout": Sign Out is offered only for an agent that advertises it.
  item.contextValue = `agent.${shown}${canLogout(node.host) ? '.logout' : ''}`;
  return item;
}
