// A window killed while the library commits: a writer process is killed (SIGKILL) inside its
// writes' page writes, hundreds of times, on small writes, larger ones and a long history kept
// again whole, on both engines, some rounds with a second process writing beside it. Each time,
// the next opener finds every acknowledged write whole, and the write cut short whole or absent.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineName } from '../../src/library/engine';
import { Library } from '../../src/library/library';
import { FILE_NAME } from '../../src/library/schema';
import { LibraryStore } from '../../src/library/store';
import type { ThreadEntry } from '../../src/protocol/entries';
import { CrashModel, crashWrite, SIZES, type WriteSize, type WriterRole } from '../support/crashWrites';
import { nodeWithSqlite } from '../support/nodes';
import { repoRoot, tempDir } from '../support/refAgent';
import { walState } from '../support/walFile';
import type { WriterArgs } from '../support/libraryWriter';
import { startWriter, type Writer } from '../support/writers';

const workerPath = join(repoRoot, 'dist/libraryWorker.js');
/** Kills per engine: together at least 200 inside page writes. */
const ROUNDS: Record<EngineName, number> = {
  wasm: Number(process.env.ACP_CRASH_ROUNDS_WASM ?? 150),
  native: Number(process.env.ACP_CRASH_ROUNDS_NATIVE ?? 120),
};
/** Every this many rounds, a second process writes other sessions beside the one killed. */
const COMPANION_EVERY = 4;

/** Checks the library against the model: every session whole as written, the file sound. */
function verify(store: LibraryStore, model: CrashModel, sessions: Iterable<string>, round: string): void {
  assert.equal(
    store.read(() => store.get('PRAGMA integrity_check')?.integrity_check),
    'ok',
    `${round}: the file is sound`,
  );
  for (const sessionId of sessions) {
    const want = [...(model.sessions.get(sessionId) ?? new Map<number, string>()).entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, text]) => text);
    const got = (store.transcript({ agentId: 'crash', sessionId }) ?? []).map((e) =>
      e.type === 'user' || e.type === 'agent' ? e.text : e.type,
    );
    assert.deepEqual(got, want, `${round}: ${sessionId} holds exactly what was acknowledged`);
  }
}

/** Whether write `n` is in the library, all of it (true), none of it (false); anything else fails. */
function landed(store: LibraryStore, role: WriterRole, size: WriteSize, n: number, round: string): boolean {
  const w = crashWrite(role, size, n);
  const text = (e: ThreadEntry) => (e.type === 'user' || e.type === 'agent' ? e.text : '');
  const kept = new Set((store.transcript({ agentId: 'crash', sessionId: w.sessionId }) ?? []).map(text));
  const present = w.entries!.filter((e) => kept.has(text(e.entry))).length;
  assert.ok(present === 0 || present === w.entries!.length, `${round}: write ${n} was kept in part (${present})`);
  return present > 0;
}

