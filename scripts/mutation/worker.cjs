// One mocha process of `npm run mutation`: loads the instrumented test bundles once, then runs
// them again for each mutant it is sent (the mutant switched on by a global), stopping at the
// first failure. Talks to its parent over IPC.
'use strict';
const loaded = require('mocha');
// Mocha 12 is an ES module; Node 20 gives its namespace to require().
const Mocha = /** @type {typeof import('mocha') & { default?: typeof import('mocha') }} */ (loaded).default ?? loaded;

const state = (globalThis.__acpMutation = {
  active: Number(process.env.ACP_MUTANT || -1),
  hits: new Set(),
});
let mocha;
let killedBy;
/** Whether a failure skips what is left of the run (a mutant's run; not the coverage run). */
let bail = false;
// Errors of a run that end after it (a timer a mutant left behind) must not end the worker.
process.on('uncaughtException', () => {});
process.on('unhandledRejection', () => {});

class Silent {
  constructor(runner) {
    runner.on('fail', (runnable, err) => {
      if (killedBy === undefined) killedBy = `${runnable.fullTitle()}: ${String(err && err.message).split('\n')[0]}`;
    });
  }
}

function allTests(suite, out = []) {
  for (const t of suite.tests) out.push(t);
  for (const s of suite.suites) allTests(s, out);
  return out;
}

async function load(files, timeout) {
  // @types/mocha types a reporter as Mocha's own classes only.
  mocha = new Mocha({
    timeout,
    reporter: /** @type {import('mocha').ReporterConstructor} */ (/** @type {unknown} */ (Silent)),
  });
  mocha.cleanReferencesAfterRun(false);
  for (const f of files) mocha.addFile(f);
  await mocha.loadFilesAsync();
  // Mocha has it; @types/mocha does not declare it.
  /** @type {{ lazyLoadFiles(lazy: boolean): void }} */ (/** @type {unknown} */ (mocha)).lazyLoadFiles(true);
  // Skip what is left of a run once a test has failed.
  mocha.suite.beforeEach(function () {
    if (bail && killedBy !== undefined) this.skip();
  });
  const loadHits = [...state.hits];
  state.hits = undefined;
  return { loadHits, tests: allTests(mocha.suite).map((t) => ({ title: t.fullTitle(), file: t.file })) };
}

function run(selected) {
  killedBy = undefined;
  bail = true;
  mocha.grep(selected ? { test: (title) => selected.has(title) } : /.*/);
  return new Promise((resolve) => mocha.run(() => resolve()));
}

/** Runs every test once, no mutant on, recording which mutants each test reaches. */
async function coverage() {
  const tests = new Map();
  const suiteHits = [];
  let current;
  state.hits = new Set();
  const collect = () => {
    if (current) for (const id of state.hits) current.add(id);
    state.hits = new Set();
  };
  const onSuite = (suite) => {
    collect();
    // Hits in before-all hooks belong to every test of the suite.
    current = new Set();
    suiteHits.push({ suite, hits: current });
  };
  const onTest = (test) => {
    collect();
    current = new Set();
    tests.set(test, { title: test.fullTitle(), hits: current, started: Date.now() });
  };
  const onEnd = (test) => {
    const t = tests.get(test);
    if (t) t.duration = Date.now() - t.started;
  };
  const onFail = (runnable) => {
    const t = tests.get(runnable);
    if (t) t.failed = true;
  };
  killedBy = undefined;
  bail = false;
  mocha.grep(/.*/);
  await new Promise((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('suite', onSuite);
    runner.on('test', onTest);
    runner.on('test end', onEnd);
    runner.on('fail', onFail);
  });
  collect();
  state.hits = undefined;
  const out = [];
  for (const [test, t] of tests) {
    const hits = new Set(t.hits);
    for (const { suite, hits: h } of suiteHits) {
      for (let s = test.parent; s; s = s.parent) if (s === suite) for (const id of h) hits.add(id);
    }
    out.push({ title: t.title, duration: t.duration ?? 0, failed: !!t.failed, hits: [...hits] });
  }
  return out;
}

/**
 * What the parent sends: load the test bundles, measure which tests reach which mutant, or run with one switched on.
 * @typedef {{ type: 'load', files: string[], timeout: number } | { type: 'coverage' } | { type: 'run', mutant: number, timeouts?: Record<string, number>, tests?: string[] }} Request
 */
process.on('message', async (/** @type {Request} */ msg) => {
  try {
    if (msg.type === 'load') {
      process.send({ type: 'loaded', ...(await load(msg.files, msg.timeout)) });
    } else if (msg.type === 'coverage') {
      process.send({ type: 'coverage', tests: await coverage() });
    } else if (msg.type === 'run') {
      state.active = msg.mutant;
      const timeouts = new Map(Object.entries(msg.timeouts || {}));
      for (const t of allTests(mocha.suite)) {
        if (t._acpTimeout === undefined) t._acpTimeout = t.timeout();
        t.timeout(timeouts.get(t.fullTitle()) ?? t._acpTimeout);
      }
      await run(msg.tests ? new Set(msg.tests) : undefined);
      state.active = -1;
      process.send({ type: 'result', mutant: msg.mutant, killedBy });
    }
  } catch (e) {
    process.send({ type: 'error', message: String((e && e.stack) || e) });
  }
});
// The run was stopped: nothing is left to do.
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
