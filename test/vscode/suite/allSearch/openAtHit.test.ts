// A hit far up a long kept session: the panel is sent the hit's message whole with the
// scroll to it, so it never has to ask for it (a round trip before the words can be found).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { VIEW_MARGIN } from '../../../../src/chat/entryWindow';
import { plantWord, seedSessions } from '../../../host/fixture';
import { suiteContext } from '../../../host/suiteContext';
import { api } from '../../support';
import { waitFor } from '../../../support/wait';
import { keptCurrent } from './helpers';

/** About 350 entries: the hit, 180 up, is far from both ends. */
const TURNS = 150;
const UP = 180;

function sessionIds(storeDir: string): string[] {
  const index = JSON.parse(readFileSync(join(storeDir, 'index.json'), 'utf8')) as { sessions: { sessionId: string }[] };
  return index.sessions.map((s) => s.sessionId);
}

describe('Search everything: a hit far up a long session', function () {
  this.timeout(180_000);

  it('sends the hit’s message whole with the scroll to it: the panel never asks for it', async () => {
    const a = await api();
    const { storeDir, folders } = suiteContext();
    const cwd = folders[0]!;
    const agentId = a.agents.all[0]!.config.id;
    const before = new Set(sessionIds(storeDir));
    seedSessions(storeDir, [cwd], 1, TURNS);
    const sessionId = sessionIds(storeDir).find((id) => !before.has(id))!;
    plantWord(storeDir, sessionId, 'quetzalharbor', UP);

    // Opened once with its history, so that the library keeps it.
    const loaded = (await a.chats.open({ agentId, sessionId, cwd }, 'load'))!;
    await waitFor(
      'the replay',
      () => loaded.session.thread.status.state !== 'loading' && loaded.session.thread.entries.length > UP,
    );
    await keptCurrent(a, agentId, sessionId, cwd);
    loaded.panel.dispose();
    await waitFor('the chat closed', () => !a.chats.get(agentId, sessionId));

    const fetched: { from: number; to: number }[] = [];
    let revealed = false;
    a.listenToSteps((step, _at, detail) => {
      if (step === 'reveal posted') revealed = true;
      const range = step === 'entries fetched' ? /^(\d+)-(\d+)$/.exec(detail ?? '') : null;
      if (range) fetched.push({ from: Number(range[1]), to: Number(range[2]) });
    });
    try {
      void vscode.commands.executeCommand('acp.resumeSession');
      const pick = await waitFor('the QuickPick', () => a.currentPick());
      await pick.settled;
      pick.setScope('window');
      pick.type('quetzalharbor retry');
      await waitFor('the hit', () =>
        pick.quickPick.items.find((i) => i.row?.sessionId === sessionId && i.detail?.includes('quetzalharbor')),
      );
      pick.trigger(sessionId, 'resume');
      const chat = await waitFor('its chat', () => a.chats.get(agentId, sessionId));
      // Its page painted the hit's message first, the words marked, from the library's copy.
      const page = await waitFor('its page', () => chat.panel.webview.html);
      assert.match(page, /<div id="first-screen"/);
      assert.match(page, /<mark class="current">quetzalharbor retry<\/mark>/);
      await waitFor('the scroll to the hit', () => revealed);
      const entries = chat.session.thread.entries;
      const hit = entries.findIndex((e) => 'text' in e && e.text.includes('quetzalharbor'));
      assert.ok(entries.length - hit > UP - 10, `the hit is far up (${hit} of ${entries.length})`);
      // The panel fills its stubs in from the end back: once it asked for those above the hit,
      // it has asked for every stub it will.
      const asked = (r: { from: number; to: number }) => r.from <= hit && hit < r.to;
      await waitFor(`the panel’s asks past the hit (entry ${hit}; asked: ${JSON.stringify(fetched)})`, () =>
        fetched.some((r) => r.to <= hit || asked(r)),
      );
      assert.deepEqual(fetched.filter(asked), [], `asked for the hit (entry ${hit})`);
      assert.ok(
        fetched.every((r) => r.to <= hit - VIEW_MARGIN || r.from > hit + VIEW_MARGIN - 1),
        `the hit's neighbours came whole too (asked: ${JSON.stringify(fetched)})`,
      );
    } finally {
      a.listenToSteps(undefined);
      for (const chat of a.chats.all) chat.panel.dispose();
      await waitFor('no chats', () => a.chats.all.length === 0);
    }
  });

  it('tells the panel when the entry it was opened on is not in the thread once it settled', async () => {
    const a = await api();
    const { storeDir, folders } = suiteContext();
    const cwd = folders[0]!;
    const agentId = a.agents.all[0]!.config.id;
    const sessionId = sessionIds(storeDir)[0]!;
    const missed: string[] = [];
    a.listenToSteps((step, _at, detail) => step === 'reveal missed' && missed.push(detail ?? ''));
    try {
      const chat = (await a.chats.open({ agentId, sessionId, cwd }, 'load', undefined, {
        index: 99_999,
        words: ['x'],
      }))!;
      const page = await waitFor('its page', () => chat.panel.webview.html);
      assert.doesNotMatch(page, /first-screen/, 'no such entry kept: nothing to paint');
      await waitFor('the thread settled', () => chat.session.thread.status.state === 'idle');
      await waitFor('the reveal given up', () => missed.length > 0);
      assert.deepEqual(missed, ['99999']);
    } finally {
      a.listenToSteps(undefined);
      for (const chat of a.chats.all) chat.panel.dispose();
      await waitFor('no chats', () => a.chats.all.length === 0);
    }
  });
});
