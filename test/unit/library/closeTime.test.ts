import * as assert from 'node:assert/strict';
import { CLOSE_READS_MS, timeAfterClose, type CloseTimeDeps } from '../../../src/library/closeTime';
import { openPlan } from '../../../src/library/freshness';

const LOADED = '2024-05-01T10:00:00.000Z';
const CLOSED = '2024-05-01T10:00:02.500Z';

/**
 * An agent whose list answers `times` one read after another (the last one from then on), a
 * library that keeps what it is given, and a clock that only records the waits.
 */
function world(times: Array<string | null | undefined>, alive = () => true) {
  const kept: string[] = [];
  const waits: number[] = [];
  let reads = 0;
  const deps: CloseTimeDeps = {
    listed: async () => times[Math.min(reads++, times.length - 1)],
    keep: async (t) => void kept.push(t),
    alive,
    sleep: async (ms) => void waits.push(ms),
  };
  return { deps, kept, waits, reads: () => reads };
}

describe('library: the session’s time after this client’s own close', () => {
  it('keeps the time the agent moved to a moment after the close (Claude Code rewrites its transcript)', async () => {
    const w = world([LOADED, LOADED, CLOSED]);
    assert.equal(await timeAfterClose(LOADED, w.deps), true);
    assert.deepEqual(w.kept, [CLOSED]);
    assert.equal(w.reads(), 3, 'no read after the time moved');
    // Waited to each read's delay from the close, no longer.
    assert.deepEqual(w.waits, [0, CLOSE_READS_MS[1]!, CLOSE_READS_MS[2]! - CLOSE_READS_MS[1]!]);
    // The kept copy then stands for the history at the next open.
    const plan = openPlan({
      kept: { complete: true, updatedAt: w.kept[0]!, entries: 4 },
      listed: CLOSED,
      setting: { mode: 'auto', explicit: false },
      canResume: true,
    });
    assert.deepEqual(plan, { kind: 'kept' });
  });

  it('keeps nothing when the time stays: every read done, each delay waited once', async () => {
    const w = world([LOADED]);
    assert.equal(await timeAfterClose(LOADED, w.deps), false);
    assert.deepEqual(w.kept, []);
    assert.equal(w.reads(), CLOSE_READS_MS.length);
    assert.equal(
      w.waits.reduce((a, b) => a + b, 0),
      CLOSE_READS_MS.at(-1),
    );
  });

  it('counts the same instant written otherwise as not moved', async () => {
    const w = world(['2024-05-01T10:00:00Z']);
    assert.equal(await timeAfterClose(LOADED, w.deps), false);
    assert.deepEqual(w.kept, []);
  });

  it('stops when the agent is gone or the library turned off, and keeps no absent time', async () => {
    let alive = 2;
    const gone = world([LOADED, LOADED, CLOSED], () => alive-- > 0);
    assert.equal(await timeAfterClose(LOADED, gone.deps), undefined, 'nothing learnt');
    assert.equal(gone.reads(), 2);
    assert.deepEqual(gone.kept, []);

    const unlisted = world([undefined, null]);
    assert.equal(await timeAfterClose(LOADED, unlisted.deps), false);
    assert.deepEqual(unlisted.kept, [], 'a session the list no longer has keeps its time');
  });

  it('lets a failed read or write reach the caller', async () => {
    const w = world([CLOSED]);
    w.deps.keep = async () => {
      throw new Error('disk full');
    };
    await assert.rejects(timeAfterClose(LOADED, w.deps), /disk full/);
  });
});
