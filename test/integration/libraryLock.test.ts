// Windows sharing the library's file: one paused inside a transaction (a laptop asleep, a
// starved worker; here SIGSTOP) keeps its lock however long, and the others wait for it, never
// beside it; a window opening beside a writer, or soon after another was killed while a third
// lives, waits and opens; the user hears only of a library that truly cannot open.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_NAME } from '../../src/library/schema';
import { LibraryService } from '../../src/library/service';
import { LibraryBusy } from '../../src/library/sqlite';
import { LibraryStore } from '../../src/library/store';
import { CrashModel, crashWrite } from '../support/crashWrites';
import { libraryWorker } from '../support/library';
import { waitFor } from '../support/wait';
import { tempDir } from '../support/refAgent';
import { startWriter, type Writer } from '../support/writers';

const user = (text: string) => ({ type: 'user' as const, text, attachments: [], done: true });

/** Who holds the library's file now (the pid in its lock), if anyone. */
function lockOwner(dir: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, `${FILE_NAME}.owner`, 'owner.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

/** Pauses `w` (SIGSTOP) at a moment it holds the file's lock. */
async function pauseHolding(w: Writer, dir: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    w.child.kill('SIGSTOP');
    if (lockOwner(dir) === w.child.pid) return;
    w.child.kill('SIGCONT');
    if (tries > 2000) throw new Error('never caught the writer holding the lock');
    await new Promise((r) => setTimeout(r, 1 + (tries % 7)));
  }
}

/** Stops a companion writer, and answers what it acknowledged. */
async function stop(w: Writer, dir: string): Promise<Writer['acks']> {
  writeFileSync(join(dir, 'stop'), '');
  assert.equal(await w.ended, 0, 'the writer ended well');
  return w.acks;
}

