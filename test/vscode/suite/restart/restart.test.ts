import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SessionNode, StateNode, TreeNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, labels, loadedRoot } from '../../support';
import { waitFor } from '../../../support/wait';

// The agent exits on its fourth incoming message (--crash-after 4): initialize, the first page,
// a second page, and the third page kills it while it lists. The extension restarts it.
describe('After the agent restarts, the lists reload', function () {
  this.timeout(90_000);

  const sessionIds = (nodes: TreeNode[]) =>
    nodes.filter((n): n is SessionNode => n.type === 'session').map((n) => n.row.sessionId);
  const stateRows = (nodes: TreeNode[]) => nodes.filter((n): n is StateNode => n.type === 'state');

  it('shows "Agent stopped — Restart" after a crash while listing, then the rows come back without Retry', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const host = a.agents.all[0]!;
    const first = await loadedRoot(a);
    await vscode.commands.executeCommand('acp.loadMore', first.at(-1));
    const shown = await waitFor('two pages', () => {
      const ids = sessionIds(a.tree.getChildren());
      return ids.length === 40 ? ids : undefined;
    });
    const pid = host.connection!.pid;

    // What the view shows at every change, to catch the short-lived "stopped" row.
    const seen: { label: string; kind: string; command?: string }[] = [];
    const snapshot = () => {
      for (const n of stateRows(a.tree.getChildren())) {
        const item = a.tree.getTreeItem(n);
        seen.push({ label: labels(a, [n])[0]!, kind: n.kind, command: item.command?.command });
      }
    };
    const subs = [a.lists.onDidChangeList(snapshot), a.agents.onDidChangeState(snapshot)];
    try {
      const more = stateRows(a.tree.getChildren()).find((n) => n.kind === 'loadMore');
      await vscode.commands.executeCommand('acp.loadMore', more);
      const back = await waitFor(
        'the rows back from the new process',
        () => {
          const nodes = a.tree.getChildren();
          const c = host.connection;
          const ok =
            c &&
            c.pid !== pid &&
            a.lists.all()[0]!.state === 'idle' &&
            stateRows(nodes).every((n) => n.kind === 'loadMore');
          return ok ? nodes : undefined;
        },
        30_000,
      );
      const stopped = seen.find((s) => s.kind === 'stopped');
      assert.ok(stopped, `no "stopped" row was shown: ${JSON.stringify(seen)}`);
      assert.equal(stopped.label, 'Reference Agent stopped — Restart');
      assert.equal(stopped.command, 'acp.restartAgent');
      const ids = sessionIds(back);
      for (const id of shown) assert.ok(ids.includes(id), `row ${id} was shown before the crash and stays`);
      assert.equal(stateRows(back).at(-1)?.kind, 'loadMore', 'paging goes on from the new process');
    } finally {
      subs.forEach((s) => s.dispose());
    }
  });

  it('reloads an idle list from the new process: a session created meanwhile appears', async () => {
    const a = await api();
    const host = a.agents.all[0]!;
    await loadedRoot(a);
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const c = await host.connect();
    // Made behind the view's back: only a fresh session/list can show it.
    const created = await c.newSession({ cwd, mcpServers: [] });
    assert.ok(!sessionIds(a.tree.getChildren()).includes(created.sessionId));
    process.kill(c.pid!, 'SIGKILL');
    await waitFor(
      'the new session listed after the restart',
      () => sessionIds(a.tree.getChildren()).includes(created.sessionId),
      30_000,
    );
    assert.notEqual(host.connection?.pid, c.pid);
  });
});
