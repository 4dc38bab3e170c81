// Benchmark 5, second part: the library on a chat's path, host side, against the reference
// agent over stdio. A 2,000-turn session reopened from the library (kept transcript shown, then
// `session/resume`) against the same session replayed by `session/load`, to the last entry in
// the chat's thread; and a 20,000-update replay with the library recording it against the same
// replay without the library. The webview draws the same entries either way (benchmarks 2 and
// 4 time that part).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { LibraryService } from '../../src/library/service';
import { TranscriptKeeper } from '../../src/app/transcriptKeeper';
import { chatDeps, hostDeps, registryWith } from '../support/chat';
import { refAgentConfig, repoRoot, seed } from '../support/refAgent';
import { count, median, ms, ratio, summary, table } from './lib';

const B = 'library';
/** Turns of the session reopened: 2,000 turns. */
const REOPEN_TURNS = 2_000;
/** Seeded turns that replay as 20,005 updates (see test/agent/content.ts). */
const TURNS_20K = 8334;
const RUNS = 3;

export async function reopenFigures(dir: string): Promise<void> {
  const store = join(dir, 'reopen-store');
  const cwd = join(dir, 'reopen-project');
  mkdirSync(cwd, { recursive: true });
  seed(store, [cwd], 1, REOPEN_TURNS);
  const big = join(dir, 'replay-store');
  seed(big, [cwd], 1, TURNS_20K);

  const service = new LibraryService({
    workerPath: join(repoRoot, 'dist/libraryWorker.js'),
    dir: join(dir, 'reopen-library'),
    log: () => {},
  });
  const keeper = new TranscriptKeeper(service, new MemoryLogger());
  const registries = [registryWith(refAgentConfig(store)), registryWith(refAgentConfig(big, [], 'big'), hostDeps())];
  try {
    const [small, large] = registries as [(typeof registries)[0], (typeof registries)[0]];
    const sessionOf = async (registry: typeof small, id: string) =>
      (await (await registry.get(id)!.connect()).listSessions({ cwd })).sessions[0]!.sessionId;
    const smallId = await sessionOf(small, 'ref');
    const largeId = await sessionOf(large, 'big');

    /** Opens a chat on the session and resolves with the time to its last entry and to attached. */
    const open = async (
      registry: typeof small,
      agentId: string,
      sessionId: string,
      how: 'load' | 'library' | 'record',
    ) => {
      const session = new ChatSession(registry, { agentId, sessionId, cwd }, chatDeps());
      const recording = how === 'record' ? keeper.record(session) : undefined;
      const t = performance.now();
      let shown = 0;
      if (how === 'library') {
        if (!(await keeper.showKept(session, 'auto'))) throw new Error('the kept session was not shown');
        shown = performance.now() - t;
        await session.attach('resume');
      } else {
        await session.attach('load');
        shown = performance.now() - t;
      }
      const attached = performance.now() - t;
      const entries = session.thread.entries.length;
      const f = performance.now();
      await recording?.flush();
      const flushed = performance.now() - f;
      recording?.dispose();
      await session.close();
      return { shown, attached, entries, flushed };
    };

    // Keep the 2,000-turn session once (a load, recorded), then time both ways of reopening it.
    const first = await open(small, 'ref', smallId, 'record');
    // The agent's time is noted just after the load: wait for it to be kept.
    for (let i = 0; ; i++) {
      const kept = await service.get()!.session({ agentId: 'ref', sessionId: smallId });
      if (kept?.complete && kept.updatedAt) break;
      if (i > 400) throw new Error('the loaded session was not kept with its time');
      await new Promise((r) => setTimeout(r, 25));
    }
    const loads: number[] = [];
    const reopens: number[] = [];
    const resumed: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const load = await open(small, 'ref', smallId, 'load');
      const kept = await open(small, 'ref', smallId, 'library');
      if (kept.entries !== load.entries || load.entries !== first.entries)
        throw new Error(`the kept transcript has ${kept.entries} entries, the load ${load.entries}`);
      loads.push(load.shown);
      reopens.push(kept.shown);
      resumed.push(kept.attached);
    }

    // A 20,000-update replay, alone and with the library recording it (its kept copy starts over each time).
    const plain: number[] = [];
    const recorded: number[] = [];
    const flushes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push((await open(large, 'big', largeId, 'load')).shown);
      const r = await open(large, 'big', largeId, 'record');
      recorded.push(r.shown);
      flushes.push(r.flushed);
    }
    const cost = median(recorded) / median(plain) - 1;

    table(
      `The library on a chat's path (host side, reference agent over stdio, median of ${RUNS})`,
      ['figure', 'value', 'note'],
      [
        [
          `reopen ${count(REOPEN_TURNS)} turns from the library → last entry`,
          ms(median(reopens)),
          `attached (session/resume) ${ms(median(resumed))}`,
        ],
        [`the same by session/load → last entry`, ms(median(loads)), `${count(first.entries)} entries`],
        ['reopen: load ÷ library', ratio(median(loads), median(reopens), 1), 'aim ≥ 5×'],
        ['20,000-update replay without the library', ms(median(plain)), ''],
        [
          'the same replay, recorded',
          ms(median(recorded)),
          `${(cost * 100).toFixed(1)}% (aim ≤ 10%); then the worker writes it in ${ms(median(flushes))}`,
        ],
      ],
    );
    summary(
      B,
      `reopen ${count(REOPEN_TURNS)} turns: library vs load (→ last entry)`,
      `${ms(median(reopens))} vs ${ms(median(loads))} = ${ratio(median(loads), median(reopens), 1)} faster`,
      'aim ≥ 5×',
    );
    summary(
      B,
      'a 20,000-update replay, recorded vs not',
      `${ms(median(recorded))} vs ${ms(median(plain))} (${(cost * 100).toFixed(1)}%)`,
      `aim ≤ 10%; the write after it takes ${ms(median(flushes))} in the worker`,
    );
  } finally {
    await Promise.all(registries.map((r) => r.stopAll()));
    await service.close();
  }
}
