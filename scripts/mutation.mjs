// `npm run mutation`: how many small deliberate changes to src/agent, src/sessions, src/chat and
// src/library the unit and integration tests notice. One instrumented build holds every mutant (see
// scripts/mutation/instrument.mjs); a worker loads the test bundles once, records which tests
// reach which mutant, then reruns only those tests for each mutant, stopping at the first
// failure. Mutants reached while a module loads (a top-level constant or pattern) run in a fresh
// worker of their own, with the bundles that contain their file.
//
// Options:
//   --workers N     parallel workers (default 1: the machine is shared)
//   --only A,B      files or folders to mutate (default: all four folders)
//   --sample F      a fixed sample of the mutants, F between 0 and 1 (the same mutants every run
//                   while the sources are the same), for a quicker estimate
//   --budget S      seconds of test time (as measured in the plain run) per mutant, fastest
//                   tests first (default 60); the slowest tests of a widely used file are left out
//   --quiet         no line per survivor
// Writes .mutation/report.json and .mutation/survivors.txt.
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { instrument } from './mutation/instrument.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// The library's store runs in a worker thread built apart (dist/libraryWorker.js): its mutants
// count where the unit tests run the store in-process, as they do for most of it.
const FOLDERS = ['src/agent', 'src/sessions', 'src/chat', 'src/library'];
const work = join(root, '.mutation');
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const workers = Math.max(1, Number(option('--workers') ?? 1));
const only = option('--only')
  ?.split(',')
  .map((p) => p.trim().replace(/\/$/, ''))
  .filter(Boolean);
const quiet = args.includes('--quiet');
const sample = Number(option('--sample') ?? 1);
const budgetMs = Number(option('--budget') ?? 60) * 1000;
const started = Date.now();

