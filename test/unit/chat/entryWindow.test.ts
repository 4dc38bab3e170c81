import * as assert from 'node:assert/strict';
import { ChangeBatcher, type BatcherTimers } from '../../../src/chat/batcher';
import { EntryWindow, FOLLOW_TAIL, readIndex, readRange, stubOf, VIEW_MARGIN } from '../../../src/chat/entryWindow';
import { Thread } from '../../../src/chat/thread';
import {
  packEntries,
  unpackEntries,
  type PanelChange,
  type PanelEntry,
  type ThreadEntry,
} from '../../../src/protocol/entries';
import { applyTerminalDelta } from '../../../src/protocol/terminalOutput';
import { agentChunk, toolCall, toolCallUpdate, userChunk } from '../../support/builders/updates';

const agent = (text: string, done = true): ThreadEntry => ({ type: 'agent', text, attachments: [], done });
const entries = (n: number): ThreadEntry[] => Array.from({ length: n }, (_, i) => agent(`entry ${i}`));
const wholeAt = (list: readonly PanelEntry[]): number[] => list.flatMap((e, i) => (e.type === 'stub' ? [] : [i]));

describe('EntryWindow', () => {
  it('sends a snapshot whole only at the end while the view follows it', () => {
    const window = new EntryWindow();
    const thread = entries(500);
    window.reset();
    const sent = window.snapshot(thread);
    assert.deepEqual(
      wholeAt(sent),
      Array.from({ length: FOLLOW_TAIL }, (_, i) => 500 - FOLLOW_TAIL + i),
    );
    assert.deepEqual(sent[0], stubOf(thread[0]!));
    assert.deepEqual(sent[0], { type: 'stub', height: { base: 28, chars: 'entry 0'.length } });
    // Whole entries are copies: the thread may change them in place later.
    assert.notEqual(sent[499], thread[499]);
    assert.deepEqual(sent[499], thread[499]);
  });

  it('sends whole the entries around where a reopened panel reader was', () => {
    const window = new EntryWindow();
    window.reset(200);
    const sent = window.snapshot(entries(500));
    assert.deepEqual(
      wholeAt(sent),
      Array.from({ length: 2 * VIEW_MARGIN + 1 }, (_, i) => 200 - VIEW_MARGIN + i),
    );
  });

  it('packs a snapshot’s runs of stubs as numbers, a fraction of its size, and unpacks it as it was', () => {
    const window = new EntryWindow();
    window.reset(10_000);
    const sent = window.snapshot(entries(19_000));
    const packed = packEntries(sent);
    // A run before the reader's entries and one after them.
    assert.deepEqual(
      packed.map((e) => e.type),
      ['stubs', ...Array<string>(2 * VIEW_MARGIN + 1).fill('agent'), 'stubs'],
    );
    assert.deepEqual(unpackEntries(JSON.parse(JSON.stringify(packed)) as typeof packed), sent);
    const size = (v: unknown) => JSON.stringify(v).length;
    assert.ok(size(packed) < size(sent) / 3, `${size(packed)} characters packed, ${size(sent)} not`);
    // Entries sent one by one (an older host, a test) come through unchanged; a broken run adds nothing.
    assert.deepEqual(unpackEntries(sent.slice(0, 3)), sent.slice(0, 3));
    assert.deepEqual(unpackEntries([{ type: 'stubs', shapes: [28] }]), []);
  });

  it('turns changes far from the reader into stubs, and keeps an entry whole once sent whole', () => {
    const window = new EntryWindow();
    const thread = entries(300);
    window.reset(10);
    window.snapshot(thread);
    window.setView(0, 20, false);
    thread[5] = agent('near, changed');
    thread[250] = agent('far, changed');
    let out = window.changes(
      [
        { kind: 'entryChanged', index: 5, entry: thread[5]! },
        { kind: 'entryChanged', index: 250, entry: thread[250]! },
        { kind: 'metaChanged', meta: { commands: [], configOptions: [] } },
      ],
      thread,
    );
    assert.deepEqual(out, [
      { kind: 'entryChanged', index: 5, entry: thread[5] },
      { kind: 'entryChanged', index: 250, entry: stubOf(thread[250]!) },
      { kind: 'metaChanged', meta: { commands: [], configOptions: [] } },
    ]);
    // The reader moves away: entry 5 stays whole, appends to it go as they are.
    window.setView(280, 300, true);
    (thread[5] as { text: string }).text += ' more';
    out = window.changes([{ kind: 'textAppended', index: 5, text: ' more' }], thread);
    assert.deepEqual(out, [{ kind: 'textAppended', index: 5, text: ' more' }]);
    // Text appended to a stub: a new stub with the new height; near the reader, the whole entry.
    (thread[150] as { text: string }).text += ' x'.repeat(100);
    (thread[290] as { text: string }).text += '!';
    out = window.changes(
      [
        { kind: 'textAppended', index: 150, text: ' x'.repeat(100) },
        { kind: 'textAppended', index: 290, text: '!' },
        {
          kind: 'terminalAppended',
          index: 151,
          terminalId: 't',
          delta: { text: 'out', reset: false, truncated: false },
        },
      ],
      thread,
    );
    assert.deepEqual(out, [
      { kind: 'entryChanged', index: 150, entry: stubOf(thread[150]!) },
      { kind: 'entryChanged', index: 290, entry: thread[290] },
    ]);
    assert.equal(
      (out[0] as { entry: { height: { chars: number } } }).entry.height.chars,
      thread[150]!.type === 'agent' ? thread[150].text.length : -1,
    );
    assert.ok(window.holds(290) && window.holds(5) && !window.holds(150));
    // A message that ended: as it is for an entry held, whole when near, nothing for a stub.
    for (const i of [5, 150, 291]) (thread[i] as { done: boolean }).done = true;
    out = window.changes(
      [5, 150, 291].map((index) => ({ kind: 'messageEnded', index })),
      thread,
    );
    assert.deepEqual(out, [
      { kind: 'messageEnded', index: 5 },
      { kind: 'entryChanged', index: 291, entry: thread[291] },
    ]);
    // A cleared thread: nothing is held any more.
    window.changes([{ kind: 'entriesCleared' }], []);
    assert.ok(!window.holds(5) && !window.holds(290));
  });

  it('sends a run of entries added far from the reader as one array of height shapes', () => {
    const window = new EntryWindow();
    const thread = entries(10);
    window.reset(0);
    window.snapshot(thread);
    window.setView(0, 1, false);
    for (let i = 0; i < 200; i++) thread.push(agent(`added ${i}`));
    const out = window.changes(
      thread.slice(10).map((entry, i) => ({ kind: 'entryAdded' as const, index: 10 + i, entry })),
      thread,
    );
    // 10…48 are near the reader (whole), the rest one run of stubs.
    const near = 1 + VIEW_MARGIN - 10;
    assert.equal(out.length, near + 1);
    assert.ok(out.slice(0, near).every((c) => c.kind === 'entryAdded' && c.entry.type === 'agent'));
    const stubs = out[near]!;
    assert.equal(stubs.kind, 'stubsAdded');
    assert.equal(stubs.kind === 'stubsAdded' && stubs.index, 10 + near);
    assert.deepEqual(stubs.kind === 'stubsAdded' && stubs.shapes.slice(0, 2), [28, `added ${near}`.length]);
    assert.equal(stubs.kind === 'stubsAdded' && stubs.shapes.length, 2 * (200 - near));
  });

  it('hands out what the panel asks for once, in order, up to a budget but at least one entry', () => {
    const window = new EntryWindow();
    const thread = entries(100);
    window.reset(80);
    window.snapshot(thread);
    const held = (i: number) => i >= 80 - VIEW_MARGIN;
    const first = window.take(0, 100, thread, 64 * 3);
    assert.deepEqual(
      first.changes.map((c) => (c.kind === 'entryChanged' ? c.index : -1)),
      [0, 1, 2],
    );
    assert.equal(first.end, 3);
    // Those held already are not sent again; the range is clamped to the thread.
    const rest = window.take(first.end, 1000, thread);
    assert.equal(rest.end, 100);
    const sent = [...first.changes, ...rest.changes].map((c) => (c.kind === 'entryChanged' ? c.index : -1));
    assert.deepEqual(
      sent,
      thread.map((_, i) => i).filter((i) => !held(i)),
    );
    assert.deepEqual(window.take(0, 100, thread).changes, []);
    const huge = [agent('x'.repeat(10_000)), agent('y')];
    const one = new EntryWindow().take(0, 2, huge, 10);
    assert.equal(one.changes.length, 1);
    assert.equal(one.end, 1);
  });

  it('leaves the panel with the thread exactly once it has asked for every stub (a replay through the batcher)', () => {
    const timers: BatcherTimers & { run(): void } = {
      due: [] as (() => void)[],
      setTimeout(callback: () => void) {
        (this as unknown as { due: (() => void)[] }).due.push(callback);
        return 1;
      },
      clearTimeout() {
        (this as unknown as { due: (() => void)[] }).due.length = 0;
      },
      run() {
        const due = (this as unknown as { due: (() => void)[] }).due.splice(0);
        due.forEach((f) => f());
      },
    } as BatcherTimers & { run(): void };
    const thread = new Thread();
    const window = new EntryWindow();
    const panel: PanelEntry[] = [];
    const apply = (changes: PanelChange[]): void => {
      for (const c of changes) {
        if (c.kind === 'entryAdded' || c.kind === 'entryChanged') panel[c.index] = structuredClone(c.entry);
        else if (c.kind === 'stubsAdded') {
          for (let k = 0; k * 2 < c.shapes.length; k++)
            panel[c.index + k] = { type: 'stub', height: { base: c.shapes[2 * k]!, chars: c.shapes[2 * k + 1]! } };
        } else if (c.kind === 'textAppended') {
          const e = panel[c.index]!;
          assert.notEqual(e.type, 'stub', `text appended to stub ${c.index}`);
          (e as { text: string }).text += c.text;
        } else if (c.kind === 'messageEnded') {
          const e = panel[c.index]!;
          assert.notEqual(e.type, 'stub', `end of message sent for stub ${c.index}`);
          (e as { done: boolean }).done = true;
        } else if (c.kind === 'terminalAppended') {
          const e = panel[c.index] as { terminalOutput?: Record<string, unknown> };
          e.terminalOutput = {
            ...e.terminalOutput,
            [c.terminalId]: applyTerminalDelta(e.terminalOutput?.[c.terminalId] as never, c.delta),
          };
        } else if (c.kind === 'entriesCleared') panel.length = 0;
      }
    };
    const errors: unknown[] = [];
    const batcher = new ChangeBatcher((batch) => apply(window.changes(batch, thread.entries)), {
      timers,
      onError: (error) => errors.push(error),
    });
    thread.onDidChange((changes) => batcher.push(changes));
    window.reset();
    apply([]);
    for (let turn = 0; turn < 200; turn++) {
      thread.apply(userChunk(`q${turn}`));
      for (let i = 0; i < 10; i++) {
        thread.apply(agentChunk(`w${i} `));
        // A batch ends mid-message now and then: the rest of it goes as appends (or stubs).
        if ((i === 4 || i === 9) && turn % 3 === 0) timers.run();
      }
      thread.apply(toolCall(`t${turn}`, { title: 'Run', status: 'in_progress' }));
      if (turn % 9 === 0) timers.run();
      // The reader scrolls about now and then, and the page asks for what it renders.
      if (turn % 23 === 0) {
        const from = (turn * 37) % Math.max(1, thread.entries.length);
        window.setView(from, from + 10, false);
        batcher.push(window.take(from, from + 10, thread.entries).changes);
      }
      if (turn % 31 === 0) window.setView(0, 0, true);
      thread.apply(toolCallUpdate(`t${turn - 1}`, { status: 'completed' }));
    }
    thread.markTurnEnded();
    batcher.flushNow();
    // The idle fill: ask for every stub.
    for (let end = 0; end < thread.entries.length;) {
      const taken = window.take(end, thread.entries.length, thread.entries, 2048);
      batcher.push(taken.changes);
      batcher.flushNow();
      end = taken.end;
    }
    assert.deepEqual(errors, []);
    assert.equal(panel.length, thread.entries.length);
    assert.deepEqual(panel, thread.snapshot().entries);
  });

  it('takes from what the webview sends only whole entry indices and ranges, ignoring anything else', () => {
    assert.equal(readIndex(0), 0);
    assert.equal(readIndex(1200), 1200);
    for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 53, '3', null, undefined, {}, [4], true])
      assert.equal(readIndex(bad), undefined, String(bad));
    assert.deepEqual(readRange({ from: 3, to: 9, follow: true }), { from: 3, to: 9 });
    assert.deepEqual(readRange({ from: 5, to: 5 }), { from: 5, to: 5 });
    for (const bad of [
      null,
      undefined,
      'from=1&to=2',
      [1, 2],
      { from: 9, to: 3 },
      { from: '0', to: 10 },
      { from: 0 },
      { from: -4, to: 10 },
      { from: 0, to: 1e300 },
      { from: { valueOf: () => 1 }, to: 2 },
    ])
      assert.equal(readRange(bad), undefined, JSON.stringify(bad));
  });

  it('is not led into holding or sending entries the thread does not have', () => {
    const window = new EntryWindow();
    const thread = entries(10);
    window.reset(Number.MAX_SAFE_INTEGER);
    window.setView(2 ** 40, 2 ** 41, false);
    assert.equal(wholeAt(window.snapshot(thread)).length, 0, 'a view past the end holds nothing whole');
    const taken = window.take(8, 2 ** 40, thread);
    assert.deepEqual(
      taken.changes.map((c) => c.kind === 'entryChanged' && c.index),
      [8, 9],
    );
    assert.equal(taken.end, 10);
    assert.equal(window.holds(2 ** 40), false);
  });
});

describe('ChangeBatcher pace', () => {
  it('flushes at the pace set, past the text budget set, and back to its own on undefined', () => {
    const waits: number[] = [];
    const sent: number[] = [];
    const timers: BatcherTimers = {
      setTimeout: (_callback, ms) => waits.push(ms),
      clearTimeout: () => undefined,
    };
    const batcher = new ChangeBatcher((changes) => sent.push(changes.length), { timers });
    batcher.setPace({ intervalMs: 100, maxChars: 1_000_000 });
    batcher.push([{ kind: 'entryAdded', index: 0, entry: agent('x'.repeat(300_000)) }]);
    assert.deepEqual(waits, [100]);
    assert.deepEqual(sent, [], 'a budget of 1 MB holds 300 KB');
    batcher.flushNow();
    batcher.setPace(undefined);
    batcher.push([{ kind: 'entryAdded', index: 1, entry: agent('x'.repeat(300_000)) }]);
    assert.deepEqual(sent, [1, 1], 'back to 256 KiB: sent at once');
    batcher.push([{ kind: 'entryAdded', index: 2, entry: agent('y') }]);
    assert.deepEqual(waits, [100, 16]);
  });
});
