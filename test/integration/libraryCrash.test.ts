import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Library } from '../../src/library/library';
import { LibraryStore } from '../../src/library/store';
import { repoRoot, tempDir } from '../support/refAgent';

const workerPath = join(repoRoot, 'dist/libraryWorker.js');
const writer = join(repoRoot, 'out/test/support/libraryWriter.js');
const ROUNDS = 10;

/** Starts the writer from write `first`, kills it (SIGKILL) after `acks` acknowledged writes plus a little; returns the last ack. */
function runAndKill(dir: string, first: number, acks: number, extraMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, dir, workerPath, String(first)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let last = first - 1;
    let seen = 0;
    let buffer = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const l of lines) {
        const m = /^ack (\d+)$/.exec(l);
        if (!m) continue;
        last = Number(m[1]);
        if (++seen === acks) setTimeout(() => child.kill('SIGKILL'), extraMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the writer ended by itself (${code ?? signal})`));
      else resolve(last);
    });
  });
}

describe('library: a process killed in the middle of a write', function () {
  this.timeout(120_000);
  const dir = tempDir('acp-library-crash-');
  after(() => dir.cleanup());

  it('loses at most that write, never the library, however often it happens', async () => {
    let next = 0;
    let lastAcked = -1;
    let midTransaction = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Kill at a different point each round: right after an ack, or a few ms into the next write.
      lastAcked = await runAndKill(dir.path, next, 2 + (round % 4), round % 3 === 0 ? 0 : (round * 7) % 23);
      // The lock is held for the length of a transaction: still there, the kill cut one short.
      if (existsSync(join(dir.path, 'library.sqlite.lock'))) midTransaction++;
      const store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, busyWaitMs: 2_000 });
      try {
        // Every acknowledged write is there; the one cut short is all there or not at all.
        for (let n = 0; n <= lastAcked; n++) {
          const hits = store.search(`marker${n}x`);
          assert.equal(hits.length, 1, `round ${round}: write ${n} was acknowledged but is gone`);
        }
        const cut = store.search(`marker${lastAcked + 1}x`);
        if (cut.length) {
          const t = store.transcript({ agentId: 'writer', sessionId: `s${(lastAcked + 1) % 7}` })!;
          const entries = t.filter((e) => e.type === 'agent' && e.text.includes(`write ${lastAcked + 1} `));
          assert.equal(entries.length, 10, `round ${round}: the write cut short was kept in part`);
        }
        assert.equal(
          store.retry(() => store.get('PRAGMA integrity_check')?.integrity_check),
          'ok',
        );
        next = lastAcked + 1 + (cut.length ? 1 : 0);
      } finally {
        store.close();
      }
    }
    assert.ok(lastAcked > ROUNDS, `only ${lastAcked + 1} writes were made`);
    assert.ok(midTransaction > 0, 'no kill landed inside a transaction: the test proved nothing');
    console.log(`      ${midTransaction} of ${ROUNDS} kills landed inside a transaction`);
    assert.equal(existsSync(join(dir.path, 'library.sqlite.lock')), false);
  });

  it('serves the extension through its worker after the kills', async () => {
    const library = new Library({ workerPath, dir: dir.path, maxBytes: 1e9 });
    try {
      await library.ready;
      const hits = await library.search('marker0x');
      assert.equal(hits.length, 1);
      assert.equal(hits[0]!.agentId, 'writer');
      assert.match(hits[0]!.snippet!, /marker0x/);
    } finally {
      await library.close();
    }
  });
});
