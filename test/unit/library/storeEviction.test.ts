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
});
