import type * as vscode from 'vscode';
import type { ChatStatuses } from '../../chat/status';
import type { AgentStatusBar } from '../agents/statusBar';

/** The Sessions view's badge and the status bar count the sessions that wait for the user. */
export function showNeedsInput(
  statuses: ChatStatuses,
  view: vscode.TreeView<unknown>,
  statusBar: AgentStatusBar,
): vscode.Disposable {
  let shown = 0;
  const update = () => {
    const n = statuses.needsInput;
    if (n === shown) return;
    shown = n;
    view.badge =
      n > 0
        ? { value: n, tooltip: `${n} session${n === 1 ? '' : 's'} need${n === 1 ? 's' : ''} your input` }
        : undefined;
    statusBar.setNeedsInput(n);
  };
  return statuses.onDidChange(update);
}
