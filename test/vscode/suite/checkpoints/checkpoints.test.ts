// Checkpoints in a real extension host against the reference agent writing straight to disk:
// the changes row a turn leaves in the chat, with its figures and the file no tool call named,
// and the multi-file diff editor its click opens on exactly that turn's files.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChangeResource } from '../../../../src/ui/checkpoints/changesEditor';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import type { ChangesEntry } from '../../../../src/protocol/entries';
import { suiteContext } from '../../../host/suiteContext';
import { api } from '../../support';
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
    const go = join(mkdtempSync(join(tmpdir(), 'acp-cp-suite-')), 'go');
    const chat = (await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd: folder() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);

    const turn = chat.session.prompt(
      `disk write ${at('src/a.ts')} disk write ${at('src/new.ts')} disk delete ${at('gone.txt')} wait for ${go}`,
    );
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
});
