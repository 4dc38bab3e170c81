import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SessionNode, StateNode, TreeNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, labels, loadedRoot, offered } from '../../support';
import { DATE_GROUP_LABELS, dateGroup, type DateGroup } from '../../../../src/sessions/dateGroups';
import { waitFor } from '../../../support/wait';

describe('Sessions view (one folder, one agent)', function () {
  this.timeout(60_000);

  it('shows the first page at the root with a "Load more…" row, and pages on', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const first = await loadedRoot(a);
    const sessions = first.filter((n): n is SessionNode => n.type === 'session');
    assert.equal(sessions.length, 50, 'one page of 50');
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    for (const s of sessions) assert.equal(s.row.cwd, folder);
    const more = first.at(-1) as StateNode;
    assert.equal(more.type, 'state');
    assert.equal(more.kind, 'loadMore');
    assert.equal(labels(a, [more])[0], 'Load more…');

    await vscode.commands.executeCommand('acp.loadMore', more);
    const second = await waitFor('the second page', () => {
      const n = a.tree.getChildren();
      return n.filter((x) => x.type === 'session').length === 100 ? n : undefined;
    });
    const ids = second.filter((n): n is SessionNode => n.type === 'session').map((n) => n.row.sessionId);
    assert.equal(new Set(ids).size, 100, 'no duplicates');
    assert.deepEqual(
      ids.slice(0, 50),
      sessions.map((s) => s.row.sessionId),
      'earlier rows keep their order',
    );

    await vscode.commands.executeCommand('acp.loadMore', second.at(-1));
    const all = await waitFor('the last page', () => {
      const n = a.tree.getChildren();
      return n.filter((x) => x.type === 'session').length === 120 ? n : undefined;
    });
    assert.ok(!all.some((n) => n.type === 'state' && n.kind === 'loadMore'), 'no "Load more…" after the last page');
  });

  it('gives rows a relative time, a tooltip and menus from the capabilities', async () => {
    const a = await api();
    const [node] = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session');
    const item = a.tree.getTreeItem(node!);
    assert.match(String(item.description), /ago|just now|yesterday|\w{3} \d/);
    // The tooltip comes when the pointer rests on the row (the workbench calls resolveTreeItem).
    assert.equal(item.tooltip, undefined);
    const { tooltip } = await a.tree.resolveTreeItem(item, node!);
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.match(tooltip.value, new RegExp(node!.row.sessionId.replace(/[_]/g, '\\\\?_').slice(0, 12)));
    assert.match(String(item.contextValue), /^session\.load\.resume\.delete/);
  });

  it('opens a row with one click as acp.openMode says; the other ways are in its menu, in plain words, not icons', async () => {
    const a = await api();
    const [node] = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session');
    const item = a.tree.getTreeItem(node!);
    assert.equal(item.command?.command, 'acp.openSession');
    const manifest = vscode.extensions.getExtension('acp-tools.acp-client')!.packageJSON as {
      contributes: {
        commands: { command: string; title: string; icon?: string }[];
        menus: Record<string, { command: string; group?: string }[]>;
      };
    };
    const rowMenu = offered('view/item/context', { view: 'acp.sessions', viewItem: item.contextValue });
    const inline = manifest.contributes.menus['view/item/context']!.filter(
      (m) => rowMenu.includes(m.command) && m.group?.startsWith('inline'),
    );
    assert.deepEqual(inline, [], 'no buttons on a session row: a click opens it');
    const title = (id: string) => manifest.contributes.commands.find((c) => c.command === id)!;
    assert.deepEqual(
      ['acp.openSession', 'acp.openSessionWithHistory', 'acp.resumeSessionRow'].map((id) => title(id).title),
      ['Open Chat', 'Open with Earlier Messages', 'Open Without Earlier Messages (Faster)'],
    );
    for (const id of ['acp.openSession', 'acp.openSessionWithHistory', 'acp.resumeSessionRow'])
      assert.ok(rowMenu.includes(id), `${id} in the row's menu`);
    for (const id of ['acp.openSession', 'acp.openSessionWithHistory', 'acp.resumeSessionRow'])
      assert.ok(!title(id).icon?.includes('debug-'), `no debugger icon for ${id}`);
  });

  it("keeps each row's id across a refresh that moves every row down", async () => {
    const a = await api();
    const idsOf = (nodes: TreeNode[]) =>
      new Map(
        nodes
          .filter((n): n is SessionNode => n.type === 'session')
          .map((n) => [n.row.sessionId, a.tree.getTreeItem(n).id]),
      );
    const before = idsOf(await loadedRoot(a));
    assert.equal(new Set(before.values()).size, before.size, 'ids are unique');
    // A session made behind the view's back lands on top after the refresh: every row moves.
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const created = await (await a.agents.all[0]!.connect()).newSession({ cwd, mcpServers: [] });
    await vscode.commands.executeCommand('acp.refreshSessions');
    const nodes = await waitFor('the new row on top', () => {
      const n = a.tree.getChildren();
      const first = n.find((x) => x.type === 'session');
      return first?.type === 'session' && first.row.sessionId === created.sessionId ? n : undefined;
    });
    const after = idsOf(nodes);
    let compared = 0;
    for (const [sessionId, id] of after) {
      if (!before.has(sessionId)) continue;
      assert.ok(id, 'every row has an id');
      assert.equal(id, before.get(sessionId), `the row of ${sessionId} keeps its id`);
      compared++;
    }
    assert.ok(compared >= 40, `${compared} rows compared`);
    assert.ok(![...before.values()].includes(after.get(created.sessionId)), 'the new row has an id of its own');
  });

  it('redraws relative times each minute without fetching anything', async () => {
    const a = await api();
    const [node] = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session');
    const updated = node!.row.updatedAtMs!;
    let now = updated + 5 * 60_000;
    let every = 0;
    const ticks: (() => void)[] = [];
    a.tree.useClock({
      now: () => now,
      every: (ms, tick) => {
        every = ms;
        ticks.push(tick);
        return { dispose: () => undefined };
      },
    });
    const list = a.lists.all()[0]!;
    const changes: unknown[] = [];
    let redraws = 0;
    const subs = [
      list.onDidChange((c) => changes.push(c)),
      a.tree.onDidChangeTreeData((e) => (e === undefined ? redraws++ : 0)),
    ];
    try {
      assert.equal(every, 60_000, 'a tick each minute');
      assert.equal(a.tree.getTreeItem(node!).description, '5 min ago');
      now += 2 * 60 * 60_000;
      ticks.at(-1)!();
      await waitFor('a redraw of the view', () => redraws > 0);
      assert.equal(a.tree.getTreeItem(node!).description, '2 h ago');
      assert.deepEqual(changes, [], 'the list did not change: nothing was fetched');
      assert.equal(list.state, 'idle');
    } finally {
      subs.forEach((s) => s.dispose());
      a.tree.useClock({
        now: () => Date.now(),
        every: (ms, tick) => {
          const t = setInterval(tick, ms);
          return { dispose: () => clearInterval(t) };
        },
      });
    }
  });

  it('puts a session created in this window on top at once, and retitles it from session_info_update', async () => {
    const a = await api();
    await loadedRoot(a);
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const panel = await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd }, 'new');
    const session = panel!.session;
    const id = await waitFor('a session id', () => session.sessionId);
    const top = await waitFor('the new row on top', () => {
      const first = a.tree.getChildren().find((n) => n.type === 'session');
      return first?.type === 'session' && first.row.sessionId === id ? first : undefined;
    });
    assert.match(top.row.label, /^Untitled session/);
    await session.prompt('Write a haiku about paging cursors');
    const retitled = await waitFor('the row retitled in place', () => {
      const row = a.tree.getChildren().find((n): n is SessionNode => n.type === 'session' && n.row.sessionId === id);
      return row && !row.row.untitled ? row : undefined;
    });
    assert.match(retitled.row.label, /haiku/i);
    assert.ok(a.chats.isOpen(a.agents.all[0]!.config.id, id));
    assert.equal((a.tree.getTreeItem(retitled).iconPath as vscode.ThemeIcon).id, 'comment-discussion');
    panel!.panel.dispose();
  });

  it('shows rows under date headings, newest first, and moves a session just talked in to the top at once', async () => {
    const a = await api();
    const nodes = await loadedRoot(a);
    assert.equal(nodes[0]?.type, 'heading', 'a date heading first');
    const now = Date.now();
    let heading: DateGroup | undefined;
    const order: DateGroup[] = [];
    for (const n of nodes) {
      if (n.type === 'heading') order.push((heading = n.group));
      else if (n.type === 'session') assert.equal(dateGroup(n.row.updatedAtMs, now), heading, n.row.label);
    }
    const all: DateGroup[] = ['today', 'yesterday', 'week', 'older', 'undated'];
    assert.deepEqual(
      order,
      all.filter((g) => order.includes(g)),
      'headings once each, newest first',
    );
    assert.deepEqual(
      labels(
        a,
        nodes.filter((n) => n.type === 'heading'),
      ).slice(0, 1),
      [DATE_GROUP_LABELS[order[0]!]],
    );

    const sessions = nodes.filter((n): n is SessionNode => n.type === 'session');
    const oldest = sessions.at(-1)!;
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const panel = await a.chats.open(
      { agentId: oldest.host.config.id, cwd, sessionId: oldest.row.sessionId },
      'resume',
    );
    await waitFor('attached', () => panel!.session.capabilities().canPrompt);
    await panel!.session.prompt('One more question');
    const top = await waitFor('the session talked in on top, under Today', () => {
      const now = a.tree.getChildren();
      const first = now.find((n): n is SessionNode => n.type === 'session');
      return first?.row.sessionId === oldest.row.sessionId && now[0]?.type === 'heading' && now[0].group === 'today'
        ? first
        : undefined;
    });
    assert.equal(a.tree.getTreeItem(top).description, 'just now');
    panel!.panel.dispose();
  });

  it('deletes a session after confirming, and the row disappears', async () => {
    const a = await api();
    const nodes = await loadedRoot(a);
    const victim = nodes.find((n): n is SessionNode => n.type === 'session')!;
    let asked = '';
    a.setConfirm(async (message) => {
      asked = message;
      return true;
    });
    await vscode.commands.executeCommand('acp.deleteSession', victim);
    assert.match(asked, /Delete the session/);
    await waitFor(
      'the row gone',
      () => !a.tree.getChildren().some((n) => n.type === 'session' && n.row.sessionId === victim.row.sessionId),
    );
    await vscode.commands.executeCommand('acp.refreshSessions');
    const fresh = await loadedRoot(a);
    assert.ok(
      !fresh.some((n) => n.type === 'session' && n.row.sessionId === victim.row.sessionId),
      'the agent no longer lists it',
    );
  });
});
