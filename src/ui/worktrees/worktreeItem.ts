import * as vscode from 'vscode';
import type { ChatActivity } from '../../chat/status';
import { ACTIVITY } from '../sessionDecor';
import type { WorktreeNode } from '../sessionsView/treeNodes';

const RANK: readonly ChatActivity[] = ['needsInput', 'failed', 'running', 'unseen', 'idle'];
const SHORT: Record<Exclude<ChatActivity, 'idle'>, string> = {
  needsInput: 'needs input',
  failed: 'failed',
  running: 'running',
  unseen: 'finished',
};

/** What a worktree's row shows of its chats: the one most in need of the user. */
export function strongestActivity(activities: Iterable<ChatActivity>): ChatActivity {
  let best: ChatActivity = 'idle';
  for (const a of activities) if (RANK.indexOf(a) < RANK.indexOf(best)) best = a;
  return best;
}

/** What a worktree row says beside its branch: "↑2 ↓1 · 3 files", "folder gone", "locked". */
export function worktreeDescription(node: WorktreeNode, activity: ChatActivity = 'idle'): string {
  const { info, summary } = node.row;
  const parts: string[] = activity === 'idle' ? [] : [SHORT[activity]];
  if (info.missing) parts.push('folder gone');
  else if (summary) {
    if (summary.ahead || summary.behind) parts.push(`↑${summary.ahead} ↓${summary.behind}`);
    parts.push(summary.changed === 1 ? '1 file changed' : `${summary.changed} files changed`);
  }
  if (info.locked !== undefined) parts.push('locked');
  if (node.row.overlaps?.length) parts.push(`same files as ${node.row.overlaps.map((o) => o.branch).join(', ')}`);
  return parts.join(' · ');
}

/**
 * A worktree under its folder, collapsed: its sessions are listed (and its agent started) only
 * when the user opens it. The context value says what its menu offers.
 */
export function worktreeItem(node: WorktreeNode, activity: ChatActivity = 'idle'): vscode.TreeItem {
  const { info } = node.row;
  const label = info.branch ?? `(detached ${info.head?.slice(0, 7) ?? ''})`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `worktree:${node.path}`;
  item.description = worktreeDescription(node, activity);
  item.iconPath =
    info.missing || (activity === 'idle' && node.row.overlaps?.length)
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
      : activity !== 'idle'
        ? ACTIVITY[activity].icon
        : new vscode.ThemeIcon('git-branch');
  item.resourceUri = vscode.Uri.file(node.path);
  const base = info.base ? `\nBase: ${info.base}` : '';
  const locked = info.locked !== undefined ? `\nLocked${info.locked ? `: ${info.locked}` : ''}` : '';
  const gone = info.missing ? '\nIts folder is gone (deleted outside git): Discard Worktree removes the branch.' : '';
  const doing = activity === 'idle' ? '' : `\n${ACTIVITY[activity].words}`;
  const overlaps = (node.row.overlaps ?? [])
    .map((o) => `\nAlso changed in ${o.branch}: ${o.files.slice(0, 5).join(', ')}${o.files.length > 5 ? ', …' : ''}`)
    .join('');
  item.tooltip = `Worktree ${label}\n${node.path}${base}${locked}${gone}${doing}${overlaps}`;
  item.contextValue = `worktree${info.branch && info.base ? '.branch' : ''}${info.missing ? '.missing' : ''}`;
  return item;
}
