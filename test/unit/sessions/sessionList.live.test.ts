import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ListPage } from '../../../src/agent/types';
import { MemoryLogger } from '../../../src/agent/log';
import type { SessionCacheStore } from '../../../src/sessions/cache';
import { SessionCache } from '../../../src/sessions/cache';
import type { SessionListChange } from '../../../src/sessions/sessionList';
import { SessionList } from '../../../src/sessions/sessionList';
import type { Answer } from './fakeAgent';
import { deferred, FakeAgent, page, session } from './fakeAgent';

const FOLDER = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sessions-')));

class MemoryStore implements SessionCacheStore {
  readonly data = new Map<string, unknown>();
  writes = 0;
  get(key: string): unknown {
    return this.data.get(key);
  }
  set(key: string, value: unknown): void {
    this.writes++;
    this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

function setup(pages: Record<string, Answer>, cache?: SessionCache) {
  const agent = new FakeAgent(pages);
  const list = new SessionList({ agentId: 'a', folder: FOLDER, list: agent.list, logger: new MemoryLogger(), cache });
  const changes: SessionListChange[] = [];
  list.onDidChange((c) => changes.push(c));
  return { agent, list, changes };
}

const ids = (list: SessionList) => list.items.map((r) => r.sessionId);

describe('SessionList rows and live changes', () => {
  after(() => fs.rmSync(FOLDER, { recursive: true, force: true }));

  it('sanitises hostile titles into one-line labels', async () => {
    const { list } = setup({
      '': page([
        session('0123456789ab', FOLDER, { title: null }),
        session('empty-title-id', FOLDER, { title: ' \u202e\u200b ' }),
        session('long', FOLDER, { title: `line one\nline\ttwo ${'x'.repeat(500)}` }),
        session('evil', FOLDER, { title: 'a\u202edcb\u0007\u009b[31m' }),
      ]),
    });
    await list.loadFirstPage();
    const [nul, empty, long, evil] = list.items;
    assert.deepEqual([nul.label, nul.untitled], ['Untitled session · 01234567', true]);
    assert.deepEqual([empty.label, empty.untitled], ['Untitled session · empty-ti', true]);
    assert.ok(long.label.startsWith('line one line two xxx'));
    assert.equal(Array.from(long.label).length, 200);
    assert.ok(long.label.endsWith('…'));
    assert.equal(evil.label, 'adcb[31m');
  });

  it('shows rows with a missing or unparsable updatedAt without a time', async () => {
    const { list } = setup({
      '': page([
        session('a', FOLDER, { updatedAt: undefined }),
        session('b', FOLDER, { updatedAt: 'yesterday-ish' }),
        session('c', FOLDER, { updatedAt: null }),
        session('d', FOLDER, { updatedAt: '2025-10-29T14:22:15Z' }),
      ]),
    });
    await list.loadFirstPage();
    assert.deepEqual(
      list.items.map((r) => r.updatedAtMs),
      [undefined, undefined, undefined, Date.UTC(2025, 9, 29, 14, 22, 15)],
    );
  });

  it('applies session_info_update in place without fetching, firing for that row only', async () => {
    const { agent, list, changes } = setup({ '': page([session('a', FOLDER), session('b', FOLDER)]) });
    await list.loadFirstPage();
    const before = list.items;
    changes.length = 0;
    list.applyInfoUpdate('b', { title: 'Renamed\nnow', updatedAt: '2026-01-01T00:00:00Z' });
    assert.deepEqual(changes, [{ kind: 'row', sessionId: 'b' }]);
    assert.equal(list.items, before);
    assert.equal(list.items[1].label, 'Renamed now');
    assert.equal(list.items[1].updatedAtMs, Date.UTC(2026, 0, 1));
    assert.equal(list.get('b')?.title, 'Renamed\nnow');
    list.applyInfoUpdate('b', { title: null });
    assert.equal(list.items[1].untitled, true);
    assert.equal(list.items[1].updatedAtMs, Date.UTC(2026, 0, 1), 'omitted fields stay');
    changes.length = 0;
    list.applyInfoUpdate('unknown', { title: 'x' });
    list.applyInfoUpdate('a', {});
    assert.deepEqual(changes, []);
    assert.equal(agent.calls.length, 1);
  });

  it('puts a session created here on top at once, without a duplicate once listed', async () => {
    const { list, changes } = setup({
      '': page([session('a', FOLDER)], 'c1'),
      c1: page([session('new', FOLDER, { title: 'From agent' }), session('b', FOLDER)]),
    });
    await list.loadFirstPage();
    list.addCreated(session('new', FOLDER, { title: null }));
    assert.deepEqual(ids(list), ['new', 'a']);
    assert.deepEqual(changes.at(-1), { kind: 'reset' });
    await list.loadMore();
    assert.deepEqual(ids(list), ['new', 'a', 'b']);
    assert.equal(list.items[0].label, 'From agent');
  });

  it('keeps a created session on top across a refresh until the agent lists it', async () => {
    let listed = false;
    const { list } = setup({
      '': () => page(listed ? [session('a', FOLDER), session('new', FOLDER)] : [session('a', FOLDER)]),
    });
    await list.loadFirstPage();
    list.addCreated(session('new', FOLDER));
    await list.refresh();
    assert.deepEqual(ids(list), ['new', 'a']);
    listed = true;
    await list.refresh();
    assert.deepEqual(ids(list), ['a', 'new']);
  });

  it('ignores a created session of another folder', () => {
    const { list } = setup({});
    list.addCreated(session('x', '/elsewhere'));
    assert.equal(list.items.length, 0);
  });

  it('removes a deleted session', async () => {
    const { list, changes } = setup({ '': page([session('a', FOLDER), session('b', FOLDER), session('c', FOLDER)]) });
    await list.loadFirstPage();
    list.remove('b');
    assert.deepEqual(ids(list), ['a', 'c']);
    assert.deepEqual(changes.at(-1), { kind: 'reset' });
    list.applyInfoUpdate('c', { title: 'C' });
    assert.equal(list.items[1].label, 'C');
  });

  it('shares one request between concurrent loadFirstPage calls, and one per loadMore', async () => {
    const { agent, list } = setup({ '': page([session('a', FOLDER)], 'c1'), c1: page([session('b', FOLDER)]) });
    await Promise.all([list.loadFirstPage(), list.loadFirstPage(), list.ensureLoaded(), list.loadMore()]);
    assert.equal(agent.calls.length, 1);
    await Promise.all([list.loadMore(), list.loadMore()]);
    assert.equal(agent.calls.length, 2);
    await list.ensureLoaded();
    assert.equal(agent.calls.length, 2);
  });

  it('a new first page cancels a loadMore in flight and ignores its late answer', async () => {
    const held = deferred<ListPage>();
    let first = 0;
    const { agent, list } = setup({
      '': () => page([session(++first === 1 ? 'a' : 'fresh', FOLDER)], 'c1'),
      c1: () => held.promise,
    });
    await list.loadFirstPage();
    const more = list.loadMore();
    assert.equal(list.state, 'loadingMore');
    await list.refresh();
    assert.equal(agent.calls[1].signal?.aborted, true);
    held.resolve(page([session('late', FOLDER)]));
    await more;
    assert.deepEqual(ids(list), ['fresh']);
    assert.equal(list.state, 'idle');
  });

  it('reloads from a new agent process: fresh first page on top, rows shown stay, the old cursor is dropped', async () => {
    let process = 1;
    const { agent, list } = setup({
      '': () =>
        process === 1
          ? page([session('a', FOLDER), session('b', FOLDER)], 'old1')
          : page([session('new', FOLDER), session('a', FOLDER)], 'fresh1'),
      old1: page([session('c', FOLDER)], 'old2'),
      fresh1: page([session('b', FOLDER), session('c', FOLDER), session('d', FOLDER)]),
    });
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.nextCursor, 'old2');
    process = 2;
    const reload = list.reload();
    assert.equal(list.nextCursor, undefined, 'no "Load more…" with a dead cursor while reloading');
    assert.deepEqual(ids(list), ['a', 'b', 'c'], 'the rows stay while reloading');
    await reload;
    assert.deepEqual(ids(list), ['new', 'a', 'b', 'c']);
    assert.equal(list.nextCursor, 'fresh1');
    assert.equal(list.notice, undefined);
    assert.equal(list.state, 'idle');
    await list.loadMore();
    assert.deepEqual(ids(list), ['new', 'a', 'b', 'c', 'd']);
    assert.deepEqual(
      agent.calls.map((c) => c.cursor),
      [undefined, 'old1', undefined, 'fresh1'],
    );
  });

  it('reload abandons a first page still in flight on the old process', async () => {
    const held = deferred<ListPage>();
    let calls = 0;
    const { agent, list } = setup({ '': () => (++calls === 1 ? held.promise : page([session('a', FOLDER)])) });
    const first = list.loadFirstPage();
    const reload = list.reload();
    assert.equal(agent.calls[0].signal?.aborted, true);
    await reload;
    held.resolve(page([session('late', FOLDER)]));
    await first;
    assert.deepEqual(ids(list), ['a']);
    assert.equal(list.state, 'idle');
  });

  it('dispose aborts the request in flight and fires nothing after', async () => {
    const held = deferred<ListPage>();
    const { agent, list, changes } = setup({ '': () => held.promise });
    const load = list.loadFirstPage();
    const seen = changes.length;
    list.dispose();
    assert.equal(agent.calls[0].signal?.aborted, true);
    held.resolve(page([session('a', FOLDER)]));
    await load;
    assert.equal(changes.length, seen);
    assert.equal(list.items.length, 0);
  });

  it('shows cached rows at once, then replaces them with the fresh first page', async () => {
    const store = new MemoryStore();
    const cache = new SessionCache(store);
    cache.save('a', FOLDER, [session('old1', FOLDER), session('old2', FOLDER)]);
    const held = deferred<ListPage>();
    const { list, changes } = setup({ '': () => held.promise }, cache);
    const load = list.loadFirstPage();
    assert.deepEqual(ids(list), ['old1', 'old2']);
    assert.equal(list.fromCache, true);
    assert.equal(list.state, 'loading');
    assert.deepEqual(changes[0], { kind: 'reset' });
    held.resolve(page([session('new1', FOLDER)], 'c1'));
    await load;
    assert.deepEqual(ids(list), ['new1']);
    assert.equal(list.fromCache, false);
    cache.flush();
    const stored = JSON.stringify(store.data.get([...store.data.keys()][0]));
    assert.ok(stored.includes('new1') && !stored.includes('c1'), stored);
  });

  it('keeps cached rows when the first fetch fails', async () => {
    const cache = new SessionCache(new MemoryStore());
    cache.save('a', FOLDER, [session('old1', FOLDER)]);
    const { list } = setup({ '': new Error('down') }, cache);
    await list.loadFirstPage();
    assert.equal(list.state, 'error');
    assert.deepEqual(ids(list), ['old1']);
    assert.equal(list.fromCache, true);
  });
});
