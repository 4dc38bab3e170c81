// A kept copy is shown as a session's whole history only when it is: a write that failed (here
// a real one: the journal SQLite writes first is on /dev/full, a device that is always full), or
// a copy evicted or cleared while its chat went on recording, leaves a part, never shown whole.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_NAME } from '../../../src/library/schema';
import { LibraryStore } from '../../../src/library/store';
import type { SessionWrite } from '../../../src/library/types';
import type { MessageEntry } from '../../../src/protocol/entries';
import { tempDir } from '../../support/refAgent';
import { posixIt } from '../../support/platform';

const user = (text: string): MessageEntry => ({ type: 'user', text, attachments: [], done: true });

describe('library: store, a kept copy shown whole only when it is', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: LibraryStore;
  const journal = () => join(dir.path, `${FILE_NAME}-journal`);
  const write = (sessionId: string, texts: string[], from: number, extra: Partial<SessionWrite> = {}) =>
    store.write({
      agentId: 'a',
      sessionId,
      cwd: '/work/p',
      entries: texts.map((t, i) => ({ index: from + i, entry: user(t) })),
      ...extra,
    });
  const kept = (sessionId: string) => store.session({ agentId: 'a', sessionId })!;
  const texts = (sessionId: string) =>
    store.transcript({ agentId: 'a', sessionId })!.map((e) => (e.type === 'user' ? e.text : e.type));

  beforeEach(() => {
    dir = tempDir('acp-library-whole-');
    store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, busyWaitMs: 200 });
  });
  afterEach(() => {
    store.close();
    dir.cleanup();
  });

  posixIt(
    'devFull',
    'keeps a copy that missed a write from being whole until a write starts it over, losing nothing kept',
    () => {
      write('s1', ['one alpha', 'two beta'], 0, { reset: true, info: { complete: true, updatedAt: 'T1' } });
      write('s2', ['other gamma'], 0, { reset: true, info: { complete: true, updatedAt: 'T0' } });
      // The disk is full from here: SQLite's journal, written before the file, cannot take a byte.
      assert.ok(existsSync(journal()), 'the journal file SQLite keeps between transactions');
      rmSync(journal());
      symlinkSync('/dev/full', journal());
      assert.throws(() => write('s1', ['three delta'], 2), /disk I\/O error|full/i);
      assert.throws(() => write('s1', [], 3, { info: { updatedAt: 'T2' } }));
      // What was kept before is all there, as it was.
      assert.deepEqual(texts('s1'), ['one alpha', 'two beta']);
      assert.equal(kept('s1').complete, true, 'the copy as it was before the failure is whole as of T1');
      assert.equal(kept('s1').updatedAt, 'T1');
      assert.deepEqual(texts('s2'), ['other gamma']);
      assert.equal(store.search('gamma').length, 1);
      assert.equal(
        store.retry(() => store.get('PRAGMA integrity_check')?.integrity_check),
        'ok',
      );

      // The disk has room again: later writes land, but the copy lacks the one that failed.
      rmSync(journal());
      write('s1', ['four epsilon'], 3, { info: { updatedAt: 'T3', complete: true } });
      assert.equal(kept('s1').updatedAt, 'T3');
      assert.equal(kept('s1').complete, false, 'a copy that missed a write is never whole');
      assert.deepEqual(texts('s1'), ['one alpha', 'two beta', 'four epsilon']);
      write('s2', ['more zeta'], 1);
      assert.equal(kept('s2').complete, true, 'a session whose writes all landed stays whole');

      // A load replays the whole history: the copy starts over and is whole again once it ends.
      write('s1', ['one alpha', 'two beta', 'three delta', 'four epsilon'], 0, {
        reset: true,
        info: { complete: false },
      });
      write('s1', [], 4, { info: { complete: true, updatedAt: 'T4' } });
      assert.equal(kept('s1').complete, true);
      assert.deepEqual(texts('s1'), ['one alpha', 'two beta', 'three delta', 'four epsilon']);
    },
  );

  it('keeps a copy made again by a later write (evicted, removed or cleared meanwhile) from being whole', () => {
    write('s1', ['first words'], 0, { reset: true, info: { complete: true } });
    store.remove({ agentId: 'a', sessionId: 's1' });
    // The chat goes on recording: its next write, and the one that says the load ended.
    write('s1', ['later words'], 5, { info: { complete: true, updatedAt: 'T9' } });
    assert.equal(kept('s1').complete, false, 'only what came after the removal is kept');
    write('s1', [], 6, { info: { complete: true } });
    assert.equal(kept('s1').complete, false);

    write('s2', ['words'], 0, { reset: true, info: { complete: true } });
    store.clear();
    write('s2', ['after clear'], 1, { info: { complete: true } });
    assert.equal(kept('s2').complete, false);
  });

  it('keeps a copy from being whole once a write says changes before it never arrived', () => {
    write('s1', ['first words'], 0, { reset: true, info: { complete: true } });
    // The library was off for a while (or a write failed in a worker since gone): the chat says so.
    write('s1', ['third words'], 2, { partial: true, info: { updatedAt: 'T5' } });
    assert.equal(kept('s1').complete, false);
    write('s1', [], 3, { info: { complete: true } });
    assert.equal(kept('s1').complete, false, 'until a write starts the copy over');
    write('s1', ['first words', 'second words', 'third words'], 0, { reset: true, info: { complete: true } });
    assert.equal(kept('s1').complete, true);
  });
});
