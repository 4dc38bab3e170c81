// Benchmark 5: the session library in plain Node, as built (SQLite FTS5 in WebAssembly, in its
// worker thread) with 2,000 kept sessions of 200 messages: keeping a session, searching per
// keystroke with snippets, size on disk, memory, start-up. Then the library's start (worker,
// open, first search: wall and CPU) and keystrokes on each engine, each run in a fresh process:
// WebAssembly (what ran before node:sqlite) under this Node and under the test cache's Node 24,
// node:sqlite under the Node 24 (Node 20 has none), with their ratios. Figures only: a slow one
// never fails the run, a wrong search result does. (Why FTS5 and not an in-memory full-text library: the
// comparison in docs/benchmarks.md, measured once and settled.)
// Usage: node --expose-gc out/test/bench/library.js
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Library } from '../../src/library/library';
import { LibraryStore } from '../../src/library/store';
import { repoRoot, tempDir } from '../support/refAgent';
import { MESSAGES, corpusSession, typedQueries, uniqueWord } from './libraryCorpus';
import { nodeWithSqlite } from '../support/nodes';
import { bytes, count, gc, median, ms, percentile, ratio, summary, table } from './lib';
import { reopenFigures } from './libraryReopen';
import type { StartFigures } from './libraryStart';

const B = 'library';
const SESSIONS = Number(process.env.ACP_BENCH_LIBRARY_SESSIONS ?? 2_000);
/** Fresh processes per engine and Node for the start figures (their median). */
const START_RUNS = 3;

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
    engineFigures(libDir);
    await reopenFigures(dir.path);
    return 0;
  } finally {
    dir.cleanup();
  }
}

interface EngineRun {
  node: string;
  engine: StartFigures['engine'];
  runs: StartFigures[];
}

/** One fresh process on `node` and `engine` over the library in `libDir`. */
function startOnce(node: string, engine: StartFigures['engine'], libDir: string): StartFigures {
  const script = join(repoRoot, 'out/test/bench/libraryStart.js');
  const r = spawnSync(node, ['--enable-source-maps', script, libDir, engine, String(SESSIONS)], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 5 * 60_000,
  });
  if (r.status !== 0) throw new Error(`${engine} under ${node} failed (${r.status ?? r.signal}): ${r.stderr.trim()}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as StartFigures;
}

/** The start and keystroke figures per engine, each engine under each Node that has it. */
function engineFigures(libDir: string): void {
  const withSqlite = nodeWithSqlite();
  const plan: EngineRun[] = [{ node: process.execPath, engine: 'wasm', runs: [] }];
  if (withSqlite && withSqlite !== process.execPath) plan.push({ node: withSqlite, engine: 'wasm', runs: [] });
  if (withSqlite) plan.push({ node: withSqlite, engine: 'native', runs: [] });
  // Rounds in turn, so that a busy moment of the machine falls on every engine alike.
  for (let round = 0; round < START_RUNS; round++)
    for (const p of plan) p.runs.push(startOnce(p.node, p.engine, libDir));

  const label = (p: EngineRun) =>
    `${p.engine === 'native' ? 'node:sqlite' : 'WebAssembly'}, Node ${p.runs[0]!.node.replace(/^v/, '')}`;
  const figures = plan.map((p) => {
    const keys = p.runs.flatMap((r) => r.keystrokesMs);
    return {
      p,
      wall: median(p.runs.map((r) => r.startWallMs)),
      cpu: median(p.runs.map((r) => r.startCpuMs)),
      p50: median(keys),
      p95: percentile(keys, 95),
    };
  });
  table(
    `The library's start (worker, open, first search) and keystrokes per engine: fresh processes, median of ${START_RUNS}; CPU is the whole process's (all threads), the main thread only waits`,
    ['engine', 'start wall', 'start CPU', 'keystroke p50', 'keystroke p95'],
    figures.map((f) => [label(f.p), ms(f.wall), ms(f.cpu), ms(f.p50), ms(f.p95)]),
  );
  for (const f of figures) {
    summary(B, `start: worker, open, first search (wall / CPU), ${label(f.p)}`, `${ms(f.wall)} / ${ms(f.cpu)}`);
    summary(B, `search per keystroke (p50 / p95), ${label(f.p)}`, `${ms(f.p50)} / ${ms(f.p95)}`);
  }
  const native = figures.find((f) => f.p.engine === 'native');
  const before = figures.find((f) => f.p.engine === 'wasm' && f.p.node === native?.p.node);
  if (!native || !before) {
    console.log("  node:sqlite: no Node here has it (the test cache's Node 24 is installed by `npm test`)");
    summary(B, 'node:sqlite vs WebAssembly (before)', 'n/a', 'no Node with node:sqlite here');
    return;
  }
  const node = label(native.p).replace(/^.*, /, '');
  console.log(
    `  node:sqlite vs WebAssembly (before), ${node}: start ${ratio(native.wall, before.wall)} wall, ${ratio(native.cpu, before.cpu)} CPU; keystroke ${ratio(native.p50, before.p50)} p50, ${ratio(native.p95, before.p95)} p95`,
  );
  summary(
    B,
    `node:sqlite vs WebAssembly (before), ${node}: start (wall / CPU)`,
    `${ratio(native.wall, before.wall)} / ${ratio(native.cpu, before.cpu)}`,
  );
  summary(
    B,
    `node:sqlite vs WebAssembly (before), ${node}: keystroke (p50 / p95)`,
    `${ratio(native.p50, before.p50)} / ${ratio(native.p95, before.p95)}`,
  );
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`library benchmark could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
