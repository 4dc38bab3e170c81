// Benchmark 5, the library's start and keystrokes on one engine, in a process of its own so that
// nothing is compiled or cached before it starts (the bench runs it under each Node it has: the
// WebAssembly engine under any, node:sqlite under a Node that has it). Prints one line of JSON.
// Usage: node out/test/bench/libraryStart.js <library dir> <native|wasm> <sessions>
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { Library } from '../../src/library/library';
import type { EngineName } from '../../src/library/engine';
import { repoRoot } from '../support/refAgent';
import { typedQueries, uniqueWord } from './libraryCorpus';

/** What a run reports back to the bench. */
export interface StartFigures {
  engine: EngineName;
  node: string;
  /** Worker start, open and first search: wall and CPU of this whole process (all its threads). */
  startWallMs: number;
  startCpuMs: number;
  /** One search per keystroke, with snippets, through the worker. */
  keystrokesMs: number[];
}

async function main(): Promise<void> {
  const [dir, wanted, sessions] = process.argv.slice(2) as [string, EngineName, string];
  const queries = typedQueries(Number(sessions));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // node:sqlite is left to the library's own choice (its check included, as a user's host runs
  // it); WebAssembly is asked for, since a host with node:sqlite would not choose it.
  const library = new Library({
    workerPath: join(repoRoot, 'dist/libraryWorker.js'),
    dir,
    maxBytes: 1024 * 1024 * 1024,
    ...(wanted === 'wasm' ? { engine: 'wasm' as const } : {}),
  });
  await library.ready;
  await library.search(queries[queries.length - 1]!);
  const startWallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (library.engine !== wanted) throw new Error(`the library ran on ${library.engine}, not ${wanted}`);
  const keystrokesMs: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await library.search(q, { cwd: '/work/project' });
    keystrokesMs.push(performance.now() - t);
  }
  const needle = uniqueWord(Math.floor(Number(sessions) / 2));
  const [hit] = await library.search(needle);
  await library.close();
  if (!hit || hit.sessionId !== `session-${Math.floor(Number(sessions) / 2)}` || !hit.snippet?.includes(needle))
    throw new Error(`the word from the middle of one session did not find it (${JSON.stringify(hit)})`);
  const figures: StartFigures = {
    engine: wanted,
    node: process.version,
    startWallMs,
    startCpuMs: (cpu.user + cpu.system) / 1000,
    keystrokesMs,
  };
  console.log(JSON.stringify(figures));
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`library start could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
