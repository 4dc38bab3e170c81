// The session library in a real extension host against the reference agent: what a chat shows
// is kept, Resume Session finds it by what was said, a kept session whose time has not moved
// reopens from the library with `session/resume`, one that moved on elsewhere loads again.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import type { SessionNode, TreeNode } from '../../../../src/ui/sessionsView/treeNodes';
import { suiteContext } from '../../../host/suiteContext';
import { api } from '../../support';
import { recorded } from '../../../support/chat';
import { waitFor } from '../../../support/wait';

const record = join(mkdtempSync(join(tmpdir(), 'acp-library-suite-')), 'record.jsonl');

/** The methods the first agent received for a session, in order (its `--record` file). */
function methodsFor(sessionId: string): string[] {
  return recorded(record)
    .filter((m) => m.params?.sessionId === sessionId)
    .map((m) => m.method);
}

async function closeAll(a: AcpTestApi): Promise<void> {
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}

/** Waits until the library keeps the session whole, with the agent's time as it lists it now. */
async function keptCurrent(a: AcpTestApi, agentId: string, sessionId: string, cwd: string) {
  const host = a.agents.get(agentId)!;
  return waitFor(
    'the session kept, whole and current',
    async () => {
      const kept = await a.library.get()!.session({ agentId, sessionId });
      const page = await (await host.connect()).listSessions({ cwd });
      const listed = page.sessions.find((s) => s.sessionId === sessionId);
      return kept?.complete && listed && kept.updatedAt === listed.updatedAt && kept;
    },
    20_000,
  );
}

/** Closes a chat of the first agent and waits until the agent heard `session/close`. */
async function close(chat: ChatPanel): Promise<void> {
  const sessionId = chat.session.sessionId!;
  const closes = methodsFor(sessionId).filter((m) => m === 'session/close').length;
  chat.panel.dispose();
  await waitFor('session/close', () => methodsFor(sessionId).filter((m) => m === 'session/close').length > closes);
}

async function prompt(chat: ChatPanel, text: string): Promise<void> {
  await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
  await chat.session.prompt(text);
}