describe('library: a writer killed inside its commits’ page writes', function () {
  this.timeout(20 * 60_000);
  const kills = { commit: 0, checkpoint: 0, none: 0 };
  after(() => {
    console.log(
      `      kills inside a commit's page writes: ${kills.commit}, inside a checkpoint's: ${kills.checkpoint}, between writes: ${kills.none}`,
    );
  });

  for (const engine of ['wasm', 'native'] as const) {
    it(`${engine}: every acknowledged write is whole after each kill, and the write cut short whole or absent`, async function () {
      const node = engine === 'wasm' ? process.execPath : nodeWithSqlite();
      if (!node) {
        if (process.env.CI === 'true')
          assert.fail('no Node with node:sqlite to run the native rounds (ACP_NODE24_DIR)');
        this.skip();
      }
      const dir = tempDir(`acp-library-crash-${engine}-`);
      const db = join(dir.path, FILE_NAME);
      const model = new CrashModel();
      const pages: Record<WriteSize, number> = { small: 6, medium: 30, large: 600 };
      const walBytes: Record<WriteSize, number> = { small: 3 * 8216, medium: 10 * 8216, large: 300 * 8216 };
      let next = 0;
      let companionNext = 0;
      try {
        for (let round = 0; round < ROUNDS[engine]; round++) {
          const size = SIZES[round % SIZES.length]!;
          const name = `${engine} round ${round} (${size})`;
          const companion: Writer | undefined =
            round % COMPANION_EVERY === COMPANION_EVERY - 1
              ? startWriter(node!, { dir: dir.path, engine, role: 'companion', size: 'small', first: companionNext })
              : undefined;
          await companion?.ready;
          const args: WriterArgs = { dir: dir.path, engine, role: 'victim', size, first: next };
          if (engine === 'wasm') args.killAt = 1 + Math.floor(Math.random() * pages[size] * 1.3);
          else if (round % 3 === 2) args.inCheckpoint = true;
          else args.walBytes = 32 + Math.floor(Math.random() * walBytes[size]);
          const victim = startWriter(node!, args);
          const how = await victim.ended;
          assert.equal(how, 'SIGKILL', `${name}: the writer ended by itself (${String(how)})`);
          // Where the kill landed, by what it left (the companion may recover it at once: then by what the writer said).
          const wal = walState(`${db}-wal`);
          kills[companion ? (victim.dying ?? 'none') : !wal ? 'none' : wal.committed ? 'checkpoint' : 'commit']++;
          if (companion) {
            writeFileSync(join(dir.path, 'stop'), '');
            assert.equal(await companion.ended, 0, `${name}: the companion ended well`);
            rmSync(join(dir.path, 'stop'));
          }
          for (const a of victim.acks) model.apply(crashWrite('victim', size, a.n));
          for (const a of companion?.acks ?? []) model.apply(crashWrite('companion', 'small', a.n));
          const last = victim.acks.at(-1);
          if (last) pages[size] = Math.max(2, last.pages);
          const cut = (last?.n ?? next - 1) + 1;
          // The next opener (here, on WebAssembly) recovers what the killed one left.
          const store = LibraryStore.open({ dir: dir.path, maxBytes: 1e10, engine: 'wasm', busyWaitMs: 30_000 });
          try {
            if (landed(store, 'victim', size, cut, name)) model.apply(crashWrite('victim', size, cut));
            const touched = new Set([
              ...[...victim.acks.map((a) => a.n), cut].map((n) => crashWrite('victim', size, n).sessionId),
              ...(companion?.acks ?? []).map((a) => crashWrite('companion', 'small', a.n).sessionId),
            ]);
            verify(store, model, touched, name);
          } finally {
            store.close();
          }
          next = cut + 1;
          companionNext += companion?.acks.length ?? 0;
          if (companion?.acks.length) companionNext = companion.acks.at(-1)!.n + 1;
        }
        // At the end, every session the rounds wrote, whole.
        const store = LibraryStore.open({ dir: dir.path, maxBytes: 1e10, engine: 'wasm' });
        try {
          verify(store, model, model.sessions.keys(), `${engine}: after every round`);
        } finally {
          store.close();
        }
        assert.ok(!existsSync(`${db}.owner`), 'no lock left once every writer is done');
      } finally {
        dir.cleanup();
      }
    });
  }

  it('kills hundreds of writers inside their page writes in all', function () {
    if (kills.commit + kills.checkpoint === 0) this.skip();
    assert.ok(
      kills.commit + kills.checkpoint >= 200 || process.env.ACP_CRASH_ROUNDS_WASM !== undefined,
      `only ${kills.commit + kills.checkpoint} kills landed inside page writes`,
    );
  });

  it('serves the extension through its worker on a library a writer was killed in', async () => {
    const dir = tempDir('acp-library-crash-worker-');
    try {
      const victim = startWriter(process.execPath, {
        dir: dir.path,
        engine: 'wasm',
        role: 'victim',
        size: 'medium',
        first: 0,
        killAt: 40,
      });
      assert.equal(await victim.ended, 'SIGKILL');
      const library = new Library({ workerPath, dir: dir.path, maxBytes: 1e9 });
      try {
        await library.ready;
        const hits = await library.search('marker');
        assert.equal(hits.length >= 1, true);
        assert.match(hits[0]!.snippet!, /markerv0x/);
      } finally {
        await library.close();
      }
    } finally {
      dir.cleanup();
    }
  });
});
