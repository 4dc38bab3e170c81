// Checkpoints in a real extension host against the reference agent writing straight to disk:
// the changes row a turn leaves in the chat, with its figures and the file no tool call named,
// and the multi-file diff editor its click opens on exactly that turn's files.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChangeResource } from '../../../../src/ui/checkpoints/changesEditor';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import type { ChangesEntry } from '../../../../src/protocol/entries';
import type { SessionNode, TreeNode } from '../../../../src/ui/sessionsView/treeNodes';
import { suiteContext } from '../../../host/suiteContext';
import { api, catchMessages, goFile, promptAfterCheckpoints } from '../../support';
import { waitFor } from '../../../support/wait';

const changesRows = (chat: ChatPanel) =>
  chat.session.thread.entries.filter((e): e is ChangesEntry => e.type === 'changes');

describe('Checkpoints in the chat', function () {
  this.timeout(120_000);
  const folder = () => suiteContext().folders[0]!;
  const at = (rel: string) => join(folder(), rel);

  afterEach(async () => {
    const a = await api();
    for (const chat of a.chats.all) chat.panel.dispose();
    await waitFor('no chats', () => a.chats.all.length === 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("shows a turn's changes in a row, and its click opens the diff of exactly those files", async () => {
    const a = await api();
    mkdirSync(at('src'), { recursive: true });
    writeFileSync(at('src/a.ts'), 'export const a = 1;\n');
    writeFileSync(at('gone.txt'), 'bye\n');
    writeFileSync(at('notes.txt'), 'keep me\n');
    const start = goFile();
    const go = goFile();
    const chat = (await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);

    const turn = chat.session.prompt(
      `wait for ${start} disk write ${at('src/a.ts')} disk write ${at('src/new.ts')} disk delete ${at('gone.txt')} wait for ${go}`,
    );
    // The agent writes once the turn's checkpoints are taken (see promptAfterCheckpoints).
    await a.checkpoints.turns.settled(chat.session.sessionId!);
    writeFileSync(start, '');
    await waitFor('the agent to wait', () =>
      chat.session.thread.entries.some((e) => e.type === 'tool' && e.title.startsWith('Delete')),
    );
    // The user edits a file while the agent works: no tool call names it.
    writeFileSync(at('notes.txt'), 'the user typed this\n');
    writeFileSync(go, '');
    await turn;
    await a.checkpoints.settled();

    const rows = changesRows(chat);
    assert.equal(rows.length, 1, 'one row for the turn');
    const row = rows[0]!;
    assert.deepEqual([row.files, row.added, row.deleted], [4, 3, 3]);
    assert.deepEqual(row.unnamed, ['notes.txt'], 'the file the user changed is marked');

    const resources = (await vscode.commands.executeCommand<ChangeResource[]>(
      'acp.openTurnChanges',
      row.folder,
      row.turn,
    ))!;
    const byPath = new Map(resources.map((r) => [r[0].fsPath, r]));
    assert.deepEqual(
      [...byPath.keys()].sort(),
      [at('gone.txt'), at('notes.txt'), at('src/a.ts'), at('src/new.ts')].sort(),
      'exactly the turn’s files',
    );
    const [, addedBefore, addedAfter] = byPath.get(at('src/new.ts'))!;
    assert.equal(addedBefore, undefined, 'an added file has no old side');
    assert.equal(addedAfter?.scheme, 'file', 'the new side is the file on disk');
    const [, deletedBefore, deletedAfter] = byPath.get(at('gone.txt'))!;
    assert.equal(deletedAfter, undefined, 'a deleted file has no new side');
    assert.equal((await vscode.workspace.openTextDocument(deletedBefore!)).getText(), 'bye\n');
    const [, before, after] = byPath.get(at('src/a.ts'))!;
    assert.equal(before?.scheme, 'acp-checkpoint');
    assert.equal((await vscode.workspace.openTextDocument(before!)).getText(), 'export const a = 1;\n');
    assert.equal(after?.fsPath, at('src/a.ts'));
    await waitFor('the multi-file diff editor', () =>
      /4 files changed \+3 −3/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
    );
  });

  it('restores the files to before a message, asking first (unsaved editors by name), and undoes it in one command', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    mkdirSync(at('r'), { recursive: true });
    writeFileSync(at('r/a.txt'), 'a0\n');
    writeFileSync(at('r/b.txt'), 'b0\n');
    writeFileSync(at('r/c.txt'), 'c0\n');
    const state = () =>
      ['r/a.txt', 'r/b.txt', 'r/c.txt'].map((f) => (existsSync(at(f)) ? readFileSync(at(f), 'utf8') : null));
    const chat = (await a.chats.open({ agentId, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
    assert.equal(chat.session.capabilities().canRestore, true, 'the messages offer restore');
    await promptAfterCheckpoints(chat, `disk write ${at('r/a.txt')}`);
    const afterFirst = state();
    const second = await promptAfterCheckpoints(
      chat,
      `disk write ${at('r/a.txt')} disk write ${at('r/b.txt')} disk delete ${at('r/c.txt')}`,
    );
    await a.checkpoints.settled();
    const afterSecond = state();
    assert.notDeepEqual(afterSecond, afterFirst);
    assert.equal(afterSecond[2], null, 'the agent deleted c.txt');

    // b.txt is open with unsaved changes: asked about by name, not overwritten silently.
    const doc = await vscode.workspace.openTextDocument(at('r/b.txt'));
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'unsaved ');
    await vscode.workspace.applyEdit(edit);
    assert.equal(doc.isDirty, true);

    const asked: [string, string, string | undefined][] = [];
    let answer = false;
    a.setConfirm(async (m, action, detail) => {
      asked.push([m, action, detail]);
      return answer;
    });
    const index = chat.session.thread.entries.map((e) => e.type).lastIndexOf('user');
    assert.equal((chat.session.thread.entries[index] as { text?: string }).text, second);
    const said = (['showInformationMessage', 'showWarningMessage', 'showErrorMessage'] as const).map(catchMessages);
    try {
      assert.equal(
        await vscode.commands.executeCommand('acp.restoreToMessage', agentId, chat.session.sessionId, index),
        undefined,
        'declined: nothing restored',
      );
    } finally {
      for (const s of said) s.restore();
    }
    assert.equal(asked.length, 1, `asked once; said: ${JSON.stringify(said.map((s) => s.shown))}`);
    assert.match(asked[0]![0], /unsaved changes in an editor/);
    assert.match(asked[0]![2]!, /r\/b\.txt/);
    assert.deepEqual(state(), afterSecond, 'nothing written when the user declined');

    asked.length = 0;
    answer = true;
    const done = await vscode.commands.executeCommand<{ written: number; deleted: number; failed: string[] }>(
      'acp.restoreToMessage',
      agentId,
      chat.session.sessionId,
      index,
    );
    assert.equal(asked.length, 2, 'asked about the unsaved editor, then about the restore');
    assert.match(asked[1]![0], /^Restore 3 files to before this message\?$/);
    assert.match(asked[1]![2]!, /r\/a\.txt\nr\/b\.txt\nr\/c\.txt/);
    assert.match(asked[1]![2]!, /not rewound/);
    assert.deepEqual(done!.failed, []);
    assert.deepEqual(state(), afterFirst, 'the files as they were before the second message');
    assert.match(doc.getText(), /^unsaved /, 'the editor keeps its unsaved text');

    await vscode.commands.executeCommand('acp.undoRestore', agentId, chat.session.sessionId);
    assert.deepEqual(state(), afterSecond, 'Undo Restore put back what the restore replaced, byte for byte');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('never restores while a turn runs', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const go = goFile();
    const chat = (await a.chats.open({ agentId, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
    await chat.session.prompt(`disk write ${at('r/a.txt')}`);
    const asked: string[] = [];
    a.setConfirm(async (m) => {
      asked.push(m);
      return true;
    });
    const running = chat.session.prompt(`wait for ${go}`);
    await waitFor('the turn to run', () => chat.session.capabilities().canCancel);
    const before = readFileSync(at('r/a.txt'), 'utf8');
    assert.equal(
      await vscode.commands.executeCommand('acp.restoreToMessage', agentId, chat.session.sessionId, 0),
      undefined,
    );
    assert.deepEqual(asked, [], 'not even asked');
    assert.equal(readFileSync(at('r/a.txt'), 'utf8'), before);
    writeFileSync(go, '');
    await running;
  });

  it("shows a session's changes in its Sessions row's tooltip, and Review Changes opens its net diff", async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    mkdirSync(at('d'), { recursive: true });
    const chat = (await a.chats.open({ agentId, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
    await promptAfterCheckpoints(chat, `disk write ${at('d/x.txt')}`);
    await promptAfterCheckpoints(chat, `disk write ${at('d/x.txt')}`);
    await a.checkpoints.settled();
    const sessionId = chat.session.sessionId!;

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
    assert.match(tip, /Changed 1 file \+2 −1 in 2 turns \(checkpoints\)/);

    const resources = (await vscode.commands.executeCommand<ChangeResource[]>('acp.reviewSessionChanges', node))!;
    assert.deepEqual(
      resources.map((r) => [r[0].fsPath, r[1]?.scheme, r[2]?.scheme]),
      [[at('d/x.txt'), undefined, 'file']],
      'the file the session added, from nothing to the file on disk',
    );
    await waitFor('the multi-file diff editor', () =>
      /1 file changed \+1 −0/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
    );
  });

  it('Sessions That Touched This File finds a session whose command changed the file, no tool call naming it', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    mkdirSync(at('t'), { recursive: true });
    const file = at('t/built.txt');
    const library = a.library.get()!;
    // An earlier session's command changed the file too: two sessions of one folder's journal.
    const earlier = (await a.chats.open({ agentId, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => earlier.session.capabilities().canPrompt);
    await promptAfterCheckpoints(earlier, `shell write ${file}`);
    await a.checkpoints.settled();
    const earlierId = earlier.session.sessionId!;
    await waitFor(
      'the earlier session kept',
      async () => (await library.session({ agentId, sessionId: earlierId }))?.entries,
    );
    earlier.panel.dispose();
    await waitFor('the earlier chat closed', () => !a.chats.isOpen(agentId, earlierId));
    const chat = (await a.chats.open({ agentId, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
    await chat.session.prompt('plan the build');
    await promptAfterCheckpoints(chat, `shell write ${file}`);
    await a.checkpoints.settled();
    const sessionId = chat.session.sessionId!;
    await waitFor('the session kept', async () => (await library.session({ agentId, sessionId }))?.entries);
    assert.deepEqual(await library.touched([file]), [], 'no tool call named the file: only the checkpoints know');
    const touching = await a.checkpoints.sessionsTouching(file, [folder()]);
    assert.deepEqual(
      touching.map((t) => [t.sessionId, t.path, t.nth]),
      [
        [sessionId, 't/built.txt', 0],
        [earlierId, 't/built.txt', 0],
      ],
    );
    chat.panel.dispose();
    await waitFor('the chat closed', () => !a.chats.isOpen(agentId, sessionId));

    // Resume Session's file: filter finds it the same way, typed alone or beside words.
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const row = await waitFor('the row noting what the session changed and how long it ran', () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === sessionId && / · 1 file \+1 −1 · /.test(i.detail ?? '')),
    );
    assert.match(row.detail!, /1 file \+1 −1 · (\d+ s|\d+ min) active · /);
    pick.type('file:T/Built');
    const hit = await waitFor('the session that changed the file', () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === sessionId && i.alwaysShow),
    );
    assert.match(hit.detail ?? '', /t\/built\.txt/);
    pick.type('file:t/built zqxjvkw');
    await waitFor('no session said those words', () =>
      pick.quickPick.items.every((i) => !(i.row?.sessionId === sessionId && i.alwaysShow)),
    );
    pick.quickPick.hide();

    // Both sessions of the folder's journal find their agent in one read of its kept sessions.
    // Only the command's reads count (the Sessions view reads too, when a chat opens).
    const sessions = library.sessions.bind(library);
    let reads = 0;
    library.sessions = (scope) => {
      if (/sessionsThatTouched/.test(new Error().stack ?? '')) reads++;
      return sessions(scope);
    };
    try {
      void vscode.commands.executeCommand('acp.library.sessionsThatTouched', vscode.Uri.file(file));
      await waitFor('the session that touched it last, opened', async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return a.chats.isOpen(agentId, sessionId);
      });
    } finally {
      Reflect.deleteProperty(library, 'sessions');
    }
    assert.equal(reads, 1, "one read of the folder's kept sessions for both");
  });

  it('ACP: Clear Checkpoints deletes every checkpoint once the user agreed, and nothing before', async () => {
    const a = await api();
    const storage = a.checkpoints.checkpoints.storage;
    const stores = () => readdirSync(storage).filter((n) => /^[0-9a-f]{24}$/.test(n));
    assert.ok(stores().length > 0, 'the earlier tests kept checkpoints');
    a.setConfirm(async () => false);
    assert.equal(await vscode.commands.executeCommand('acp.clearCheckpoints'), false);
    assert.ok(stores().length > 0, 'declined: nothing deleted');
    const asked: string[] = [];
    a.setConfirm(async (m) => {
      asked.push(m);
      return true;
    });
    assert.equal(await vscode.commands.executeCommand('acp.clearCheckpoints'), true);
    assert.deepEqual(asked, ['Delete all checkpoints?']);
    assert.deepEqual(stores(), []);
    const agentId = a.agents.all[0]!.config.id;
    const chat = (await a.chats.open({ agentId, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
    await promptAfterCheckpoints(chat, `disk write ${at('d/x.txt')}`);
    await a.checkpoints.settled();
    assert.equal(changesRows(chat).length, 1, 'checkpoints are taken again after a clear');
  });
  it('takes a folder’s first snapshot as a chat opens with a draft in its box, and not for an empty box', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const storage = a.checkpoints.checkpoints.storage;
    const stores = () => readdirSync(storage).filter((n) => /^[0-9a-f]{24}$/.test(n));
    const newFolder = () => {
      const dir = mkdtempSync(join(tmpdir(), 'acp-cp-draft-'));
      writeFileSync(join(dir, 'a.txt'), 'a\n');
      return dir;
    };
    const before = stores();
    await a.chats.open({ agentId, cwd: newFolder() }, 'new');
    await a.checkpoints.settled();
    assert.deepEqual(stores(), before, 'an empty box: nothing is read before a prompt is begun');

    const briefed = (await a.chats.open({ agentId, cwd: newFolder() }, 'new', 'Goal: carry on with the cart'))!;
    await a.checkpoints.settled();
    assert.equal(stores().length, before.length + 1, 'the folder’s snapshot is taken while the draft is read');
    assert.equal(briefed.draft, 'Goal: carry on with the cart');
    assert.ok(!briefed.session.thread.entries.some((e) => e.type === 'user'), 'nothing was sent');
  });
});
