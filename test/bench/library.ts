// Benchmark 5: the session library in plain Node, as built (SQLite FTS5 in WebAssembly, in its
// worker thread) with 2,000 kept sessions of 200 messages: keeping a session, searching per
// keystroke with snippets, size on disk, memory, start-up. Figures only: a slow one never fails
// the run, a wrong search result does. (Why FTS5 and not an in-memory full-text library: the
// comparison in docs/benchmarks.md, measured once and settled.)
// Usage: node --expose-gc out/test/bench/library.js
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Library } from '../../src/library/library';
import { LibraryStore } from '../../src/library/store';
import { repoRoot, tempDir } from '../support/refAgent';
import { MESSAGES, corpusSession, typedQueries, uniqueWord } from './libraryCorpus';
import { bytes, count, gc, median, ms, percentile, summary, table } from './lib';
import { reopenFigures } from './libraryReopen';

const B = 'library';
const SESSIONS = Number(process.env.ACP_BENCH_LIBRARY_SESSIONS ?? 2_000);

function rssNow(): number {
  gc();
  return process.memoryUsage().rss;
}

async function main(): Promise<number> {
  const dir = tempDir('acp-bench-library-');
  try {
    // The library as built: the store in this process for the build and its memory, then the
    // extension's own path (the worker) for keystrokes and start-up.
    const libDir = join(dir.path, 'library');
    const rss0 = rssNow();
    const store = LibraryStore.open({ dir: libDir, maxBytes: 1024 * 1024 * 1024 });
    const writes: number[] = [];
    let messages = 0;
    for (let i = 0; i < SESSIONS; i++) {
      const s = corpusSession(i);
      messages += s.entries.filter((e) => e.type === 'user' || e.type === 'agent').length;
      const t = performance.now();
      store.write({
        agentId: 'bench',
        sessionId: s.sessionId,
        cwd: '/work/project',
        info: { title: s.title, updatedAt: s.updatedAt, complete: true },
        entries: s.entries.map((entry, index) => ({ index, entry })),
        opened: true,
      });
      writes.push(performance.now() - t);
    }
    const stats = store.stats();
    const storeRss = rssNow() - rss0;
    store.close();

    const library = new Library({
      workerPath: join(repoRoot, 'dist/libraryWorker.js'),
      dir: libDir,
      maxBytes: 1024 * 1024 * 1024,
    });
    const s0 = performance.now();
    await library.ready;
    const queries = typedQueries(SESSIONS);
    await library.search(queries[queries.length - 1]!);
    const startup = performance.now() - s0;
    const took: number[] = [];
    const words: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const t = performance.now();
        await library.search(q, { cwd: '/work/project' });
        took.push(performance.now() - t);
        words.push(q.length);
      }
    }
    const needle = uniqueWord(Math.floor(SESSIONS / 2));
    const [hit] = await library.search(needle);
    await library.close();
    if (!hit || hit.sessionId !== `session-${Math.floor(SESSIONS / 2)}` || !hit.snippet?.includes(needle))
      throw new Error(`the word from the middle of one session did not find it (${JSON.stringify(hit)})`);

    const perThousand = (stats.fileBytes / messages) * 1000;
    table(
      `The library as built: ${count(SESSIONS)} sessions × ${MESSAGES} messages (${count(messages)} messages, ${count(stats.entries)} entries)`,
      ['figure', 'value', 'note'],
      [
        ['keep a session (one write)', `${ms(median(writes))} median`, `p95 ${ms(percentile(writes, 95))}`],
        ['search per keystroke (worker, snippets)', `${ms(median(took))} p50`, `p95 ${ms(percentile(took, 95))}`],
        ['file on disk', bytes(stats.fileBytes), `${bytes(perThousand)} per 1,000 messages`],
        ['memory of the store (RSS growth)', bytes(storeRss), 'JS, WebAssembly heap and page cache'],
        ['start-up: worker, open, first search', ms(startup), ''],
      ],
    );
    console.log(`  "${needle}" (said once in the middle of one session) found it first: …${hit.snippet.slice(0, 60)}…`);

    summary(
      B,
      `search per keystroke, ${count(SESSIONS)} × ${MESSAGES} (p50 / p95)`,
      `${ms(median(took))} / ${ms(percentile(took, 95))}`,
      'aim: p95 ≤ 50 ms',
    );
    summary(B, 'size on disk per 1,000 messages', bytes(perThousand), `${bytes(stats.fileBytes)} in all`);
    summary(B, 'memory of the store / start-up', `${bytes(storeRss)} / ${ms(startup)}`);
    summary(B, 'keep a session of 200 messages (median)', ms(median(writes)));
    await reopenFigures(dir.path);
    return 0;
  } finally {
    dir.cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`library benchmark could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
