import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { DATE_GROUP_LABELS, type DateGroup } from '../../sessions/dateGroups';
import type { SessionList } from '../../sessions/sessionList';

/** A date heading above the sessions of one day range (Today, Yesterday, Last 7 days, Older). */
export interface HeadingNode {
  readonly type: 'heading';
  readonly group: DateGroup;
  readonly list: SessionList;
  readonly host: AgentHost;
}

/** A date heading: a quiet row with no command, so a click or Enter on it does nothing. */
export function headingItem(node: HeadingNode): vscode.TreeItem {
  const item = new vscode.TreeItem(DATE_GROUP_LABELS[node.group], vscode.TreeItemCollapsibleState.None);
  item.id = `heading:${node.list.folder}:${node.host.config.id}:${node.group}`;
  item.iconPath = new vscode.ThemeIcon('calendar');
  item.contextValue = 'heading';
  return item;
}
