import * as assert from 'node:assert/strict';
import { indexSessions, type IndexJob } from '../../../src/library/indexer';
import type { KeptSession } from '../../../src/library/types';
import { waitFor } from '../../support/wait';

const T = '2024-05-01T10:00:00Z';
const kept = (sessionId: string, patch: Partial<KeptSession> = {}): KeptSession => ({
  agentId: 'a',
  sessionId,
  cwd: '/p',
  complete: true,
  updatedAt: T,
  entries: 3,
  bytes: 100,
  keptAt: 1,
  openedAt: 1,
  ...patch,
});

function job(patch: Partial<IndexJob> = {}) {
  const loaded: string[] = [];
  const progress: Array<{ done: number; total: number; waiting?: boolean }> = [];
  const abort = new AbortController();
  const j: IndexJob = {
    sessions: [
      { sessionId: 'fresh', updatedAt: T },
      { sessionId: 'moved', updatedAt: '2024-06-01T00:00:00Z' },
      { sessionId: 'partial', updatedAt: T },
      { sessionId: 'new', updatedAt: T },
    ],
    kept: async (id) =>
      id === 'fresh'
        ? kept(id)
        : id === 'moved'
          ? kept(id)
          : id === 'partial'
            ? kept(id, { complete: false })
            : undefined,
    load: async (id) => void loaded.push(id),
    busy: () => false,
    progress: (p) => void progress.push(p),
    signal: abort.signal,
    pauseMs: 1,
    ...patch,
  };
  return { j, loaded, progress, abort };
}

describe('library: indexing a folder', () => {
  it('loads what is not kept whole and as listed, skips the rest, and reports progress', async () => {
    const { j, loaded, progress } = job();
    const r = await indexSessions(j);
    assert.deepEqual(loaded, ['moved', 'partial', 'new']);
    assert.deepEqual(r, { indexed: 3, skipped: 1, failed: 0, cancelled: false });
    assert.deepEqual(progress.at(-1), { done: 4, total: 4 });
  });

  it('waits while a chat is busy and goes on once it is not', async () => {
    let busy = true;
    const { j, loaded, progress } = job({ busy: () => busy });
    const run = indexSessions(j);
    await waitFor('the job waiting', () => progress.some((p) => p.waiting), 5000);
    assert.deepEqual(loaded, []);
    assert.ok(progress.some((p) => p.waiting));
    busy = false;
    await run;
    assert.deepEqual(loaded, ['moved', 'partial', 'new']);
  });

  it('stops when cancelled, in a wait or between loads', async () => {
    const { j, loaded, abort } = job({
      load: async (id) => {
        loaded.push(id);
        abort.abort();
      },
    });
    const r = await indexSessions(j);
    assert.deepEqual(loaded, ['moved']);
    assert.equal(r.cancelled, true);
    const waiting = job({ busy: () => true });
    setTimeout(() => waiting.abort.abort(), 20);
    assert.equal((await indexSessions(waiting.j)).cancelled, true);
    assert.deepEqual(waiting.loaded, []);
  });

  it('goes past a load that fails, and stops when loads keep failing', async () => {
    const once = job({
      load: async (id) => {
        if (id === 'moved') throw new Error('boom');
      },
    });
    const r1 = await indexSessions(once.j);
    assert.deepEqual([r1.indexed, r1.failed, r1.stoppedBecause], [2, 1, undefined]);
    const failing = job({
      sessions: Array.from({ length: 6 }, (_, i) => ({ sessionId: `s${i}`, updatedAt: T })),
      kept: async () => undefined,
      load: async () => {
        throw new Error('agent gone');
      },
    });
    const r2 = await indexSessions(failing.j);
    assert.equal(r2.failed, 3);
    assert.equal(r2.stoppedBecause, 'agent gone');
  });
});