describe('Session library', function () {
  this.timeout(120_000);
  const cwd = () => suiteContext().folders[0]!;
  let agentId: string;

  before(async () => {
    const a = await api();
    agentId = a.agents.all[0]!.config.id;
    // The first agent records what it receives, to tell a resume from a load.
    const config = vscode.workspace.getConfiguration('acp');
    const agents = config.get<{ id: string; args: string[] }[]>('agents')!;
    await config.update(
      'agents',
      agents.map((x) => (x.id === agentId ? { ...x, args: [...x.args, '--record', record] } : x)),
      vscode.ConfigurationTarget.Global,
    );
    await waitFor('the new settings', () => a.agents.get(agentId)!.config.args.includes(record));
  });
  afterEach(async () => {
    const a = await api();
    a.currentPick()?.quickPick.hide();
    await closeAll(a);
  });

  it('finds a session by a word said in the middle of it, with the snippet, and says how many are searchable', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId, cwd: cwd() }, 'new'))!;
    await prompt(chat, 'first we set up the project');
    await prompt(chat, 'the quokka migration failed at step seven');
    await prompt(chat, 'then we moved on to other things');
    const sessionId = chat.session.sessionId!;
    await keptCurrent(a, agentId, sessionId, cwd());

    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    await waitFor('the count of searchable sessions', () =>
      /· 1 of \d+ searchable by content$/.test(pick.quickPick.title ?? ''),
    );
    pick.type('quokka migration');
    const hit = await waitFor('the content hit', () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === sessionId && i.detail?.includes('quokka migration')),
    );
    assert.ok(hit.alwaysShow, 'shown though its title does not match');
    assert.match(hit.detail!, /quokka migration failed at step seven/);
    pick.type('quokka nothingelse');
    const partial = await waitFor('the partial hit', () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === sessionId && i.description?.includes('1 of 2 words')),
    );
    assert.ok(partial);
    // code-server runs the extension host on Node 24: the library runs on its own SQLite.
    assert.equal(a.library.get()!.engine, 'native', 'the host’s own SQLite, no WebAssembly');
  });

  it('searches everything kept (a folder not open here too), and leaves archived sessions out unless asked', async () => {
    const a = await api();
    // A folder this window does not have open, with a session of the second agent in it.
    const elsewhere = mkdtempSync(join(tmpdir(), 'acp-webshop-'));
    const chat = (await a.chats.open({ agentId: 'elsewhere', cwd: elsewhere }, 'new'))!;
    await prompt(chat, 'the narwhal checkout rounds the cart total');
    const sessionId = chat.session.sessionId!;
    await keptCurrent(a, 'elsewhere', sessionId, elsewhere);
    await closeAll(a);

    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    assert.match(
      pick.quickPick.placeholder ?? '',
      /agent: {2}in: {2}file: {2}after:YYYY-MM-DD/,
      'the filters as hints',
    );
    const found = () => pick.quickPick.items.find((i) => i.row?.sessionId === sessionId);
    pick.setScope('everything');
    pick.type('narwhal checkout');
    const hit = await waitFor('the hit from another folder', found);
    assert.match(pick.quickPick.title ?? '', /everything kept/);
    assert.match(hit.description ?? '', new RegExp(`Elsewhere · ${basename(elsewhere)}`), 'names its agent and folder');
    assert.match(hit.detail ?? '', /narwhal checkout rounds the cart total/);
    pick.setScope('window');
    await waitFor("gone from this window's folder only, as before", () => !found());
    pick.setScope('everything');
    await waitFor('back', found);
    pick.type('agent:ref narwhal');
    await waitFor('filtered out by agent:', () => !found());
    pick.type('agent:elsewhere narwhal');
    await waitFor('kept by agent:', found);

    a.decor.marks.archiveSessions('elsewhere', [{ sessionId, cwd: elsewhere }]);
    pick.type('narwhal');
    await waitFor('the archived session left out', () => !found());
    pick.type('narwhal is:archived');
    const archived = await waitFor('found when asked, and marked', () =>
      found()?.description?.includes('archived') ? found() : undefined,
    );
    assert.match(archived.description!, /· archived/);
    a.decor.marks.unarchiveSessions('elsewhere', [sessionId]);
  });

  it('reopens a kept, unchanged session from the library with session/resume, no replay', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId, cwd: cwd() }, 'new'))!;
    await prompt(chat, 'remember the pelican configuration');
    const sessionId = chat.session.sessionId!;
    const shown = chat.session.thread.entries.length;
    await keptCurrent(a, agentId, sessionId, cwd());
    await close(chat);

    const again = (await a.chats.open({ agentId, sessionId, cwd: cwd() }, 'auto'))!;
    await waitFor('the kept transcript', () => again.session.thread.entries.length === shown);
    await waitFor('resumed', () => again.session.capabilities().canPrompt);
    assert.equal(again.session.history, 'loaded', 'the chat holds the whole history');
    const methods = methodsFor(sessionId);
    assert.equal(methods.filter((m) => m === 'session/load').length, 0, methods.join(', '));
    assert.equal(methods.at(-1), 'session/resume', methods.join(', '));
    // A turn after the reopen is kept too (appended to the kept copy).
    await prompt(again, 'and the pelican is happy');
    await waitFor('the new turn kept', async () =>
      (await a.library.get()!.search('pelican happy', { cwd: cwd() })).some(
        (h) => h.sessionId === sessionId && h.matched === 2,
      ),
    );
  });

  it('loads again a kept session that moved on elsewhere, and keeps the new history', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId, cwd: cwd() }, 'new'))!;
    await prompt(chat, 'a session about walruses');
    const sessionId = chat.session.sessionId!;
    await keptCurrent(a, agentId, sessionId, cwd());
    await close(chat);

    // The same session carried on by another client (here: the second agent on the same store).
    const other = (await a.chats.open({ agentId: 'elsewhere', sessionId, cwd: cwd() }, 'resume'))!;
    await prompt(other, 'continued elsewhere with narwhals');
    other.panel.dispose();
    await waitFor('closed elsewhere', () => !a.chats.isOpen('elsewhere', sessionId));

    const again = (await a.chats.open({ agentId, sessionId, cwd: cwd() }, 'auto'))!;
    await waitFor('loaded', () => again.session.history === 'loaded' && again.session.capabilities().canPrompt);
    assert.ok(
      again.session.thread.entries.some((e) => e.type === 'user' && e.text.includes('narwhals')),
      'the history from the agent, with what happened elsewhere',
    );
    assert.equal(methodsFor(sessionId).at(-1), 'session/load');
    // The load's history goes out in its own write, a moment after the time is noted.
    await waitFor('the kept copy replaced', async () =>
      (await a.library.get()!.transcript({ agentId, sessionId }))?.some(
        (e) => e.type === 'user' && e.text.includes('narwhals'),
      ),
    );
    await keptCurrent(a, agentId, sessionId, cwd());
  });

  it('never reopens from the library when acp.openMode is "load"', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId, cwd: cwd() }, 'new'))!;
    await prompt(chat, 'about otters');
    const sessionId = chat.session.sessionId!;
    await keptCurrent(a, agentId, sessionId, cwd());
    await close(chat);
    const again = (await a.chats.open({ agentId, sessionId, cwd: cwd() }, 'load'))!;
    await waitFor('loaded', () => again.session.capabilities().canPrompt);
    assert.equal(methodsFor(sessionId).at(-1), 'session/load');
  });

  it('"Reload History from Agent" replays a chat opened from the library', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId, cwd: cwd() }, 'new'))!;
    await prompt(chat, 'about beavers');
    const sessionId = chat.session.sessionId!;
    await keptCurrent(a, agentId, sessionId, cwd());
    await close(chat);
    const again = (await a.chats.open({ agentId, sessionId, cwd: cwd() }, 'auto'))!;
    await waitFor('resumed', () => again.session.capabilities().canPrompt);
    assert.equal(methodsFor(sessionId).at(-1), 'session/resume');
    again.panel.reveal();
    await waitFor('the chat in front', () => a.chats.active === again);
    await vscode.commands.executeCommand('acp.reloadHistory');
    await waitFor(
      'loaded',
      () => methodsFor(sessionId).at(-1) === 'session/load' && again.session.capabilities().canPrompt,
    );
    assert.ok(again.session.thread.entries.some((e) => e.type === 'user' && e.text.includes('beavers')));
  });

  it('exports the chat in front as Markdown into an untitled editor', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId, cwd: cwd() }, 'new'))!;
    await prompt(chat, 'export me with `code`');
    chat.panel.reveal();
    await waitFor('the chat in front', () => a.chats.active === chat);
    await vscode.commands.executeCommand('acp.exportMarkdown');
    const editor = await waitFor('the Markdown editor', () =>
      vscode.window.activeTextEditor?.document.languageId === 'markdown' ? vscode.window.activeTextEditor : undefined,
    );
    assert.ok(editor.document.isUntitled);
    assert.match(editor.document.getText(), /export me with `code`/);
    assert.match(editor.document.getText(), new RegExp(chat.session.sessionId!));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('lists the sessions that touched a file and opens the chosen one', async () => {
    const a = await api();
    // A seeded session whose tool calls touch src/module*.ts: load it so the library keeps it.
    const host = a.agents.get(agentId)!;
    const page = await (await host.connect()).listSessions({ cwd: cwd() });
    const seeded = page.sessions.find((s) => (s.title ?? '').length > 0 && !methodsFor(s.sessionId).length)!;
    const chat = (await a.chats.open({ agentId, sessionId: seeded.sessionId, cwd: cwd() }, 'load'))!;
    await waitFor('loaded', () => chat.session.capabilities().canPrompt);
    const touched = chat.session.thread.entries.find((e) => e.type === 'tool' && e.locations.length > 0);
    assert.ok(touched && touched.type === 'tool', 'a seeded tool call with a location');
    const path = touched.locations[0]!.path;
    await waitFor('kept', async () =>
      (await a.library.get()!.touched([path])).some((h) => h.sessionId === seeded.sessionId),
    );
    await close(chat);

    void vscode.commands.executeCommand('acp.library.sessionsThatTouched', vscode.Uri.file(path));
    await waitFor('the sessions that touched it', async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return a.chats.isOpen(agentId, seeded.sessionId);
    });
  });

  it("shows a session's tokens, cost and active time in its row's tooltip, and the folder's totals", async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId, cwd: cwd() }, 'new'))!;
    await prompt(chat, 'usage 1200/200000 0.25 USD');
    await prompt(chat, 'usage 3000/200000 0.75 USD');
    const sessionId = chat.session.sessionId!;
    const kept = await waitFor('the use kept', async () => {
      const s = (await a.library.get()!.session({ agentId, sessionId }))?.stats;
      return s?.cost?.amount === 0.75 && (s.activeMs ?? 0) > 0 ? s : undefined;
    });
    assert.equal(kept.used, 3000);
    assert.equal(Object.values(kept.days ?? {})[0]!.cost, 0.75, 'a new session: its whole cost was spent today');

    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const find = (nodes: TreeNode[]): SessionNode | undefined => {
      for (const n of nodes) {
        if (n.type === 'session' && n.row.sessionId === sessionId) return n;
        if (n.type !== 'session' && n.type !== 'state') {
          const inner = find(a.tree.getChildren(n));
          if (inner) return inner;
        }
      }
      return undefined;
    };
    const node = await waitFor('the session in the Sessions view', () => find(a.tree.getChildren()));
    const item = await a.tree.resolveTreeItem(a.tree.getTreeItem(node), node);
    const tip = (item.tooltip as vscode.MarkdownString).value.replace(/\\/g, '');
    assert.match(tip, /3,000 of 200,000 tokens in context · cost USD 0\.75 · active \d+ s/);
    assert.match(tip, /Today: \d+ (s|min) active, USD 0\.75 in \d+ sessions? · This week: /);
    assert.ok((chat.session.capabilities().activeMs ?? 0) > 0, "the chat's header says how long its turns ran");
    await closeAll(a);
    // Opened again, the header counts what was kept of the earlier turns.
    const again = (await a.chats.open({ agentId, sessionId, cwd: cwd() }, 'load'))!;
    await waitFor('the kept active time in the header', () => again.session.capabilities().activeMs === kept.activeMs);
    await closeAll(a);
  });

  it('forgets everything on "Clear Session Library"', async () => {
    const a = await api();
    a.setConfirm(async () => true);
    assert.ok((await a.library.get()!.sessions()).length > 0);
    await vscode.commands.executeCommand('acp.library.clear');
    assert.equal((await a.library.get()!.sessions()).length, 0);
    assert.equal((await a.library.get()!.search('quokka')).length, 0);
  });
});