const listTs = (dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
    .sort();

// 1. Every mutant, numbered across the files.
// Numbered over every file whatever --only says, so a mutant keeps its number (and its place in
// a sample) from one run to the next.
const sources = FOLDERS.flatMap(listTs);
const chosen = (file) => !only || only.some((o) => file === o || file.startsWith(`${o}/`));
const instrumented = new Map();
let mutants = [];
let numbered = 0;
for (const file of sources) {
  const r = instrument(file, readFileSync(join(root, file), 'utf8'), numbered);
  numbered = r.nextId;
  instrumented.set(resolve(root, file), r.text);
  for (const m of r.mutants) mutants.push({ ...m, file });
}
// A hash of the number, so a sample spreads over every file and kind.
const sampled = (id) => (Math.imul(id + 1, 2654435761) >>> 0) / 2 ** 32 < sample;
mutants = mutants.filter((m) => chosen(m.file) && (sample >= 1 || sampled(m.id)));

// 2. The test bundles, built once from the instrumented sources, and a plain reference agent of
// their own (the agent the integration tests start is not mutated, and a build of out/ meanwhile
// does not disturb the run).
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const agentScript = join(work, 'agent.js');
await esbuild.build({
  entryPoints: ['test/agent/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: agentScript,
  logLevel: 'warning',
});
const entries = ['test/unit', 'test/integration'].flatMap((d) => listTs(d).filter((f) => f.endsWith('.test.ts')));
const built = await esbuild.build({
  entryPoints: entries,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outbase: 'test',
  // Same depth as out/test, so the tests find the repository as usual.
  outdir: join(work, 'test'),
  // node-sqlite3-wasm finds its .wasm beside its own file: the library's tests load it from node_modules.
  external: ['vscode', 'mocha', 'playwright-core', 'node-sqlite3-wasm'],
  logLevel: 'warning',
  metafile: true,
  plugins: [
    {
      name: 'mutants',
      setup(build) {
        build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (a) => {
          const text = instrumented.get(a.path);
          return text === undefined ? undefined : { contents: text, loader: 'ts' };
        });
      },
    },
  ],
});
/** For each mutated file, the bundles that contain it, unit tests first. */
const bundlesOf = new Map();
for (const [out, meta] of Object.entries(built.metafile.outputs)) {
  if (!out.endsWith('.js')) continue;
  for (const input of Object.keys(meta.inputs)) {
    const list = bundlesOf.get(input) ?? [];
    list.push(resolve(root, out));
    bundlesOf.set(input, list);
  }
}
const mutatedFiles = new Set(mutants.map((m) => m.file));
const bundles = [...new Set([...mutatedFiles].flatMap((f) => bundlesOf.get(f) ?? []))].sort(unitFirst);
function unitFirst(a, b) {
  const rank = (p) => (p.includes(`${join('test', 'unit')}`) ? 0 : 1);
  return rank(a) - rank(b) || a.localeCompare(b);
}
console.log(
  `mutation: ${mutants.length} mutants${sample < 1 ? ` (a sample of ${numbered})` : ''} in ${new Set(mutants.map((m) => m.file)).size} files; ${bundles.length} test bundles`,
);

// 3. Workers, and the plain run that records which tests reach which mutant.
const TIMEOUT = 30_000;
function startWorker(files, env = {}) {
  const child = fork(join(root, 'scripts', 'mutation', 'worker.cjs'), [], {
    cwd: root,
    env: { ...process.env, ACP_TEST_AGENT: agentScript, ...env },
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  const pending = [];
  let exited = false;
  child.on('message', (/** @type {{ type: string }} */ m) => {
    if (m.type === 'ready') return;
    pending.shift()?.resolve(m);
  });
  child.on('exit', () => {
    exited = true;
    for (const p of pending.splice(0)) p.reject(new Error('worker exited'));
  });
  const ask = (msg, ms) =>
    new Promise((res, rej) => {
      if (exited) return rej(new Error('worker exited'));
      const timer = setTimeout(() => {
        rej(new Error('timeout'));
        child.kill('SIGKILL');
      }, ms);
      pending.push({
        resolve: (m) => (clearTimeout(timer), m.type === 'error' ? rej(new Error(m.message)) : res(m)),
        reject: (e) => (clearTimeout(timer), rej(e)),
      });
      child.send(msg);
    });
  return {
    ask,
    stop: () => child.kill('SIGKILL'),
    load: () => ask({ type: 'load', files, timeout: TIMEOUT }, 120_000),
  };
}

const first = startWorker(bundles);
const loaded = await first.load();
const covered = (await first.ask({ type: 'coverage' }, 60 * 60_000)).tests;
first.stop();
const failing = covered.filter((t) => t.failed).map((t) => t.title);
if (failing.length > 0) console.log(`mutation: left out, failing without a mutant: ${failing.join('; ')}`);
const testsOf = new Map();
const duration = new Map();
for (const t of covered) {
  duration.set(t.title, Math.max(duration.get(t.title) ?? 0, t.duration));
  if (t.failed) continue;
  for (const id of t.hits) {
    const list = testsOf.get(id) ?? [];
    list.push(t.title);
    testsOf.set(id, list);
  }
}
// Code that runs at load is known from where it stands (hits at load also come from the tests'
// own describe bodies calling functions).
const atLoad = new Set(mutants.filter((m) => m.atLoad).map((m) => m.id));
let cutShort = 0;
/** The tests to run for a mutant: fastest first, within the budget (at least one). */
function withinBudget(tests) {
  const sorted = [...new Set(tests)].sort((a, b) => duration.get(a) - duration.get(b));
  const chosen = [];
  let spent = 0;
  for (const t of sorted) {
    if (chosen.length > 0 && spent + duration.get(t) > budgetMs) break;
    chosen.push(t);
    spent += duration.get(t);
  }
  if (chosen.length < sorted.length) cutShort++;
  return chosen;
}
console.log(
  `mutation: baseline ${covered.length} tests in ${seconds(Date.now() - started)}; ${atLoad.size} mutants run at load`,
);

// 4. Each mutant.
const results = new Map();
const queue = mutants.filter((m) => !atLoad.has(m.id));
for (const m of queue) if (!testsOf.has(m.id)) results.set(m.id, { status: 'no coverage' });
const dynamic = queue.filter((m) => testsOf.has(m.id));
let done = queue.length - dynamic.length;
const total = mutants.length;
function progress() {
  done++;
  if (done % 50 === 0 || done === total) console.log(`mutation: ${done}/${total} (${seconds(Date.now() - started)})`);
}

async function runDynamic() {
  let worker;
  for (;;) {
    const m = dynamic.shift();
    if (!m) break;
    if (!worker) {
      worker = startWorker(bundles);
      await worker.load();
    }
    const tests = withinBudget(testsOf.get(m.id));
    const timeouts = Object.fromEntries(tests.map((t) => [t, Math.min(TIMEOUT, duration.get(t) * 3 + 2000)]));
    const budget = tests.reduce((sum, t) => sum + timeouts[t], 0) + 10_000;
    try {
      const r = await worker.ask({ type: 'run', mutant: m.id, tests, timeouts }, budget);
      results.set(m.id, r.killedBy ? { status: 'killed', by: r.killedBy } : { status: 'survived' });
    } catch {
      results.set(m.id, { status: 'timeout' });
      worker.stop();
      worker = undefined;
    }
    progress();
  }
  worker?.stop();
}

// A mutant reached at load changes a value the file's functions use later: the tests that run
// any code of the file, and the unit tests bundled with it, can notice it.
const bundleOf = new Map(loaded.tests.map((t) => [t.title, t.file]));
const fileOf = new Map(mutants.map((m) => [m.id, m.file]));
const testsOfFile = new Map();
for (const [id, tests] of testsOf) {
  const file = fileOf.get(id);
  const set = testsOfFile.get(file) ?? new Set();
  for (const t of tests) set.add(t);
  testsOfFile.set(file, set);
}
const staticMutants = mutants.filter((m) => atLoad.has(m.id));
async function runStatic() {
  for (;;) {
    const m = staticMutants.shift();
    if (!m) break;
    const containing = new Set(bundlesOf.get(m.file) ?? []);
    const tests = new Set(testsOfFile.get(m.file) ?? []);
    for (const t of loaded.tests) {
      if (!containing.has(t.file)) continue;
      if (t.file.includes(`${join('test', 'unit')}`) || tests.size === 0) tests.add(t.title);
    }
    for (const t of failing) tests.delete(t);
    const chosen = withinBudget([...tests]);
    tests.clear();
    for (const t of chosen) tests.add(t);
    const files = [...new Set([...tests].map((t) => bundleOf.get(t)))].sort(unitFirst);
    if (files.length === 0) {
      results.set(m.id, { status: 'no coverage', atLoad: true });
      progress();
      continue;
    }
    const worker = startWorker(files, { ACP_MUTANT: String(m.id) });
    try {
      await worker.load();
      const timeouts = Object.fromEntries(
        [...tests].map((t) => [t, Math.min(TIMEOUT, (duration.get(t) ?? 1000) * 3 + 2000)]),
      );
      const budget = Object.values(timeouts).reduce((sum, t) => sum + t, 0);
      const r = await worker.ask({ type: 'run', mutant: m.id, tests: [...tests], timeouts }, budget + 20_000);
      results.set(
        m.id,
        r.killedBy ? { status: 'killed', by: r.killedBy, atLoad: true } : { status: 'survived', atLoad: true },
      );
    } catch (e) {
      // A mutant that breaks loading is noticed by every test.
      results.set(m.id, { status: e.message === 'timeout' ? 'timeout' : 'killed', by: 'load', atLoad: true });
    }
    worker.stop();
    progress();
  }
}

await Promise.all([
  ...Array.from({ length: workers }, () => runDynamic()),
  ...Array.from({ length: workers }, () => runStatic()),
]);

// 5. The score.
/** @type {[string, ReturnType<typeof tally>][]} */
const rows = [];
const tally = (list) => {
  const c = { killed: 0, timeout: 0, survived: 0, 'no coverage': 0 };
  for (const m of list) c[results.get(m.id).status]++;
  const n = list.length;
  return { ...c, total: n, score: n ? (100 * (c.killed + c.timeout)) / n : 100 };
};
for (const folder of FOLDERS) {
  const list = mutants.filter((m) => m.file.startsWith(`${folder}/`));
  if (list.length) rows.push([folder, tally(list)]);
}
rows.push(['overall', tally(mutants)]);
const survivors = mutants.filter((m) => ['survived', 'no coverage'].includes(results.get(m.id).status));
const survivorLines = survivors.map(
  (m) =>
    `${m.file}:${m.line}  ${m.kind}  ${m.description}${results.get(m.id).status === 'no coverage' ? '  (no test reaches it)' : ''}`,
);
writeFileSync(join(work, 'survivors.txt'), `${survivorLines.join('\n')}\n`);
writeFileSync(
  join(work, 'report.json'),
  JSON.stringify(
    { rows: Object.fromEntries(rows), mutants: mutants.map((m) => ({ ...m, ...results.get(m.id) })) },
    null,
    1,
  ),
);
if (!quiet) for (const l of survivorLines) console.log(`survived: ${l}`);
console.log('\nfolder          mutants  killed  timeout  survived  no-coverage   score');
for (const [name, t] of rows) {
  console.log(
    `${name.padEnd(14)} ${String(t.total).padStart(8)} ${String(t.killed).padStart(7)} ${String(t.timeout).padStart(8)} ${String(t.survived).padStart(9)} ${String(t['no coverage']).padStart(12)} ${t.score.toFixed(1).padStart(6)}%`,
  );
}
console.log(
  `\nmutation: ${seconds(Date.now() - started)}; ${cutShort} mutants ran only their fastest tests (budget ${budgetMs / 1000} s); survivors in ${relative(root, join(work, 'survivors.txt'))}`,
);

function seconds(ms) {
  return ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
}
