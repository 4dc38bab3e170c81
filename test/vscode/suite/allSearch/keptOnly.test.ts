// Resume Session's hits that nothing can attach: a session its agent no longer lists, and one
// whose folder is gone. Both open from the library read-only, scrolled to the hit, and the agent
// hears nothing about them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import { suiteContext } from '../../../host/suiteContext';
import { api, catchMessages } from '../../support';
import { recorded } from '../../../support/chat';
import { waitFor } from '../../../support/wait';
import { keptCurrent, prompt, spyReveals } from './helpers';

/** The methods the agent received about a session, in order. */
function methodsFor(sessionId: string): string[] {
  return recorded(suiteContext().recordFile!)
    .filter((m) => m.params?.sessionId === sessionId)
    .map((m) => m.method);
}

async function closeAll(a: AcpTestApi): Promise<void> {
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}

/** A session of three turns in `cwd`, the middle one saying `words`, kept whole; its chat closed. */
async function keptSession(a: AcpTestApi, agentId: string, cwd: string, words: string): Promise<string> {
  const chat = (await a.chats.open({ agentId, cwd }, 'new'))!;
  spyReveals(chat);
  await prompt(chat, 'we begin the work');
  await prompt(chat, `then ${words} at midnight`);
  await prompt(chat, 'and something else entirely');
  const sessionId = chat.session.sessionId!;
  await keptCurrent(a, agentId, sessionId, cwd);
  const closes = () => methodsFor(sessionId).filter((m) => m === 'session/close').length;
  chat.panel.dispose();
  await waitFor('session/close', () => closes() > 0);
  return sessionId;
}

/** Opens the hit for `words` from Resume Session (scope as given); answers the chat that opened. */
async function openHit(
  a: AcpTestApi,
  agentId: string,
  sessionId: string,
  words: string,
  scope: 'window' | 'everything',
  marked?: RegExp,
): Promise<ChatPanel> {
  void vscode.commands.executeCommand('acp.resumeSession');
  const pick = await waitFor('the QuickPick', () => a.currentPick());
  await pick.settled;
  pick.setScope(scope);
  pick.type(words);
  const hit = await waitFor('the hit', () => pick.quickPick.items.find((i) => i.row?.sessionId === sessionId));
  if (marked)
    await waitFor(`the hit marked ${marked} (now: ${hit.description})`, () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === sessionId && marked.test(i.description ?? '')),
    );
  pick.trigger(sessionId, 'history');
  // The panel comes first, painting the hit's message; the kept copy once it is read.
  return waitFor('its chat showing the kept copy', () => {
    const chat = a.chats.get(agentId, sessionId);
    return chat?.session.thread.status.state === 'readOnly' && chat;
  });
}

/** The chat shows the kept copy read-only, scrolled to the entry saying `words`, highlighted. */
async function assertKeptAtHit(chat: ChatPanel, reveals: () => { index: number; words: string[] }[], words: string) {
  const status = chat.session.thread.status;
  assert.equal(status.state, 'readOnly');
  assert.equal(chat.session.capabilities().canPrompt, false, 'nothing can be sent');
  const entries = chat.session.thread.entries;
  assert.ok(entries.length >= 6, `the whole kept transcript (${entries.length} entries)`);
  const shown = await waitFor('scrolled to the hit', () => reveals().at(-1));
  const entry = entries[shown.index]!;
  assert.ok('text' in entry && entry.text.includes(words), `entry ${shown.index} holds the words`);
  assert.deepEqual(shown.words, words.split(' '), 'the words highlighted');
}

describe('Search everything: hits nothing can attach', function () {
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

  it('opens a hit its agent no longer lists read-only from the library: nothing sent, scrolled to the hit', async () => {
    const a = await api();
    const sessionId = await keptSession(a, agentId, cwd(), 'axolotl ledger');
    // Listed by the agent once (a row created here stays pinned on top until then), then forgotten by it.
    await vscode.commands.executeCommand('acp.refreshSessions');
    await (await a.agents.get(agentId)!.connect()).deleteSession(sessionId);
    await vscode.commands.executeCommand('acp.refreshSessions');
    const list = a.lists.get(a.agents.get(agentId)!, cwd());
    await waitFor('the list read to its end without it', async () => {
      await list.ensureLoaded();
      if (list.nextCursor !== undefined) await list.loadMore();
      return list.state === 'idle' && list.nextCursor === undefined && !list.get(sessionId);
    });
    const sent = methodsFor(sessionId).length;

    const chat = await openHit(a, agentId, sessionId, 'axolotl ledger', 'window', /no longer lists it/);
    // Its page painted the hit's message first, while the whole copy was read.
    assert.match(chat.panel.webview.html, /<div id="first-screen"[^]*<mark class="current">axolotl/);
    const state = chat.session.thread.status;
    assert.match(state.state === 'readOnly' ? state.message : '', /no longer lists this session.*read-only/);
    await assertKeptAtHit(chat, spyReveals.calls, 'axolotl ledger');
    assert.match(chat.panel.title, /kept, read-only/);
    chat.panel.dispose();
    await waitFor('closed', () => !a.chats.get(agentId, sessionId));
    assert.deepEqual(methodsFor(sessionId).slice(sent), [], 'no session/load, /resume nor /close');
  });

  it('says a hit’s folder no longer exists, and shows its kept copy read-only without asking the agent', async () => {
    const a = await api();
    const gone = mkdtempSync(join(tmpdir(), 'acp-gone-'));
    const sessionId = await keptSession(a, agentId, gone, 'pangolin invoice');
    rmSync(gone, { recursive: true, force: true });
    const sent = methodsFor(sessionId).length;

    const warnings = catchMessages('showWarningMessage');
    try {
      const chat = await openHit(a, agentId, sessionId, 'pangolin invoice', 'everything');
      const state = chat.session.thread.status;
      assert.match(state.state === 'readOnly' ? state.message : '', /folder, .*acp-gone-.*, no longer exists/);
      await assertKeptAtHit(chat, spyReveals.calls, 'pangolin invoice');
      const said = await waitFor('the message', () => warnings.shown.find((m) => m.includes('no longer exists')));
      assert.match(said, /shown as the library keeps it, read-only, and nothing was sent/);
    } finally {
      warnings.restore();
    }
    assert.deepEqual(methodsFor(sessionId).slice(sent), [], 'nothing sent about it');
  });
});
