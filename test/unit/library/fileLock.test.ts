// The library's lock is broken only when its owner is gone: a process that has ended, a pid
// that now names a later process, a lock from before the system started. A live owner keeps it
// however long it holds it, and an owner on another host, which cannot be checked, keeps it too.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FileLock, type LockOwner, type ProcessProbe } from '../../../src/library/fileLock';
import { tempDir } from '../../support/refAgent';

/** Processes as a test says they are: pid → start (undefined: not running). */
function probe(running: Record<number, string | undefined>): ProcessProbe {
  return {
    alive: (pid) => pid in running,
    start: (pid) => (pid === process.pid ? 'me' : running[pid]),
  };
}

describe('library: the file lock', () => {
  let dir: ReturnType<typeof tempDir>;
  let path: string;
  beforeEach(() => {
    dir = tempDir('acp-lock-');
    path = join(dir.path, 'f.owner');
  });
  afterEach(() => dir.cleanup());

  /** The lock as another process left it. */
  const heldBy = (owner: Partial<LockOwner>) => {
    mkdirSync(path);
    const full = { host: hostname(), pid: 4242, id: '4242-x', at: Date.now() - 3_600_000, ...owner };
    writeFileSync(join(path, 'owner.json'), JSON.stringify(full));
  };

  it('is taken by one holder at a time and let go whole', () => {
    const a = new FileLock(path, probe({}));
    const b = new FileLock(path, probe({}));
    assert.equal(a.tryTake(), true);
    assert.equal(b.tryTake(), false);
    assert.equal(b.holder()?.pid, process.pid);
    assert.equal(b.breakIfGone(), 'held', 'this process is alive');
    a.release();
    assert.equal(existsSync(path), false);
    assert.equal(b.tryTake(), true);
    b.release();
    assert.deepEqual(readdirSync(dir.path), [], 'nothing left behind');
  });

  it('keeps a live owner’s lock however old, and one of another host', () => {
    heldBy({ pid: 4242, start: 's1' });
    assert.equal(new FileLock(path, probe({ 4242: 's1' })).breakIfGone(), 'held');
    assert.equal(new FileLock(path, probe({ 4242: undefined })).breakIfGone(), 'held', 'no start to compare: alive');
    const other = new FileLock(path, probe({}));
    writeFileSync(join(path, 'owner.json'), JSON.stringify({ host: 'elsewhere', pid: 4242, id: 'x', at: 0 }));
    assert.equal(other.breakIfGone(), 'held', 'a process of another host cannot be checked');
    assert.equal(existsSync(path), true);
  });

  it('breaks the lock of an owner that has ended, or whose pid names a later process', () => {
    heldBy({ pid: 4242, start: 's1' });
    const lines: string[] = [];
    assert.equal(new FileLock(path, probe({}), (m) => lines.push(m)).breakIfGone(), 'broken');
    assert.equal(existsSync(path), false);
    assert.match(lines[0]!, /held by process 4242, which is gone/);
    heldBy({ pid: 4242, start: 's1', id: '4242-y' });
    assert.equal(new FileLock(path, probe({ 4242: 's2' })).breakIfGone(), 'broken', 'the same pid, started later');
  });

  it('of two breaking the same dead owner’s lock, one moves it; the other leaves the next holder’s alone', () => {
    heldBy({ pid: 4242 });
    const first = new FileLock(path, probe({}));
    const late = new FileLock(path, probe({}));
    // Both read the dead owner; the first breaks it and a live process takes the lock.
    const seen = late.holder();
    assert.equal(first.breakIfGone(), 'broken');
    const next = new FileLock(path, probe({}));
    assert.equal(next.tryTake(), true);
    // The late one acts on what it read: the dead owner's id names a place already taken.
    assert.equal(seen?.id, '4242-x');
    const stale = late as unknown as { holder(): LockOwner | undefined };
    stale.holder = () => seen;
    assert.equal(late.breakIfGone(), 'free');
    assert.equal(next.holder()?.pid, process.pid, 'the next holder keeps its lock');
    next.release();
  });

  it('breaks an unreadable lock only when it predates this boot', () => {
    mkdirSync(path);
    const lock = new FileLock(path, probe({}));
    assert.equal(lock.breakIfGone(), 'held', 'being made or let go right now');
    const old = new Date(Date.now() - 10 * 365 * 86_400_000);
    utimesSync(path, old, old);
    assert.equal(lock.breakIfGone(), 'broken');
    assert.equal(existsSync(path), false);
  });
});
