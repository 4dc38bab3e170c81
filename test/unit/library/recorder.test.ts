import * as assert from 'node:assert/strict';
import { Thread } from '../../../src/chat/thread';
import { Recorder } from '../../../src/library/recorder';
import type { SessionWrite } from '../../../src/library/types';
import type { MessageEntry } from '../../../src/protocol/entries';
import { waitFor, quietFor } from '../../support/wait';
import { agentChunk, usageUpdate, userChunk } from '../../support/builders/updates';

const chunk = (text: string) => agentChunk(text);

function setup(secrets?: string[], busy?: { now: boolean; waitMs: number }) {
  const thread = new Thread();
  const writes: SessionWrite[] = [];
  const recorder = new Recorder(thread, {
    key: { agentId: 'a', sessionId: 's' },
    cwd: '/p',
    write: async (w) => {
      writes.push(structuredClone(w));
    },
    secrets: secrets && (() => secrets),
    delayMs: 5,
    ...(busy ? { busy: () => busy.now, busyWaitMs: busy.waitMs } : {}),
  });
  return { thread, writes, recorder };
}

describe('library: recording a chat', () => {
  it('writes the entries a burst of updates changed once, after the burst', async () => {
    const { thread, writes, recorder } = setup();
    recorder.begin({ fresh: true, complete: false });
    for (let i = 0; i < 50; i++) thread.apply(chunk(`word${i} `));
    thread.apply(userChunk('next'));
    assert.equal(writes.length, 0, 'nothing is written per chunk');
    await recorder.flush();
    assert.equal(writes.length, 1);
    const w = writes[0]!;
    assert.equal(w.reset, true);
    assert.equal(w.opened, true);
    assert.equal(w.cwd, '/p');
    assert.deepEqual(
      w.entries!.map((e) => e.index),
      [0, 1],
    );
    assert.match((w.entries![0]!.entry as MessageEntry).text, /^word0 .*word49 $/);
    recorder.dispose();
  });

  it('sends only what changed since the last write, and never starts over unless asked', async () => {
    const { thread, writes, recorder } = setup();
    recorder.begin({ fresh: false, complete: true });
    thread.addUserPrompt('first');
    await recorder.flush();
    thread.apply(chunk('answer'));
    await recorder.flush();
    assert.deepEqual(
      writes.map((w) => [w.reset ?? false, w.entries?.map((e) => e.index)]),
      [
        [false, [0]],
        [false, [1]],
      ],
    );
    assert.equal(writes[0]!.info!.complete, true);
    assert.equal(writes[1]!.info!.complete, undefined, 'unchanged info is not sent again');
    recorder.dispose();
  });

  it('starts the kept copy over when the thread is cleared for a reload, complete only once the load ends', async () => {
    const { thread, writes, recorder } = setup();
    recorder.begin({ fresh: false, complete: true });
    thread.addUserPrompt('old');
    await recorder.flush();
    thread.reset();
    thread.apply(chunk('replayed'));
    await recorder.flush();
    await recorder.markComplete();
    const [, reload, done] = writes;
    assert.equal(reload!.reset, true);
    assert.equal(reload!.info!.complete, false);
    assert.deepEqual(
      reload!.entries!.map((e) => e.index),
      [0],
    );
    assert.equal(done!.info!.complete, true);
    recorder.dispose();
  });

  it('writes by itself after a short quiet, passes the title and the agent secrets', async () => {
    const { thread, writes, recorder } = setup(['sekret-value']);
    thread.updateMeta({ title: 'A title' });
    thread.addUserPrompt('hello');
    await waitFor('the write', () => writes.length > 0, 5000);
    assert.equal(writes.length, 1);
    assert.equal(writes[0]!.info!.title, 'A title');
    assert.deepEqual(writes[0]!.secrets, ['sekret-value']);
    recorder.dispose();
  });

  it('waits while a chat is busy (a reply streaming is not indexed again and again), then writes it all at once', async () => {
    const busy = { now: true, waitMs: 10_000 };
    const { thread, writes, recorder } = setup(undefined, busy);
    thread.addUserPrompt('question');
    for (let i = 0; i < 10; i++) {
      thread.apply(chunk(`part${i} `));
      await quietFor(10);
    }
    assert.equal(writes.length, 0, 'nothing written while busy');
    busy.now = false;
    await waitFor('the write once idle', () => writes.length > 0, 5000);
    assert.equal(writes.length, 1, 'one write once the chat is idle');
    assert.match((writes[0]!.entries![1]!.entry as MessageEntry).text, /^part0 .*part9 $/);
    recorder.dispose();
  });

  it('writes anyway once changes have waited the longest a busy chat may hold them', async () => {
    const { thread, writes, recorder } = setup(undefined, { now: true, waitMs: 60 });
    const started = Date.now();
    thread.addUserPrompt('a long turn');
    await waitFor('the write after the longest wait', () => writes.length > 0, 5000);
    assert.equal(writes.length, 1);
    assert.ok(Date.now() - started >= 55, `written after ${Date.now() - started} ms, not before the wait`);
    // A flush (a load's end, the window closing) never waits.
    thread.addUserPrompt('more');
    await recorder.flush();
    assert.equal(writes.length, 2);
    recorder.dispose();
  });

  it('stops listening when disposed, after writing what was left', async () => {
    const { thread, writes, recorder } = setup();
    thread.addUserPrompt('last words');
    recorder.dispose();
    await waitFor('what was left written', () => writes.length > 0, 5000);
    thread.addUserPrompt('not recorded');
    await quietFor(30);
    assert.equal(writes.length, 1);
    assert.deepEqual(
      writes[0]!.entries!.map((e) => (e.entry as MessageEntry).text),
      ['last words'],
    );
  });

  it('sends the agent’s usage, the time turns ran, and the cost a new session’s turns added', async () => {
    const { thread, writes, recorder } = setup();
    recorder.begin({ fresh: true, complete: true, newSession: true });
    thread.apply(usageUpdate(100, 1000, { cost: { amount: 0.25, currency: 'USD' } }));
    recorder.addActive(1500);
    await recorder.flush();
    thread.apply(usageUpdate(100, 1000, { cost: { amount: 0.25, currency: 'USD' } }));
    thread.apply(usageUpdate(400, 1000, { cost: { amount: 0.4, currency: 'USD' } }));
    recorder.addActive(500);
    await recorder.flush();
    assert.deepEqual(
      writes.map((w) => w.info?.stats),
      [
        { usage: { used: 100, size: 1000, cost: { amount: 0.25, currency: 'USD' } }, cost: 0.25, activeMs: 1500 },
        { usage: { used: 400, size: 1000, cost: { amount: 0.4, currency: 'USD' } }, cost: 0.4 - 0.25, activeMs: 500 },
      ],
    );
    recorder.dispose();
  });

  it('counts a loaded session’s first cost as spent before, and only what its turns add after', async () => {
    const { thread, writes, recorder } = setup();
    recorder.begin({ fresh: true, complete: false });
    thread.apply(usageUpdate(100, 1000, { cost: { amount: 3, currency: 'USD' } }));
    await recorder.flush();
    thread.apply(usageUpdate(200, 1000, { cost: { amount: 3.5, currency: 'USD' } }));
    thread.apply(usageUpdate(300, 1000, { cost: { amount: 9, currency: 'EUR' } }));
    await recorder.flush();
    assert.equal(writes[0]!.info!.stats!.cost, undefined, 'spent before this chat');
    assert.equal(writes[1]!.info!.stats!.cost, 0.5, 'a report in another currency adds nothing');
    assert.deepEqual(writes[1]!.info!.stats!.usage, { used: 300, size: 1000, cost: { amount: 9, currency: 'EUR' } });
    recorder.dispose();
  });
});
