import * as assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { ChangeBatcher } from '../../../src/chat/batcher';
import { Thread } from '../../../src/chat/thread';
import type { ThreadChange } from '../../../src/protocol/entries';
import {
  agentChunk,
  planUpdate,
  thoughtChunk,
  toolCall,
  toolCallUpdate,
  usageUpdate,
  userChunk,
} from '../../support/builders/updates';

/** A replay shaped like a long coding session: about 20,000 updates and 10 MB of JSON. */
function replay(count: number): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const words = (n: number, seed: number) => `word${seed} `.repeat(Math.ceil(n / 8)).slice(0, n);
  for (let turn = 0; updates.length < count; turn++) {
    updates.push(userChunk(words(300, turn)));
    for (let i = 0; i < 4; i++) updates.push(thoughtChunk(words(200, i)));
    updates.push(planUpdate([{ content: 'Read', priority: 'high', status: 'in_progress' }]));
    for (let i = 0; i < 24; i++) updates.push(agentChunk(words(520, i), `m${turn}`));
    for (let t = 0; t < 2; t++) {
      const toolCallId = `t${turn}-${t}`;
      updates.push(toolCall(toolCallId, { title: 'Edit src/a.ts', kind: 'edit', status: 'pending' }));
      updates.push(toolCallUpdate(toolCallId, { status: 'in_progress' }));
      updates.push(
        toolCallUpdate(toolCallId, {
          status: 'completed',
          content: [{ type: 'diff', path: '/w/src/a.ts', oldText: words(1000, t), newText: words(1100, t) }],
        }),
      );
    }
    updates.push(usageUpdate(turn, 200000));
  }
  return updates.slice(0, count);
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

describe('Thread speed', () => {
  it('applies 20,000 updates (printed, not asserted)', function () {
    this.timeout(20000);
    // JSON round trip: the objects look like what the SDK hands over, not shared literals.
    const json = JSON.stringify(replay(20000));
    const updates = JSON.parse(json) as unknown[];
    const bare: number[] = [];
    const batched: number[] = [];
    let batches = 0;
    let thread = new Thread();
    for (let run = 0; run < 5; run++) {
      thread = new Thread();
      let t0 = performance.now();
      for (const u of updates) thread.apply(u);
      bare.push(performance.now() - t0);

      const withBatcher = new Thread();
      let tick = 0;
      const batcher = new ChangeBatcher(() => batches++, {
        timers: { setTimeout: () => ++tick, clearTimeout: () => {} },
      });
      withBatcher.onDidChange((c: ThreadChange[]) => batcher.push(c));
      t0 = performance.now();
      for (let i = 0; i < updates.length; i++) {
        withBatcher.apply(updates[i]);
        // Stands in for the 16 ms timer: a replay of this size arrives in a few hundred frames.
        if (i % 100 === 99) batcher.flushNow();
      }
      batcher.flushNow();
      batched.push(performance.now() - t0);
    }
    assert.equal(thread.skipped, 0);
    console.log(
      `      ${updates.length} updates, ${(json.length / 1e6).toFixed(1)} MB, ${thread.entries.length} entries: ` +
        `apply ${median(bare).toFixed(1)} ms (median of 5, first ${bare[0].toFixed(1)} ms), ` +
        `with batcher ${median(batched).toFixed(1)} ms`,
    );
  });
});
