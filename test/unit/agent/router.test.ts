import * as assert from 'node:assert/strict';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import { UpdateRouter } from '../../../src/agent/router';

const update = (sessionId: string, text = 'hello'): SessionNotification => ({
  sessionId,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
});

describe('UpdateRouter: updates for sessions nobody opened yet', () => {
  let now = 0;
  let drops: { count: number; line: string | undefined }[];
  let router: UpdateRouter;

  beforeEach(() => {
    now = 1_000_000;
    drops = [];
    router = new UpdateRouter({ now: () => now, onDrop: (count, line) => drops.push({ count, line }) });
  });
  afterEach(() => router.dispose());

  it('hands an update buffered within 5 s to the session when it registers', () => {
    router.dispatch(update('s1'));
    now += 4_900;
    const got: SessionNotification[] = [];
    router.register('s1', (n) => got.push(n));
    assert.equal(got.length, 1);
    assert.deepEqual(drops, []);
  });

  it('hands buffered updates over in the order they arrived, and only those of the session', () => {
    for (const text of ['a', 'b', 'c']) router.dispatch(update('s1', text));
    router.dispatch(update('s2', 'other'));
    const got: string[] = [];
    router.register('s1', (n) => got.push((n.update as { content: { text: string } }).content.text));
    assert.deepEqual(got, ['a', 'b', 'c']);
    assert.equal(router.buffered, 1, "s2's update still waits for s2");
    router.dispatch(update('s1', 'd'));
    assert.deepEqual(got, ['a', 'b', 'c', 'd']);
  });

  it('drops an update older than 5 s on register, even when nothing else arrived since, and says how many', () => {
    router.dispatch(update('s1', 'a secret the agent said'));
    now += 5_001;
    const got: SessionNotification[] = [];
    router.register('s1', (n) => got.push(n));
    assert.equal(got.length, 0, 'a stale update is not delivered');
    assert.equal(router.dropped, 1);
    assert.equal(router.buffered, 0);
    assert.equal(drops.length, 1);
    assert.equal(drops[0]!.count, 1);
    assert.match(drops[0]!.line!, /dropped 1 update\(s\) for session\(s\) nobody opened within 5 s: s1/);
    assert.ok(!drops[0]!.line!.includes('secret'), 'the line names no payload');
  });

  it('keeps at most 1,000 and drops the rest, with one line for the whole burst', () => {
    for (let i = 0; i < 1_005; i++) router.dispatch(update(`s${i % 7}`));
    assert.equal(router.buffered, 1_000);
    assert.equal(router.dropped, 5);
    assert.equal(
      drops.reduce((n, d) => n + d.count, 0),
      5,
      'every drop is counted',
    );
    const lines = drops.filter((d) => d.line !== undefined);
    assert.equal(lines.length, 1, 'one line, not one per update');
    assert.match(lines[0]!.line!, /1000 such updates are already waiting/);
    // Once they expire the buffer has room again, and the burst is summed up.
    now += 6_000;
    router.dispatch(update('late'));
    assert.equal(router.buffered, 1);
    assert.equal(router.dropped, 1_005);
    assert.ok(
      drops.some((d) => /in all, 5 update\(s\) .* while the buffer was full/.test(d.line ?? '')),
      JSON.stringify(drops),
    );
  });

  it('routes updates of a registered session at once and in order', () => {
    const got: string[] = [];
    router.register('s1', (n) => got.push((n.update as { content: { text: string } }).content.text));
    router.dispatch(update('s1', 'a'));
    router.dispatch(update('s1', 'b'));
    assert.deepEqual(got, ['a', 'b']);
    assert.equal(router.buffered, 0);
  });
});
