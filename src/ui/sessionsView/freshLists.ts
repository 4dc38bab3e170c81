import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';
import { RefreshPolicy, systemPolicyClock, type PolicyClock } from '../../sessions/refreshPolicy';
import type { SessionList } from '../../sessions/sessionList';
import type { SessionsTree, TreeNode } from './sessionsTree';

/**
 * Keeps the Sessions view fresh while it is visible: the first page of each list it shows
 * under an expanded node is read again every minute and when the window regains focus, never
 * more often than every 15 seconds ({@link RefreshPolicy}), and not at all while the view is
 * hidden. Rows change in place (see `SessionList.revalidate`), so the user's scroll position
 * and selection stay.
 */
export class FreshLists extends Disposable {
  private policy: RefreshPolicy;
  private readonly collapsed = new Set<string>();

  constructor(
    private readonly view: vscode.TreeView<TreeNode>,
    private readonly tree: SessionsTree,
    clock: PolicyClock = systemPolicyClock,
  ) {
    super();
    this.policy = this.register(new RefreshPolicy(() => void this.refresh(), clock));
    this.register(view.onDidChangeVisibility((e) => this.policy.setVisible(e.visible)));
    this.register(vscode.window.onDidChangeWindowState((s) => s.focused && this.policy.focused()));
    this.register(view.onDidCollapseElement((e) => this.collapsed.add(this.idOf(e.element))));
    this.register(view.onDidExpandElement((e) => this.collapsed.delete(this.idOf(e.element))));
    this.policy.setVisible(view.visible);
  }

  /** For tests: the policy on another clock, as visible as the view is now. */
  useClock(clock: PolicyClock): void {
    this.unregister(this.policy);
    this.policy.dispose();
    this.policy = this.register(new RefreshPolicy(() => void this.refresh(), clock));
    this.policy.setVisible(this.view.visible);
  }

  /** The user's Refresh read everything: the minute starts again. */
  refreshed(): void {
    this.policy.refreshed();
  }

  /** The window regained focus (also what tests call: a test cannot move the focus). */
  focused(): void {
    this.policy.focused();
  }

  /** Reads the first page of each list shown under an expanded node. */
  refresh(): Promise<void> {
    return Promise.all(this.shown().map((list) => list.revalidate())).then(() => undefined);
  }

  private shown(): SessionList[] {
    return this.tree
      .shownLists()
      .filter(({ parent }) => !this.isCollapsed(parent))
      .map(({ list }) => list);
  }

  private isCollapsed(node: TreeNode | undefined): boolean {
    for (let n = node; n; n = this.tree.getParent(n)) if (this.collapsed.has(this.idOf(n))) return true;
    return false;
  }

  private idOf(node: TreeNode): string {
    return this.tree.getTreeItem(node).id ?? '';
  }
}
