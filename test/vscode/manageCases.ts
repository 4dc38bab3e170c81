// Managing sessions inside a real VS Code, once with an agent that stores names and archives
// and can fork (the reference agent as it starts), once with one that withholds all three
// (--no-title --no-archive --no-fork): the same user-visible results, through the agent or on
// this side. Each test takes its own sessions from the rows shown at the start.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../src/extension';
import type { SessionNode, StateNode, TreeNode } from '../../src/ui/sessionsView/sessionsTree';
import { suiteContext } from '../host/suiteContext';
import { api, catchMessages, loadedRoot } from './support';
import { waitFor } from '../support/wait';

export type Mode = 'agent' | 'client';

const label = (a: AcpTestApi, node: TreeNode) => {
  const l = a.tree.getTreeItem(node).label;
  return typeof l === 'string' ? l : (l?.label ?? '');
};
const sessionNodes = (nodes: TreeNode[]) => nodes.filter((n): n is SessionNode => n.type === 'session');

async function rows(a: AcpTestApi): Promise<SessionNode[]> {
  return sessionNodes(await loadedRoot(a));
}
async function nodeOf(a: AcpTestApi, id: string): Promise<SessionNode | undefined> {
  return (await rows(a)).find((n) => n.row.sessionId === id);
}
async function closeChats(a: AcpTestApi): Promise<void> {
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}
/** What the agent received, from its --record file. */
function received(method: string): unknown[] {
  const file = recordFile();
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; params: unknown })
    .filter((m) => m.method === method)
    .map((m) => m.params);
}
const recordFile = () => suiteContext().recordFile ?? '';
/** The Markdown tooltip a row shows on hover. */
async function tooltip(a: AcpTestApi, node: SessionNode): Promise<string> {
  const item = await a.tree.resolveTreeItem(a.tree.getTreeItem(node), node);
  const t = item.tooltip;
  return typeof t === 'string' ? t : (t?.value ?? '');
}
const unescape = (md: string) => md.replace(/\\(.)/g, '$1');
/** A title pattern that matches this title alone. */
const exactly = (title: string) => `^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

export function manageCases(mode: Mode): void {
  describe(`Managing sessions (${mode === 'agent' ? 'through the agent' : 'on the client side'})`, function () {
    this.timeout(90_000);
    let ids: string[] = [];
    let titles = new Map<string, string>();

    before(async () => {
      const a = await api();
      const shown = await rows(a);
      ids = shown.map((n) => n.row.sessionId);
      titles = new Map(shown.map((n) => [n.row.sessionId, n.row.label]));
      assert.equal(ids.length, 8, 'the eight regular sessions show; the three marked ones are hidden');
      const c = await a.agents.all[0]!.connect();
      assert.equal(c.features.title && c.features.archive && c.features.fork, mode === 'agent');
    });
    afterEach(async () => {
      const a = await api();
      a.setManagePrompts({ askName: async () => undefined, askRunning: async () => undefined });
      await closeChats(a);
    });

    it('hides side chains, sub-agents and sessions nobody wrote in behind a row that shows them', async () => {
      const a = await api();
      const hiddenRow = async () =>
        (await loadedRoot(a)).find((n): n is StateNode => n.type === 'state' && n.kind === 'hidden');
      const row = (await waitFor('the hidden row', hiddenRow))!;
      assert.equal(label(a, row), '3 hidden — Show');
      await vscode.commands.executeCommand('acp.showHiddenSessions');
      await waitFor('shown', async () => (await hiddenRow())?.label === '3 hidden — Hide');
      const all = (await rows(a)).map((n) => n.row.title);
      assert.ok(all.some((t) => t?.startsWith('Side chain')) && all.some((t) => t?.startsWith('Sub-agent')));
      await vscode.commands.executeCommand('acp.hideHiddenSessions');
      await waitFor('hidden again', async () => (await hiddenRow())?.label === '3 hidden — Show');
      void vscode.commands.executeCommand('acp.resumeSession');
      const pick = await waitFor('the QuickPick', () => a.currentPick());
      await pick.settled;
      assert.match(pick.quickPick.title ?? '', /\(3 hidden\)/);
      const before = pick.quickPick.items.filter((i) => i.row).length;
      pick.toggleHidden();
      assert.equal(pick.quickPick.items.filter((i) => i.row).length, before + 3, 'the toggle shows them');
      pick.quickPick.hide();
      await waitFor('closed', () => a.currentPick() === undefined);
    });

    it('names the setting and the bad pattern of acp.sessions.hide in a warning, and applies the rest', async () => {
      const a = await api();
      const id = ids[5]!;
      const title = titles.get(id)!;
      // The warning is a notification: catch what the extension shows.
      const warnings = catchMessages('showWarningMessage');
      const config = () => vscode.workspace.getConfiguration('acp');
      try {
        await config().update(
          'sessions.hide',
          { titlePatterns: ['(unclosed', exactly(title)] },
          vscode.ConfigurationTarget.Global,
        );
        const warning = await waitFor('the warning', () => warnings.shown.find((m) => m.includes('acp.sessions.hide')));
        assert.match(
          warning,
          /"acp\.sessions\.hide\.titlePatterns" item 1, "\(unclosed", is not a valid regular expression/,
        );
        assert.doesNotMatch(warning, /item 2/, 'the good pattern is not named');
        await waitFor('the row the good pattern matches is hidden', async () => !(await nodeOf(a, id)));
        const hidden = (await loadedRoot(a)).find((n): n is StateNode => n.type === 'state' && n.kind === 'hidden');
        assert.equal(hidden && label(a, hidden), '4 hidden — Show');
      } finally {
        warnings.restore();
        await config().update('sessions.hide', undefined, vscode.ConfigurationTarget.Global);
      }
      await waitFor('shown again once the rule is gone', async () => !!(await nodeOf(a, id)));
    });

    it("ignores acp.sessions.hide in a repository's settings: it hides nothing and runs none of its patterns", async () => {
      const a = await api();
      const [fromRepo, fromUser] = [ids[6]!, ids[5]!];
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const file = vscode.Uri.joinPath(folder, '.vscode', 'settings.json');
      const config = () => vscode.workspace.getConfiguration('acp');
      // As a cloned repository carries it: a pattern that would take a backtracking engine
      // forever on a long title, beside one that would hide a row.
      const repo = {
        'acp.openMode': 'load',
        'acp.sessions.hide': { titlePatterns: ['^(.*)*!!', exactly(titles.get(fromRepo)!)], noUserMessage: false },
      };
      try {
        await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(repo)));
        await waitFor('the repository settings read', () => config().get('openMode') === 'load');
        // The user's own pattern still applies; once it has, the repository's would have too.
        await config().update(
          'sessions.hide',
          { titlePatterns: [exactly(titles.get(fromUser)!)] },
          vscode.ConfigurationTarget.Global,
        );
        await waitFor("the user's pattern applied", async () => !(await nodeOf(a, fromUser)));
        assert.ok(await nodeOf(a, fromRepo), "the repository's pattern hides nothing");
        const hidden = (await loadedRoot(a)).find((n): n is StateNode => n.type === 'state' && n.kind === 'hidden');
        assert.equal(
          hidden && label(a, hidden),
          '4 hidden — Show',
          "the repository's noUserMessage: false is ignored too",
        );
      } finally {
        await vscode.workspace.fs.delete(file);
        await config().update('sessions.hide', undefined, vscode.ConfigurationTarget.Global);
      }
      await waitFor('shown again', async () => !!(await nodeOf(a, fromUser)));
    });

    it('renames a row: the tree, Resume Session and search show the name, the tooltip the agent title', async () => {
      const a = await api();
      const id = ids[0]!;
      a.setManagePrompts({
        askName: async (current) => (current === titles.get(id) ? 'Release checklist' : undefined),
      });
      await vscode.commands.executeCommand('acp.renameSession', await nodeOf(a, id));
      await waitFor('the new label', async () => label(a, (await nodeOf(a, id))!) === 'Release checklist');
      const node = (await nodeOf(a, id))!;
      if (mode === 'agent') {
        assert.equal(node.row.title, 'Release checklist', 'the agent stored it');
        assert.deepEqual(received('session/set_title'), [{ sessionId: id, title: 'Release checklist' }]);
        assert.doesNotMatch(await tooltip(a, node), /still knows it/);
      } else {
        assert.equal(node.row.label, titles.get(id), 'the agent kept its title');
        assert.deepEqual(received('session/set_title'), []);
        assert.match(unescape(await tooltip(a, node)), new RegExp(`The agent still knows it as “${titles.get(id)}”`));
      }
      assert.ok(a.tree.getTreeItem(node).contextValue?.includes('.named'), 'Reset Name is offered');
      void vscode.commands.executeCommand('acp.resumeSession');
      const pick = await waitFor('the QuickPick', () => a.currentPick());
      await pick.settled;
      const item = pick.quickPick.items.find((i) => i.row?.sessionId === id)!;
      assert.equal(item.label, 'Release checklist');
      if (mode === 'client') assert.ok(item.detail?.includes(titles.get(id)!), 'found by the agent title too');
      pick.quickPick.hide();
      await waitFor('closed', () => a.currentPick() === undefined);
    });

    it('renames the focused chat from the palette: the tab and the header show the name', async () => {
      const a = await api();
      const id = ids[1]!;
      const node = (await nodeOf(a, id))!;
      await vscode.commands.executeCommand('acp.openSessionWithHistory', node);
      const chat = await waitFor('the chat', () => a.chats.get(node.host.config.id, id));
      await waitFor('active', () => chat.panel.active);
      a.setManagePrompts({ askName: async () => 'From the palette' });
      await vscode.commands.executeCommand('acp.renameSession');
      await waitFor('the tab title', () => chat.panel.title === 'From the palette');
      assert.equal(chat.session.thread.meta.name, 'From the palette', 'the header shows the name');
      await waitFor('the row', async () => label(a, (await nodeOf(a, id))!) === 'From the palette');
    });

    it('asks which session when no chat is focused', async () => {
      const a = await api();
      let asked = '';
      a.setManagePrompts({
        askName: async (current) => {
          asked = current;
          return 'Picked from the list';
        },
      });
      const run = vscode.commands.executeCommand('acp.renameSession');
      // The QuickPick of the folder's sessions; Enter takes the newest.
      await waitFor('the session QuickPick', async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return asked !== '';
      });
      await run;
      const renamed = (await rows(a)).find((n) => label(a, n) === 'Picked from the list');
      assert.ok(renamed, 'a session got the name');
    });

    it('keeps the name when the agent titles the session later, and Reset Name gives the title back', async () => {
      const a = await api();
      const host = a.agents.all[0]!;
      const agentId = host.config.id;
      const list = a.lists.get(host, suiteContext().folders[0]!);
      // The session nobody wrote in (hidden until it is named): the agent titles it at its first prompt.
      const empty = list.items.find((r) => r._meta?.messageCount === 0)!;
      assert.equal(await nodeOf(a, empty.sessionId), undefined, 'hidden before it is named');
      const chat = (await a.chats.open({ agentId, sessionId: empty.sessionId, cwd: empty.cwd }, 'resume'))!;
      await waitFor('attached', () => chat.session.capabilities().canPrompt);
      await waitFor('active', () => chat.panel.active);
      a.setManagePrompts({ askName: async () => 'Named before it began' });
      await vscode.commands.executeCommand('acp.renameSession');
      await waitFor('shown with its name', async () => {
        const n = await nodeOf(a, empty.sessionId);
        return n && label(a, n) === 'Named before it began';
      });
      await chat.session.prompt('hello there');
      await waitFor('the turn ended', () => !chat.session.isPrompting);
      const node = (await nodeOf(a, empty.sessionId))!;
      assert.equal(label(a, node), 'Named before it began', 'the name stays');
      assert.equal(chat.panel.title, 'Named before it began');
      if (mode === 'client') {
        await waitFor(
          'the agent title arrived',
          async () => (await nodeOf(a, empty.sessionId))!.row.title === 'hello there',
        );
        assert.match(
          unescape(await tooltip(a, (await nodeOf(a, empty.sessionId))!)),
          /The agent still knows it as “hello there”/,
        );
      } else {
        assert.equal(node.row.title, 'Named before it began', 'the agent keeps the name it stored');
      }
      await vscode.commands.executeCommand('acp.resetSessionName', await nodeOf(a, empty.sessionId));
      const shown = mode === 'client' ? 'hello there' : 'Named before it began';
      await waitFor('the agent title', async () => label(a, (await nodeOf(a, empty.sessionId))!) === shown);
      assert.equal(chat.session.thread.meta.name, undefined);
      assert.ok(!a.tree.getTreeItem((await nodeOf(a, empty.sessionId))!).contextValue?.includes('.named'));
      chat.panel.dispose();
      await waitFor('closed', () => !a.chats.get(agentId, empty.sessionId));
      assert.ok(await nodeOf(a, empty.sessionId), 'written in here: not hidden as a session nobody wrote in');
    });

    it('archives several rows: they leave the tree and show under Show Archived Sessions, to unarchive or open', async () => {
      const a = await api();
      const [one, two] = [ids[2]!, ids[3]!];
      const nodes = [(await nodeOf(a, one))!, (await nodeOf(a, two))!];
      await vscode.commands.executeCommand('acp.archiveSession', nodes[0], nodes);
      await waitFor('both gone', async () => !(await nodeOf(a, one)) && !(await nodeOf(a, two)));
      assert.equal(received('session/archive').length, mode === 'agent' ? 2 : 0);
      void vscode.commands.executeCommand('acp.showArchivedSessions');
      const pick = await waitFor('the archived list', () => a.currentArchivedPick());
      await pick.settled;
      const listed = () => pick.quickPick.items.flatMap((i) => (i.row ? [i.row.sessionId] : []));
      assert.deepEqual(listed().sort(), [one, two].sort());
      await pick.trigger(one);
      await waitFor('back in the tree', async () => !!(await nodeOf(a, one)));
      assert.deepEqual(listed(), [two]);
      // The one left is the active item: Enter opens it.
      const chat = await waitFor('opened', async () => {
        if (a.currentArchivedPick())
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return a.chats.get(nodes[1]!.host.config.id, two);
      });
      await waitFor('unarchived and shown', async () => !!(await nodeOf(a, two)));
      await waitFor('attached', () => chat.session.capabilities().canPrompt);
      assert.equal(received('session/unarchive').length, mode === 'agent' ? 2 : 0);
    });

    it('archives the focused chat from the palette and closes it', async () => {
      const a = await api();
      const id = ids[4]!;
      const node = (await nodeOf(a, id))!;
      await vscode.commands.executeCommand('acp.resumeSessionRow', node);
      const chat = await waitFor('the chat', () => a.chats.get(node.host.config.id, id));
      await waitFor('active', () => chat.panel.active);
      await vscode.commands.executeCommand('acp.archiveSession');
      await waitFor('closed', () => !a.chats.get(node.host.config.id, id));
      await waitFor('gone from the tree', async () => !(await nodeOf(a, id)));
    });

    for (const how of ['stop', 'wait'] as const) {
      it(`archives a chat whose turn is running once the user chose to ${how === 'stop' ? 'stop it' : 'let it end'}`, async () => {
        const a = await api();
        const id = ids[how === 'stop' ? 5 : 6]!;
        const node = (await nodeOf(a, id))!;
        await vscode.commands.executeCommand('acp.resumeSessionRow', node);
        const chat = await waitFor('the chat', () => a.chats.get(node.host.config.id, id));
        await waitFor('attached', () => chat.session.capabilities().canPrompt);
        const turn = chat.session.prompt('slow');
        await waitFor('running', () => chat.session.isPrompting);
        let asked = 0;
        a.setManagePrompts({
          askRunning: async () => {
            asked++;
            return how;
          },
        });
        await vscode.commands.executeCommand('acp.archiveSession', node);
        await turn;
        assert.equal(asked, 1);
        const entries = chat.session.thread.entries;
        const reply = entries.filter((e) => e.type === 'agent').map((e) => (e.type === 'agent' ? e.text : ''));
        if (how === 'wait') assert.match(reply.join(''), /chunk 40 of 40/, 'the turn ran to its end');
        else assert.doesNotMatch(reply.join(''), /chunk 40 of 40/, 'the turn was stopped');
        await waitFor('closed', () => !a.chats.get(node.host.config.id, id));
        await waitFor('gone from the tree', async () => !(await nodeOf(a, id)));
      });
    }

    it('keeps a chat whose running turn the user would not interrupt (dismissed)', async () => {
      const a = await api();
      const id = ids[7]!;
      const node = (await nodeOf(a, id))!;
      await vscode.commands.executeCommand('acp.resumeSessionRow', node);
      const chat = await waitFor('the chat', () => a.chats.get(node.host.config.id, id));
      await waitFor('attached', () => chat.session.capabilities().canPrompt);
      const turn = chat.session.prompt('slow');
      await waitFor('running', () => chat.session.isPrompting);
      a.setManagePrompts({ askRunning: async () => undefined });
      await vscode.commands.executeCommand('acp.archiveSession', node);
      assert.ok(a.chats.get(node.host.config.id, id), 'still open');
      assert.ok(await nodeOf(a, id), 'still listed');
      await turn;
    });

    it(
      mode === 'agent' ? 'forks a row into a new chat with its history, listed at once' : 'offers no Fork',
      async () => {
        const a = await api();
        const id = ids[7]!;
        const node = (await nodeOf(a, id))!;
        const context = a.tree.getTreeItem(node).contextValue ?? '';
        if (mode === 'client') {
          assert.doesNotMatch(context, /\.fork\b/);
          assert.equal(a.contextKey('acp.canFork'), false);
          return;
        }
        assert.match(context, /\.fork\b/);
        assert.equal(a.contextKey('acp.canFork'), true);
        await vscode.commands.executeCommand('acp.forkSession', node);
        const fork = await waitFor('the fork listed on top', async () => {
          const first = (await rows(a))[0];
          return first && first.row.sessionId !== id && !ids.includes(first.row.sessionId) ? first : undefined;
        });
        const chat = await waitFor('its chat', () => a.chats.get(node.host.config.id, fork.row.sessionId));
        await waitFor(
          'the history',
          () => chat.session.history === 'loaded' && chat.session.thread.status.state === 'idle',
        );
        assert.ok(chat.session.thread.entries.filter((e) => e.type === 'user').length >= 1, 'the source’s turns');
        assert.deepEqual(received('session/fork'), [{ sessionId: id, cwd: node.row.cwd, mcpServers: [] }]);
      },
    );

    it('shows what open chats do: needs input (badge and status bar), running, unseen', async () => {
      const a = await api();
      const id = ids[0]!;
      const node = (await nodeOf(a, id))!;
      const agentId = node.host.config.id;
      await vscode.commands.executeCommand('acp.resumeSessionRow', node);
      const chat = await waitFor('the chat', () => a.chats.get(agentId, id));
      await waitFor('attached', () => chat.session.capabilities().canPrompt);
      const turn = chat.session.prompt('permission please');
      await waitFor('needs input', () => a.decor.activity(agentId, id) === 'needsInput');
      assert.equal(a.view.badge?.value, 1);
      assert.match(a.statusBar.text, /1 session needs your input/);
      const icon = a.tree.getTreeItem((await nodeOf(a, id))!).iconPath as vscode.ThemeIcon;
      assert.equal(icon.id, 'bell-dot');
      assert.match(unescape(await tooltip(a, (await nodeOf(a, id))!)), /Needs your input/);
      const card = chat.session.thread.entries.findIndex((e) => e.type === 'permission');
      const entry = chat.session.thread.entries[card]!;
      chat.session.answerPermission(entry.type === 'permission' ? entry.requestId : '', null);
      await turn;
      await waitFor('no badge', () => a.view.badge === undefined);
      assert.doesNotMatch(a.statusBar.text, /need/);
      // Another editor in front: the turn ends unseen, and showing the chat clears it.
      const doc = await vscode.workspace.openTextDocument({ content: 'in front' });
      await vscode.window.showTextDocument(doc, { viewColumn: chat.panel.viewColumn });
      await waitFor('hidden', () => !chat.panel.visible);
      await chat.session.prompt('hello');
      await waitFor('unseen', () => a.decor.activity(agentId, id) === 'unseen');
      chat.panel.reveal();
      await waitFor('seen', () => a.decor.activity(agentId, id) === 'idle');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('re-reads the first page while visible: new sessions shown by their time, rows and selection kept, nothing while hidden', async () => {
      const a = await api();
      await vscode.commands.executeCommand('workbench.view.extension.acp');
      await waitFor('the view is visible', () => a.view.visible);
      const clock = handClock();
      a.fresh.useClock(clock);
      const before = (await rows(a)).map((n) => n.row.sessionId);
      const selected = (await rows(a))[2]!;
      // The view renders its rows a moment after it shows: reveal once it has them.
      await waitFor('the row selected', async () => {
        await a.view.reveal(selected, { select: true, focus: false });
        return a.view.selection.length === 1;
      });
      const lists = () => received('session/list').length;
      const context = suiteContext();
      execFileSync(process.execPath, [
        context.agentScript,
        'seed',
        '--store',
        context.storeDir,
        '--cwd',
        context.folders[0]!,
        '--sessions',
        '1',
        '--turns',
        '1',
      ]);
      const listed = lists();
      a.fresh.focused();
      assert.equal(lists(), listed, 'not within 15 s of the last read');
      clock.advance(15_000);
      await waitFor('a re-read of the first page', () => lists() > listed);
      const list = a.lists.get(a.agents.all[0]!, context.folders[0]!);
      const after = await waitFor(
        `the new session on top (list ${list.state}, ${list.items.length} items)`,
        async () => {
          const now = (await rows(a)).map((n) => n.row.sessionId);
          return now.length === before.length + 1 ? now : undefined;
        },
      );
      // Rows are newest first under date headings: the new session (seeded a minute in the past,
      // so below the sessions earlier tests wrote in) goes where its time puts it.
      const added = after.filter((id) => !before.includes(id));
      assert.equal(added.length, 1, 'one new session');
      assert.deepEqual(
        after.filter((id) => before.includes(id)),
        before,
        'every row shown before stays, in order',
      );
      const times = (await rows(a)).map((n) => n.row.updatedAtMs ?? 0);
      assert.deepEqual(
        times,
        [...times].sort((x, y) => y - x),
        'newest first, the new session among them',
      );
      // The workbench reports the tree's selection back a moment after it renders the new rows.
      await waitFor(
        'the selection kept',
        () => {
          assert.deepEqual(
            a.view.selection.map((n) => (n.type === 'session' ? n.row.sessionId : '')),
            [selected.row.sessionId],
            'the selection stays',
          );
          return true;
        },
        5_000,
      );
      await vscode.commands.executeCommand('workbench.view.explorer');
      await waitFor('the view is hidden', () => !a.view.visible);
      // A read starts synchronously when the policy fires: count the calls.
      let reads = 0;
      const revalidate = list.revalidate.bind(list);
      list.revalidate = () => {
        reads++;
        return revalidate();
      };
      try {
        clock.advance(10 * 60_000);
        a.fresh.focused();
        assert.equal(reads, 0, 'nothing read while hidden');
      } finally {
        list.revalidate = revalidate;
      }
    });
  });
}

/** A clock the test moves by hand; timers due by then run in order. */
function handClock() {
  let t = Date.now();
  let timers: { at: number; run: () => void; live: boolean }[] = [];
  return {
    now: () => t,
    after(ms: number, run: () => void) {
      const timer = { at: t + ms, run, live: true };
      timers.push(timer);
      return { dispose: () => void (timer.live = false) };
    },
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        const next = timers.filter((x) => x.live && x.at <= end).sort((x, y) => x.at - y.at)[0];
        if (!next) break;
        next.live = false;
        t = next.at;
        next.run();
      }
      timers = timers.filter((x) => x.live);
      t = end;
    },
  };
}
