import * as assert from 'node:assert/strict';
import type { SessionInfo } from '@agentclientprotocol/sdk';
import { MemoryLogger } from '../../../src/agent/log';
import type { SessionCacheStore } from '../../../src/sessions/cache';
import { cacheKey, SessionCache } from '../../../src/sessions/cache';
import { SessionList } from '../../../src/sessions/sessionList';
import { FakeAgent, page, session, sessions } from './fakeAgent';
import { waitFor } from '../../support/wait';

const FOLDER = '/work/project';

class MemoryStore implements SessionCacheStore {
  readonly data = new Map<string, unknown>();
  readonly writes: unknown[] = [];
  readonly times: number[] = [];
  get(key: string): unknown {
    return this.data.get(key);
  }
  set(key: string, value: unknown): void {
    this.writes.push(value);
    this.times.push(Date.now());
    this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

describe('SessionCache', () => {
  it('round-trips rows per agent and folder, without cursors', () => {
    const store = new MemoryStore();
    const cache = new SessionCache(store);
    cache.save('a', FOLDER, [session('s1', FOLDER, { _meta: { n: 1, deep: { x: 1 } } })]);
    assert.deepEqual(new SessionCache(store).read('a', FOLDER), [
      { sessionId: 's1', cwd: FOLDER, title: 'Title s1', updatedAt: '2025-10-29T14:22:15Z', _meta: { n: 1 } },
    ]);
    assert.deepEqual(new SessionCache(store).read('b', FOLDER), []);
    assert.deepEqual(new SessionCache(store).read('a', '/work/other'), []);
    assert.ok(!JSON.stringify([...store.data.values()]).includes('ursor'));
  });

  it('keeps at most 200 rows', () => {
    const store = new MemoryStore();
    new SessionCache(store).save('a', FOLDER, sessions('s', 300, FOLDER));
    assert.equal(new SessionCache(store).read('a', FOLDER).length, 200);
  });

  it('ignores bad data and never throws', () => {
    const key = cacheKey('a', FOLDER);
    const bad: unknown[] = [undefined, null, 'text', 42, { v: 2, rows: [] }, { v: 1, rows: 'x' }, { v: 1 }];
    for (const value of bad) {
      const store = new MemoryStore();
      store.data.set(key, value);
      assert.deepEqual(new SessionCache(store).read('a', FOLDER), [], JSON.stringify(value));
    }
    const throwing: SessionCacheStore = {
      get() {
        throw new Error('storage broke');
      },
      set() {
        throw new Error('storage broke');
      },
    };
    const logger = new MemoryLogger();
    const cache = new SessionCache(throwing, { logger });
    assert.deepEqual(cache.read('a', FOLDER), []);
    cache.save('a', FOLDER, [session('s', FOLDER)]);
    assert.equal(logger.lines.length, 2);
  });

  it('skips rows of the wrong shape and keeps the rest', () => {
    const store = new MemoryStore();
    store.data.set(cacheKey('a', FOLDER), {
      v: 1,
      rows: [
        { sessionId: 1, cwd: FOLDER },
        { sessionId: 'ok', cwd: FOLDER, title: 7, updatedAt: {} },
        { cwd: FOLDER },
        null,
        { sessionId: 'ok', cwd: FOLDER },
        { sessionId: 'x', cwd: '' },
      ],
    });
    assert.deepEqual(new SessionCache(store).read('a', FOLDER), [{ sessionId: 'ok', cwd: FOLDER }]);
  });

  it('keeps what a row shows, bounded, so a hostile listing cannot bloat the storage', () => {
    const store = new MemoryStore();
    const meta = { a: 'x'.repeat(300), deep: { no: 1 }, b: 2, list: [1], c: true, d: 'd', e: 'e', f: 'f' };
    new SessionCache(store).save('a', FOLDER, [
      session('big', FOLDER, {
        title: 't'.repeat(1500),
        updatedAt: `2025-10-29T14:22:15Z${' '.repeat(100)}`,
        additionalDirectories: Array.from({ length: 40 }, (_, i) => `/extra/${i}`),
        _meta: meta,
      }),
      session('one', FOLDER, { additionalDirectories: ['/only'], _meta: { deep: { no: 1 } } }),
    ]);
    const [big, one] = new SessionCache(store).read('a', FOLDER);
    assert.equal(big!.title, 't'.repeat(1000));
    assert.equal(big!.updatedAt!.length, 64);
    assert.deepEqual(
      big!.additionalDirectories,
      Array.from({ length: 32 }, (_, i) => `/extra/${i}`),
    );
    assert.deepEqual(big!._meta, { a: 'x'.repeat(200), b: 2, c: true, d: 'd', e: 'e' }, 'five plain values at most');
    assert.deepEqual(one, {
      sessionId: 'one',
      cwd: FOLDER,
      title: 'Title one',
      updatedAt: '2025-10-29T14:22:15Z',
      additionalDirectories: ['/only'],
    });
  });

  it('reads stored directories only when every one is a string', () => {
    const store = new MemoryStore();
    store.data.set(cacheKey('a', FOLDER), {
      v: 1,
      rows: [
        { sessionId: 'mixed', cwd: FOLDER, additionalDirectories: ['/a', 7] },
        { sessionId: 'fine', cwd: FOLDER, additionalDirectories: ['/a', '/b'] },
      ],
    });
    const [mixed, fine] = new SessionCache(store).read('a', FOLDER);
    assert.equal(mixed!.additionalDirectories, undefined);
    assert.deepEqual(fine!.additionalDirectories, ['/a', '/b']);
  });

  it('writes the rows still waiting when it is disposed (the window closes)', () => {
    const store = new MemoryStore();
    const cache = new SessionCache(store, { minIntervalMs: 60_000 });
    cache.save('a', FOLDER, [session('s1', FOLDER)]);
    cache.save('a', FOLDER, [session('s2', FOLDER)]);
    assert.equal(store.writes.length, 1);
    cache.dispose();
    assert.equal(store.writes.length, 2);
    assert.deepEqual(
      new SessionCache(store).read('a', FOLDER).map((r) => r.sessionId),
      ['s2'],
    );
  });

  it('writes only when the ids, titles or times of the first rows change', () => {
    const store = new MemoryStore();
    const cache = new SessionCache(store, { minIntervalMs: 0 });
    const rows: SessionInfo[] = [session('a', FOLDER), session('b', FOLDER)];
    cache.save('a', FOLDER, rows);
    cache.save(
      'a',
      FOLDER,
      rows.map((r) => ({ ...r, _meta: { other: true } })),
    );
    assert.equal(store.writes.length, 1);
    cache.save('a', FOLDER, [rows[0], { ...rows[1], title: 'new' }]);
    assert.equal(store.writes.length, 2);
    // What was read counts as written.
    const again = new SessionCache(store, { minIntervalMs: 0 });
    again.read('a', FOLDER);
    again.save('a', FOLDER, [rows[0], { ...rows[1], title: 'new' }]);
    assert.equal(store.writes.length, 2);
  });

  it('coalesces writes to at most one per interval, keeping the latest', async () => {
    const store = new MemoryStore();
    const cache = new SessionCache(store, { minIntervalMs: 40 });
    for (let i = 0; i < 20; i++) cache.save('a', FOLDER, [session('a', FOLDER, { title: `t${i}` })]);
    assert.equal(store.writes.length, 1);
    await waitFor('the trailing write', () => store.writes.length >= 2);
    assert.ok(store.times[1]! - store.times[0]! >= 39, `${store.times[1]! - store.times[0]!} ms apart`);
    assert.equal(new SessionCache(store).read('a', FOLDER)[0].title, 't19');
    cache.flush();
    assert.equal(store.writes.length, 2, 'the twenty saves made two writes, nothing is left waiting');
    cache.dispose();
  });

  it('does not write per session_info_update more than once per interval', async () => {
    const store = new MemoryStore();
    const cache = new SessionCache(store, { minIntervalMs: 40 });
    const agent = new FakeAgent({ '': page(sessions('s', 5, FOLDER)) });
    const list = new SessionList({ agentId: 'a', folder: FOLDER, list: agent.list, logger: new MemoryLogger(), cache });
    await list.loadFirstPage();
    assert.equal(store.writes.length, 1);
    for (let i = 0; i < 50; i++) list.applyInfoUpdate('s2', { title: `live ${i}` });
    assert.equal(store.writes.length, 1);
    await waitFor('the trailing write', () => store.writes.length >= 2);
    assert.ok(store.times[1]! - store.times[0]! >= 39, `${store.times[1]! - store.times[0]!} ms apart`);
    assert.equal(new SessionCache(store).read('a', FOLDER)[2].title, 'live 49');
    cache.flush();
    assert.equal(store.writes.length, 2, 'fifty updates made one more write, nothing is left waiting');
    list.dispose();
  });
});
