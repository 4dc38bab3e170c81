// The size limit evicts what it needs to and no more: a session takes its entries and, about as
// much again, its share of the search index, which is only given back once the index merges.
import * as assert from 'node:assert/strict';
import { LibraryStore } from '../../../src/library/store';
import type { ThreadEntry } from '../../../src/protocol/entries';
import { tempDir } from '../../support/refAgent';

/** Prose of varied words, as a transcript's: every session indexes words of its own and shared ones. */
function said(session: number, entry: number): ThreadEntry {
  const words = Array.from({ length: 80 }, (_, k) => `w${(session * 131 + entry * 17 + k * 7) % 2003}q${k % 13}`);
  return { type: entry % 2 ? 'agent' : 'user', text: words.join(' '), attachments: [], done: true };
}

describe('library: store, the size limit', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: LibraryStore;
  let clock: number;
  beforeEach(() => {
    dir = tempDir('acp-library-evict-');
    clock = 1_000;
    store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, now: () => clock });
  });
  afterEach(() => {
    store.close();
    dir.cleanup();
  });

  for (const share of [0.97, 0.85, 0.7]) {
    it(`evicts no more sessions than a limit of ${share * 100}% of the file needs`, () => {
      const empty = store.stats().bytes;
      for (let s = 0; s < 8; s++) {
        clock++;
        store.write({
          agentId: 'a',
          sessionId: `s${s}`,
          cwd: '/p',
          reset: true,
          opened: true,
          entries: Array.from({ length: 60 }, (_, i) => ({ index: i, entry: said(s, i) })),
        });
      }
      const full = store.stats().bytes;
      const each = (full - empty) / 8;
      const cap = Math.round(full * share);
      store.setMaxBytes(cap);
      const left = store.sessions().map((k) => k.sessionId);
      const needed = Math.ceil((full - cap * 0.9) / each);
      assert.ok(store.stats().bytes <= cap);
      assert.ok(8 - left.length <= needed, `${8 - left.length} evicted where ${needed} free enough`);
      assert.deepEqual(left.sort(), Array.from({ length: 8 }, (_, i) => `s${i}`).slice(8 - left.length));
    });
  }

  /** A session of `n` entries, each about `size` characters, numbered so the kept part can be told. */
  const long = (sessionId: string, n: number, size = 1_000) =>
    store.write({
      agentId: 'a',
      sessionId,
      cwd: '/p',
      reset: true,
      opened: true,
      info: { complete: true },
      entries: Array.from({ length: n }, (_, i) => ({
        index: i,
        entry: { type: 'user', text: `${sessionId}${i}x ${'word '.repeat(size / 5)}`, attachments: [], done: true },
      })),
    });

  it('keeps the others when one session is larger than the limit, and only its newest part, saying so', () => {
    const lines: string[] = [];
    store.close();
    store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, now: () => clock, log: (m) => lines.push(m) });
    for (let s = 0; s < 4; s++) {
      clock++;
      long(`small${s}`, 20);
    }
    store.setMaxBytes(Math.round(store.stats().bytes * 3));
    clock++;
    // Ten times the limit in one session: a history far longer than the library may hold.
    long('huge', Math.round((store.stats().maxBytes * 10) / 1_000));
    const kept = store.sessions().map((k) => k.sessionId);
    assert.deepEqual(kept.filter((id) => id.startsWith('small')).sort(), ['small0', 'small1', 'small2', 'small3']);
    const huge = store.session({ agentId: 'a', sessionId: 'huge' })!;
    assert.equal(huge.complete, false, 'a part is never shown as the whole history');
    const texts = store.transcript({ agentId: 'a', sessionId: 'huge' })!.map((e) => (e.type === 'user' ? e.text : ''));
    const first = Number(/^huge(\d+)x/.exec(texts[0]!)![1]);
    const last = Number(/^huge(\d+)x/.exec(texts.at(-1)!)![1]);
    assert.equal(last, huge.entries - 1, 'its newest entry is kept');
    assert.equal(texts.length, last - first + 1, 'and every entry after its first kept one');
    assert.ok(first > 0, 'its oldest entries are not');
    assert.ok(store.stats().bytes <= store.stats().maxBytes, 'the file is under the limit');
    assert.equal(store.search(`huge${last}x`).length, 1, 'its newest part is searchable');
    assert.equal(store.search('huge0x').length, 0, 'what was dropped is not');
    assert.ok(
      lines.some((l) => /session huge is larger than half .*: only its newest \d+ entries are kept/.test(l)),
      lines.join('\n'),
    );
    // A later write saying the history is whole does not make the part whole.
    store.write({ agentId: 'a', sessionId: 'huge', cwd: '/p', info: { complete: true } });
    assert.equal(store.session({ agentId: 'a', sessionId: 'huge' })!.complete, false);
  });

  it('keeps none of a session whose newest entries alone are over half the limit, and the others stay', () => {
    const lines: string[] = [];
    store.close();
    store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, now: () => clock, log: (m) => lines.push(m) });
    for (let s = 0; s < 3; s++) {
      clock++;
      long(`small${s}`, 20);
    }
    store.setMaxBytes(Math.round(store.stats().bytes * 2));
    clock++;
    // Each entry a tenth of the limit: its newest chunk (its last 8 entries) alone is over half of it.
    long('wide', 40, Math.round(store.stats().maxBytes / 10));
    assert.equal(store.session({ agentId: 'a', sessionId: 'wide' }), undefined);
    assert.deepEqual(
      store
        .sessions()
        .map((k) => k.sessionId)
        .sort(),
      ['small0', 'small1', 'small2'],
    );
    assert.ok(
      lines.some((l) => /session wide is larger .*: it is not kept/.test(l)),
      lines.join('\n'),
    );
  });
});
