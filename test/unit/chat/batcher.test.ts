import * as assert from 'node:assert/strict';
import { ChangeBatcher } from '../../../src/chat/batcher';
import type { BatcherTimers } from '../../../src/chat/batcher';
import { Thread } from '../../../src/chat/thread';
import type { MessageEntry, ThreadChange, ThreadEntry } from '../../../src/protocol/entries';
import { agentChunk, toolCall, toolCallUpdate, userChunk } from '../../support/builders/updates';

/** Timers that run only when the test says so. */
class FakeTimers implements BatcherTimers {
  pending = new Map<number, { callback: () => void; ms: number }>();
  private next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { callback, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  runAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.callback();
  }
}

const agent = (text: string, done = false): ThreadEntry => ({ type: 'agent', text, attachments: [], done });

function setup(maxChars?: number) {
  const timers = new FakeTimers();
  const batches: ThreadChange[][] = [];
  const batcher = new ChangeBatcher((b) => batches.push(b), { timers, maxChars });
  return { timers, batches, batcher };
}

describe('ChangeBatcher', () => {
  it('sends nothing until the timer fires, then one array', () => {
    const { timers, batches, batcher } = setup();
    batcher.push([{ kind: 'entryAdded', index: 0, entry: agent('a') }]);
    batcher.push([{ kind: 'statusChanged', status: { state: 'prompting' } }]);
    assert.equal(batches.length, 0);
    assert.equal(timers.pending.size, 1, 'one timer per batch');
    assert.equal([...timers.pending.values()][0].ms, 16);
    timers.runAll();
    assert.equal(batches.length, 1);
    assert.equal(batches[0].length, 2);
    timers.runAll();
    assert.equal(batches.length, 1, 'an empty queue sends nothing');
  });

  it('joins consecutive appends to one entry', () => {
    const { batches, batcher } = setup();
    batcher.push([
      { kind: 'textAppended', index: 3, text: 'a' },
      { kind: 'textAppended', index: 3, text: 'b' },
      { kind: 'textAppended', index: 4, text: 'x' },
      { kind: 'textAppended', index: 3, text: 'c' },
    ]);
    batcher.flushNow();
    assert.deepEqual(batches[0], [
      { kind: 'textAppended', index: 3, text: 'abc' },
      { kind: 'textAppended', index: 4, text: 'x' },
    ]);
  });

  it('folds appends and later changes into an add of the same batch', () => {
    const { batches, batcher } = setup();
    batcher.push([
      { kind: 'entryAdded', index: 0, entry: agent('He') },
      { kind: 'textAppended', index: 0, text: 'llo' },
      { kind: 'entryAdded', index: 1, entry: agent('x') },
      { kind: 'entryChanged', index: 0, entry: agent('Hello', true) },
    ]);
    batcher.flushNow();
    assert.deepEqual(batches[0], [
      { kind: 'entryAdded', index: 0, entry: agent('Hello', true) },
      { kind: 'entryAdded', index: 1, entry: agent('x') },
    ]);
  });

  it("folds a message's end into its full change of the batch, else sends it after the text appended", () => {
    const { batches, batcher } = setup();
    const added = agent('He');
    batcher.push([
      { kind: 'entryAdded', index: 0, entry: added },
      { kind: 'textAppended', index: 0, text: 'llo' },
      { kind: 'messageEnded', index: 0 },
      { kind: 'textAppended', index: 1, text: 'more' },
      { kind: 'messageEnded', index: 1 },
    ]);
    batcher.flushNow();
    assert.deepEqual(batches[0], [
      { kind: 'entryAdded', index: 0, entry: agent('Hello', true) },
      { kind: 'textAppended', index: 1, text: 'more' },
      { kind: 'messageEnded', index: 1 },
    ]);
    assert.equal((added as MessageEntry).done, false, 'the queued copy is not changed');
    // A full change after the end replaces it, ended or not as it says.
    batcher.push([
      { kind: 'entryAdded', index: 2, entry: agent('a') },
      { kind: 'messageEnded', index: 2 },
      { kind: 'entryChanged', index: 2, entry: agent('b') },
    ]);
    batcher.flushNow();
    assert.deepEqual(batches[1], [{ kind: 'entryAdded', index: 2, entry: agent('b') }]);
  });

  it('keeps only the last full change of an entry and drops the appends it supersedes', () => {
    const { batches, batcher } = setup();
    batcher.push([
      { kind: 'textAppended', index: 0, text: 'b' },
      { kind: 'entryChanged', index: 0, entry: agent('ab') },
      { kind: 'textAppended', index: 0, text: 'c' },
      { kind: 'entryChanged', index: 0, entry: agent('abc', true) },
    ]);
    batcher.flushNow();
    assert.deepEqual(batches[0], [{ kind: 'entryChanged', index: 0, entry: agent('abc', true) }]);
  });

  it('keeps only the last meta and status', () => {
    const { batches, batcher } = setup();
    batcher.push([
      { kind: 'metaChanged', meta: { title: 'a', commands: [], configOptions: [] } },
      { kind: 'statusChanged', status: { state: 'loading', received: 1 } },
      { kind: 'metaChanged', meta: { title: 'b', commands: [], configOptions: [] } },
      { kind: 'statusChanged', status: { state: 'idle' } },
    ]);
    batcher.flushNow();
    assert.deepEqual(batches[0], [
      { kind: 'metaChanged', meta: { title: 'b', commands: [], configOptions: [] } },
      { kind: 'statusChanged', status: { state: 'idle' } },
    ]);
  });

  it('drops entry changes queued before entriesCleared', () => {
    const { batches, batcher } = setup();
    batcher.push([
      { kind: 'entryAdded', index: 0, entry: agent('old') },
      { kind: 'statusChanged', status: { state: 'loading', received: 0 } },
      { kind: 'entriesCleared' },
      { kind: 'entryAdded', index: 0, entry: agent('new') },
      { kind: 'textAppended', index: 0, text: '!' },
    ]);
    batcher.flushNow();
    assert.deepEqual(batches[0], [
      { kind: 'statusChanged', status: { state: 'loading', received: 0 } },
      { kind: 'entriesCleared' },
      { kind: 'entryAdded', index: 0, entry: agent('new!') },
    ]);
  });

  it('flushes at once past the size budget and cancels the timer', () => {
    const { timers, batches, batcher } = setup(100);
    batcher.push([{ kind: 'textAppended', index: 0, text: 'x'.repeat(60) }]);
    assert.equal(batches.length, 0);
    batcher.push([{ kind: 'textAppended', index: 0, text: 'y'.repeat(60) }]);
    assert.equal(batches.length, 1);
    assert.equal(timers.pending.size, 0);
    assert.equal((batches[0][0] as { text: string }).text.length, 120);
  });

  it('discard and dispose drop the queue', () => {
    const { timers, batches, batcher } = setup();
    batcher.push([{ kind: 'textAppended', index: 0, text: 'x' }]);
    batcher.discard();
    assert.equal(timers.pending.size, 0);
    batcher.push([{ kind: 'textAppended', index: 0, text: 'y' }]);
    batcher.dispose();
    batcher.push([{ kind: 'textAppended', index: 0, text: 'z' }]);
    batcher.flushNow();
    timers.runAll();
    assert.equal(batches.length, 0);
  });

  it('reports a failing flush from the timer instead of throwing', () => {
    const timers = new FakeTimers();
    const errors: unknown[] = [];
    const batcher = new ChangeBatcher(
      () => {
        throw new Error('gone');
      },
      { timers, onError: (e) => errors.push(e) },
    );
    batcher.push([{ kind: 'textAppended', index: 0, text: 'x' }]);
    assert.doesNotThrow(() => timers.runAll());
    assert.equal(errors.length, 1);
    assert.equal(batcher.size, 0);
  });

  it('replaying batched changes gives the same entries as the thread', () => {
    const { timers, batches, batcher } = setup(500);
    const thread = new Thread();
    thread.onDidChange((c) => batcher.push(c));
    const view: ThreadEntry[] = [];
    const apply = (changes: ThreadChange[]) => {
      for (const c of changes) {
        if (c.kind === 'entryAdded' || c.kind === 'entryChanged') view[c.index] = structuredClone(c.entry);
        else if (c.kind === 'textAppended') (view[c.index] as MessageEntry).text += c.text;
        else if (c.kind === 'messageEnded') (view[c.index] as MessageEntry).done = true;
        else if (c.kind === 'entriesCleared') view.length = 0;
      }
    };
    for (let turn = 0; turn < 30; turn++) {
      thread.apply(userChunk(`q${turn}`));
      for (let i = 0; i < 20; i++) {
        thread.apply(agentChunk(`w${i} `));
        // Some messages end in a later batch than the one that added them.
        if (turn % 3 === 1 && i === 10) timers.runAll();
      }
      thread.apply(toolCall(`t${turn}`, { title: 'Run' }));
      thread.apply(toolCallUpdate(`t${turn}`, { status: 'completed' }));
      if (turn % 7 === 0) timers.runAll();
      if (turn === 10) thread.reset();
    }
    thread.markTurnEnded();
    batcher.flushNow();
    batches.forEach(apply);
    assert.ok(batches.length > 3);
    assert.ok(batches.flat().some((c) => c.kind === 'messageEnded'));
    assert.deepEqual(view, thread.snapshot().entries);
  });
});