describe('library: windows sharing the file', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  const writers: Writer[] = [];
  beforeEach(() => (dir = tempDir('acp-library-lock-')));
  afterEach(() => {
    for (const w of writers.splice(0)) {
      w.child.kill('SIGCONT');
      w.child.kill('SIGKILL');
    }
    dir.cleanup();
  });

  it('never breaks the lock of a window paused inside a transaction, however long; writes wait for it', async () => {
    const lines: string[] = [];
    // Told who holds the lock after 300 ms: the rule that broke locks at 30 s, made short.
    const store = LibraryStore.open({
      dir: dir.path,
      maxBytes: 1e9,
      engine: 'wasm',
      busyWaitMs: 1_500,
      longLockMs: 300,
      log: (m) => lines.push(m),
    });
    try {
      const paused = startWriter(process.execPath, {
        dir: dir.path,
        engine: 'wasm',
        role: 'companion',
        size: 'small',
        first: 0,
      });
      writers.push(paused);
      await paused.ready;
      await waitFor('a few writes', () => (paused.acks.length >= 3 ? true : undefined));
      await pauseHolding(paused, dir.path);
      // Paused five times longer than the rule's time: waited for, never broken.
      assert.throws(() => store.write({ agentId: 'a', sessionId: 'beside', cwd: '/p', entries: [] }), LibraryBusy);
      assert.throws(() => store.search('anything'), LibraryBusy);
      assert.equal(lockOwner(dir.path), paused.child.pid, 'the paused window still holds the lock');
      assert.ok(
        lines.some((l) => l.includes(`held by process ${paused.child.pid}`)),
        `says who holds it: ${lines.join(' | ')}`,
      );
      paused.child.kill('SIGCONT');
      // Waits for the paused window's transaction to end, then writes.
      store.write({
        agentId: 'a',
        sessionId: 'beside',
        cwd: '/p',
        entries: [{ index: 0, entry: user('beside words') }],
      });
      const acked = await stop(paused, dir.path);
      const model = new CrashModel();
      for (const a of acked) model.apply(crashWrite('companion', 'small', a.n));
      assert.equal(
        store.read(() => store.get('PRAGMA integrity_check')?.integrity_check),
        'ok',
      );
      for (const [sessionId, entries] of model.sessions) {
        const texts = store
          .transcript({ agentId: 'crash', sessionId })!
          .map((e) => (e.type === 'user' || e.type === 'agent' ? e.text : ''));
        const want = [...entries.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
        assert.deepEqual(texts, want, `${sessionId}: every acknowledged write`);
      }
      assert.equal(store.search('beside words').length, 1);
    } finally {
      store.close();
    }
  });

  it('opens beside a writer every time (50 opens)', async () => {
    LibraryStore.open({ dir: dir.path, maxBytes: 1e9, engine: 'wasm' }).close();
    const busy = startWriter(process.execPath, {
      dir: dir.path,
      engine: 'wasm',
      role: 'companion',
      size: 'small',
      first: 0,
    });
    writers.push(busy);
    await busy.ready;
    for (let i = 0; i < 50; i++) {
      const store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, engine: 'wasm' });
      try {
        assert.ok(store.sessions().length >= 0);
      } finally {
        store.close();
      }
    }
    assert.ok((await stop(busy, dir.path)).length > 0, 'the writer wrote all the while');
  });

  it('opens soon after a window was killed in a write while another lives, and tells the user nothing', async () => {
    const alive = startWriter(process.execPath, {
      dir: dir.path,
      engine: 'wasm',
      role: 'companion',
      size: 'small',
      first: 0,
    });
    writers.push(alive);
    await alive.ready;
    const killed = startWriter(process.execPath, {
      dir: dir.path,
      engine: 'wasm',
      role: 'victim',
      size: 'medium',
      first: 0,
      killAt: 25,
    });
    assert.equal(await killed.ended, 'SIGKILL');
    const told: string[] = [];
    const service = new LibraryService({
      workerPath: libraryWorker,
      dir: dir.path,
      log: () => {},
      failed: (m) => told.push(m),
      writeFailed: (m) => told.push(m),
    });
    try {
      const library = service.get()!;
      await library.ready;
      await library.write({
        agentId: 'a',
        sessionId: 'after',
        cwd: '/p',
        entries: [{ index: 0, entry: user('after the crash') }],
      });
      assert.equal((await library.search('after the crash')).length, 1);
      assert.equal(service.failure, undefined);
      assert.deepEqual(told, []);
    } finally {
      await service.close();
    }
    assert.ok((await stop(alive, dir.path)).length > 0);
  });

  it('waits for a window that holds the file all the while it starts, tells the user nothing, and works once it lets go', async () => {
    LibraryStore.open({ dir: dir.path, maxBytes: 1e9, engine: 'wasm' }).close();
    const holder = startWriter(process.execPath, {
      dir: dir.path,
      engine: 'wasm',
      role: 'companion',
      size: 'small',
      first: 0,
    });
    writers.push(holder);
    await holder.ready;
    await pauseHolding(holder, dir.path);
    const told: string[] = [];
    const lines: string[] = [];
    const service = new LibraryService({
      workerPath: libraryWorker,
      dir: dir.path,
      busyWaitMs: 500,
      log: (m) => lines.push(m),
      failed: (m) => told.push(m),
      writeFailed: (m) => told.push(m),
    });
    try {
      const library = service.get()!;
      await library.ready;
      await assert.rejects(library.search('x'), /busy in another window/);
      await assert.rejects(library.write({ agentId: 'a', sessionId: 's', cwd: '/p' }), /busy in another window/);
      assert.ok(service.enabled, 'still on: a later use tries again');
      holder.child.kill('SIGCONT');
      await stop(holder, dir.path);
      await library.write({
        agentId: 'a',
        sessionId: 's',
        cwd: '/p',
        entries: [{ index: 0, entry: user('kept at last') }],
      });
      assert.equal((await library.search('kept at last')).length, 1);
      assert.deepEqual(told, [], 'the user is told nothing: the library was only busy');
      assert.ok(
        lines.some((l) => /waits for another window/.test(l)),
        lines.join(' | '),
      );
    } finally {
      await service.close();
    }
  });
});
