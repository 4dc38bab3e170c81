// A session of a folder this window does not have: "Open Folder in New Window" carries it to
// the window that opens the folder, whose activation opens it scrolled to the message found.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import { suiteContext } from '../../../host/suiteContext';
import { api } from '../../support';
import { waitFor } from '../../../support/wait';
import { keptCurrent, prompt, spyReveals } from './helpers';

async function closeAll(a: AcpTestApi): Promise<void> {
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}

/** A kept session in `cwd` whose middle prompt says `words`; its chat closed. */
async function session(a: AcpTestApi, agentId: string, cwd: string, words: string) {
  const chat = (await a.chats.open({ agentId, cwd }, 'new'))!;
  spyReveals(chat);
  await prompt(chat, 'we begin the work');
  await prompt(chat, `then ${words} at noon`);
  await prompt(chat, 'and something else entirely');
  const sessionId = chat.session.sessionId!;
  const index = chat.session.thread.entries.findIndex((e) => e.type === 'user' && e.text.includes(words));
  await keptCurrent(a, agentId, sessionId, cwd);
  await closeAll(a);
  return { sessionId, index };
}

describe('Search everything: a session carried to the window of its folder', function () {
  this.timeout(120_000);
  const cwd = () => suiteContext().folders[0]!;
  let agentId: string;

  before(async () => {
    agentId = (await api()).agents.all[0]!.config.id;
  });
  afterEach(async () => {
    const a = await api();
    a.currentPick()?.quickPick.hide();
    await closeAll(a);
  });

  it('keeps the hit for the new window when its folder opens there', async () => {
    const a = await api();
    const elsewhere = mkdtempSync(join(tmpdir(), 'acp-shop-'));
    const { sessionId, index } = await session(a, agentId, elsewhere, 'okapi tariff');
    const info = vscode.window.showInformationMessage;
    const run = vscode.commands.executeCommand;
    const opened: unknown[][] = [];
    vscode.window.showInformationMessage = (() => Promise.resolve('Open Folder in New Window')) as never;
    vscode.commands.executeCommand = ((command: string, ...rest: unknown[]) => {
      if (command !== 'vscode.openFolder') return run(command, ...rest);
      opened.push(rest);
      return Promise.resolve();
    }) as never;
    try {
      void vscode.commands.executeCommand('acp.resumeSession');
      const pick = await waitFor('the QuickPick', () => a.currentPick());
      await pick.settled;
      pick.setScope('everything');
      pick.type('okapi tariff');
      await waitFor('the hit', () => pick.quickPick.items.find((i) => i.row?.sessionId === sessionId));
      pick.trigger(sessionId, 'history');
      const [uri, options] = await waitFor('the folder opened in a new window', () => opened[0]);
      assert.equal((uri as vscode.Uri).fsPath, elsewhere);
      assert.deepEqual(options, { forceNewWindow: true });
    } finally {
      vscode.window.showInformationMessage = info;
      vscode.commands.executeCommand = run;
    }
    assert.equal(a.chats.get(agentId, sessionId), undefined, 'not opened here');
    const kept = await a.pendingOpens.take([elsewhere]);
    assert.deepEqual(
      kept && { sessionId: kept.sessionId, cwd: kept.cwd, index: kept.index, words: kept.words },
      { sessionId, cwd: elsewhere, index, words: ['okapi', 'tariff'] },
      'what the new window opens',
    );
  });

  it('opens, on activation, the session carried to this window’s folder, on the message, once', async () => {
    const a = await api();
    const { sessionId, index } = await session(a, agentId, cwd(), 'quetzal rebate');
    spyReveals.calls().length = 0;
    // Spelled as another window may have it: a trailing separator.
    await a.pendingOpens.keep({ agentId, sessionId, cwd: `${cwd()}/`, index, words: ['quetzal', 'rebate'] });
    const chat = await a.openCarried();
    assert.ok(chat, 'a chat opened');
    assert.equal(a.chats.get(agentId, sessionId), chat);
    await waitFor('the history', () => chat.session.thread.entries.length > index);
    const entry = chat.session.thread.entries[index]!;
    assert.ok(entry.type === 'user' && entry.text.includes('quetzal rebate'));
    assert.deepEqual(await waitFor('scrolled to it', () => spyReveals.calls().at(-1)), {
      index,
      words: ['quetzal', 'rebate'],
    });
    assert.equal(await a.openCarried(), undefined, 'taken once');
  });
});
