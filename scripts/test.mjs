// `npm test`: build, typecheck, lint, then every kind of test, each under its own heading,
// and one final line "N passed, M failed[, K skipped]". Exits non-zero on any failure.
// A failing build, typecheck or lint counts as one failure.
// Options: --only build,typecheck,lint,unit,integration,windows,webview,vscode,e2e
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeAcpSetup, hostSetup, node24Setup } from './hostSetup.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const KINDS = ['build', 'typecheck', 'lint', 'unit', 'integration', 'windows', 'webview', 'vscode', 'e2e'];
/** `npm run cycles`: dpdm fails when any import cycle (type-only ones too) is found in src. */
const CYCLES_ARGS = [
  '--no-tree',
  '--no-warning',
  '--no-progress',
  '--circular',
  '--exit-code',
  'circular:1',
  'src/**/*.ts',
];

function parseOnly(argv) {
  const i = argv.indexOf('--only');
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (!value) return new Set(KINDS);
  const wanted = value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = wanted.filter((k) => !KINDS.includes(k));
  if (unknown.length > 0) {
    console.error(`unknown kind(s): ${unknown.join(', ')}; known: ${KINDS.join(', ')}`);
    process.exit(2);
  }
  return new Set(wanted);
}

const only = parseOnly(process.argv.slice(2));
const scratch = mkdtempSync(join(tmpdir(), 'acp-test-'));
const results = [];
const env = { ...process.env };

function heading(title) {
  console.log(`\n${'='.repeat(78)}\n== ${title}\n${'='.repeat(78)}`);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function record(kind, counts, ms, note = '') {
  results.push({ kind, ...counts, ms, note });
  const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
  console.log(
    `-- ${kind}: ${counts.passed} passed, ${counts.failed} failed${skipped} (${seconds(ms)})${note ? ` ${note}` : ''}`,
  );
}

// A step that hangs (build, typecheck, lint) must not hold CI until its limit.
const STEP_TIMEOUT_MS = 20 * 60_000;
/**
 * The test kinds are watched instead. A kind may run as long as its work needs: a budget per
 * test file (per suite folder for the extension-host kind), so a kind's cap grows with what it
 * runs and not with the machine's clock alone; a kind on a machine busy with other work goes
 * on as long as its tests keep finishing. What ends a kind early is a stall: no test finished
 * for STALL_MS. $ACP_KIND_TIMEOUT_MS replaces every kind's cap.
 */
const PER_FILE_MS = { unit: 60_000, integration: 180_000, webview: 300_000, vscode: 600_000, e2e: 400_000 };
const STALL_MS = Number(process.env.ACP_STALL_MS) || 10 * 60_000;
const minutes = (ms) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, ...extraEnv },
    timeout: STEP_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  if (r.error) console.error(r.error.message);
  if (r.signal)
    console.error(
      `${args[0]} ended by ${r.signal}${r.signal === 'SIGKILL' ? ` (over ${minutes(STEP_TIMEOUT_MS)}?)` : ''}`,
    );
  return r.status ?? 1;
}

/** The test command under way, ended with its whole process group if this script is stopped. */
let current;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    if (current) killGroup(current);
    process.exit(130);
  });

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Runs a kind's test command in a process group of its own, watching `countsFile` (rewritten as
 * each test ends): the group is ended when the kind passes `capMs`, or when no test finished for
 * STALL_MS. Resolves with the exit code and, when it was ended, why.
 */
function runWatched(cmd, args, extraEnv, { capMs, countsFile }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, ...extraEnv },
      detached: true,
    });
    current = child;
    let ended;
    let seen = '';
    let progressAt = started;
    const watch = setInterval(() => {
      const now = existsSync(countsFile) ? readFileSync(countsFile, 'utf8') : '';
      if (now !== seen) {
        seen = now;
        progressAt = Date.now();
      }
      if (Date.now() - started > capMs) ended = `ran past its cap of ${minutes(capMs)}`;
      else if (Date.now() - progressAt > STALL_MS) ended = `had no test finish for ${minutes(STALL_MS)}`;
      if (ended) {
        clearInterval(watch);
        console.error(`${args.at(-1)}: ${ended}; ending it`);
        killGroup(child);
      }
    }, 2000);
    child.on('error', (e) => console.error(e.message));
    child.on('close', (code, signal) => {
      clearInterval(watch);
      current = undefined;
      resolve({ code: code ?? (signal ? 1 : 0), ended });
    });
  });
}

/** A kind's cap: its budget per file, or $ACP_KIND_TIMEOUT_MS. */
function capOf(kind, units) {
  return Number(process.env.ACP_KIND_TIMEOUT_MS) || PER_FILE_MS[kind] * Math.max(1, units);
}

/** A step whose only outcome is ok or not (build, typecheck, lint): each command in turn, until one fails. */
function step(kind, title, ...commands) {
  if (!only.has(kind)) return true;
  heading(title);
  const started = Date.now();
  const ok = commands.every(([cmd, args]) => run(cmd, args) === 0);
  results.push({
    kind,
    passed: 0,
    failed: ok ? 0 : 1,
    skipped: 0,
    ms: Date.now() - started,
    note: ok ? 'ok' : 'FAILED',
  });
  console.log(`-- ${kind}: ${ok ? 'ok' : 'FAILED'} (${seconds(Date.now() - started)})`);
  return ok;
}

function testFiles(dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.js'));
}

/**
 * What a kind's run reported: its counts as of its last finished test. A run that was ended
 * keeps what passed and counts one failure more, naming the test or suite it was in.
 */
function readCounts(file, exitCode, ended) {
  let counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    if (existsSync(file)) counts = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Cut off while being written: the counts before it are lost, the failure is not.
  }
  if (ended) {
    counts.failed += 1;
    const where = counts.current ? ` while in "${counts.current}"` : ' before its first test';
    counts.failures = [...(counts.failures ?? []), `${ended}${where}`];
    return counts;
  }
  // A run that crashed before reporting, or failed outside a test, still counts as a failure.
  if (exitCode !== 0 && counts.failed === 0) {
    counts.failed = 1;
    counts.failures = [
      ...(counts.failures ?? []),
      `failed outside a test (exit code ${exitCode}): see its output above`,
    ];
  }
  return counts;
}

/**
 * Runs one kind's mocha files. `node`: another Node than this one; `nodeArgs`: its options;
 * `files`: the folder of the kind's files to run (all of the config's `spec` otherwise);
 * `label`: the kind's name in the summary.
 * @param {string} kind
 * @param {string} title
 * @param {string} dir
 * @param {string} config
 * @param {{ node?: string, nodeArgs?: string[], files?: string, label?: string }} [options]
 */
async function mochaKind(kind, title, dir, config, options = {}) {
  const { node = process.execPath, nodeArgs = [], files: glob, label = kind } = options;
  if (!only.has(kind)) return;
  heading(title);
  const started = Date.now();
  const files = testFiles(dir)
    .map((f) => join(dir, f))
    .filter((f) => !glob || f.startsWith(`${glob}/`));
  if (files.length === 0) {
    record(label, { passed: 0, failed: 0, skipped: 0 }, 0, `(no test files in ${glob ?? dir})`);
    return;
  }
  const countsFile = join(scratch, `${label}.json`);
  const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const { code, ended } = await runWatched(
    node,
    [
      ...nodeArgs,
      mocha,
      // The config's own spec would add every file of the kind to the ones named.
      ...(glob
        ? ['--no-config', '--timeout', '10000', '--enable-source-maps', '--exit', ...files]
        : ['--config', config]),
      '--reporter',
      join(root, 'scripts', 'countingReporter.cjs'),
    ],
    { ACP_COUNTS_FILE: countsFile },
    { capMs: capOf(kind, files.length), countsFile },
  );
  record(label, readCounts(countsFile, code, ended), Date.now() - started, `(${files.length} file(s))`);
}

async function vscodeKind() {
  if (!only.has('vscode')) return;
  heading('Extension-host suites (code-server + Chromium)');
  const started = Date.now();
  const files = testFiles('out/test/vscode/suite');
  const folders = new Set(files.map((f) => dirname(f)));
  if (files.length === 0) {
    record('vscode', { passed: 0, failed: 0, skipped: 0 }, 0, '(no suites in out/test/vscode/suite)');
    return;
  }
  const countsFile = join(scratch, 'vscode.json');
  const { code, ended } = await runWatched(
    process.execPath,
    ['--enable-source-maps', join(root, 'out', 'test', 'host', 'runVscodeSuites.js')],
    { ACP_COUNTS_FILE: countsFile },
    { capMs: capOf('vscode', folders.size), countsFile },
  );
  record('vscode', readCounts(countsFile, code, ended), Date.now() - started, `(${files.length} file(s))`);
}

/** The Windows lane (scripts/windowsLane.mjs): node.exe under Wine, which it installs when missing. */
function windowsKind() {
  if (!only.has('windows')) return;
  heading('Windows lane (node.exe under Wine: unit suite, .cmd shims, process trees)');
  const started = Date.now();
  const countsFile = join(scratch, 'windows.json');
  const code = run(process.execPath, [join(root, 'scripts', 'windowsLane.mjs')], { ACP_COUNTS_FILE: countsFile });
  record('windows', readCounts(countsFile, code), Date.now() - started);
}

function setupHost() {
  heading('Host setup (Node 24, code-server, Chromium)');
  const started = Date.now();
  try {
    const paths = hostSetup();
    Object.assign(env, {
      ACP_NODE24_DIR: paths.node24Dir,
      ACP_CODE_SERVER: paths.codeServer,
      ACP_CHROMIUM: paths.chromium,
    });
    console.log(`-- host setup: ready (${seconds(Date.now() - started)})`);
    return true;
  } catch (e) {
    console.error(`host setup failed: ${e instanceof Error ? e.message : e}`);
    return false;
  }
}

const startedAll = Date.now();
try {
  const built = step('build', 'Build (esbuild, with tests)', [process.execPath, ['esbuild.mjs', '--tests']]);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  step(
    'typecheck',
    'Typecheck (tsc --noEmit: src and test, then scripts and the build files)',
    [process.execPath, [tsc, '-p', '.', '--noEmit']],
    [process.execPath, [tsc, '-p', 'scripts']],
  );
  step(
    'lint',
    'Lint (eslint src test; the import graph of src has no cycle)',
    [process.execPath, [join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), 'src', 'test']],
    [process.execPath, [join(root, 'node_modules', 'dpdm', 'lib', 'bin', 'dpdm.js'), ...CYCLES_ARGS]],
  );
  if (!built) {
    console.error('\nthe build failed: no tests were run');
  } else {
    await mochaKind('unit', 'Unit tests', 'out/test/unit', '.mocharc.unit.json');
    // The library runs on the host's own SQLite where its Node has one (code-server's Node 24,
    // VS Code's Node 22): its unit tests run there too, on node:sqlite.
    let node24;
    if (only.has('unit')) {
      try {
        node24 = node24Setup().node24;
      } catch (e) {
        console.error(`Node 24 for the library's unit tests: ${e instanceof Error ? e.message : e}`);
        record('unit (node:sqlite)', { passed: 0, failed: 1, skipped: 0 }, 0, '(Node 24 could not be installed)');
      }
    }
    if (node24)
      await mochaKind(
        'unit',
        "The library's unit tests on Node 24 (node:sqlite)",
        'out/test/unit',
        '.mocharc.unit.json',
        {
          node: node24,
          files: 'out/test/unit/library',
          label: 'unit (node:sqlite)',
        },
      );
    if (only.has('integration')) {
      // The library's crash test runs its writers on Node 24's own SQLite as well; its instant
      // reopen is tested against the real Claude Code adapter (which needs Node 22 or later).
      try {
        env.ACP_NODE24_DIR = node24Setup().node24Dir;
        env.ACP_CLAUDE_ACP = claudeAcpSetup().claudeAcp;
      } catch (e) {
        console.error(`Node 24 and claude-agent-acp for the integration tests: ${e instanceof Error ? e.message : e}`);
      }
    }
    await mochaKind(
      'integration',
      'Integration tests (real agent processes)',
      'out/test/integration',
      '.mocharc.integration.json',
      // These tests end hundreds of worker threads (the library's, and writers killed on
      // purpose). Node 20, which runs them here, unregisters an ending worker's isolate from
      // the platform before disposing of it, and an optimizing compile for that worker still
      // running on a background thread in between aborts the whole process (node_platform.cc,
      // ForIsolate: "Assertion failed: (data.first) != nullptr"; later Node disposes through
      // the platform). Optimizing on each thread's own time closes that window; what is tested
      // is unchanged.
      { nodeArgs: ['--no-concurrent-recompilation'] },
    );
    windowsKind();
    const browserKinds = ['webview', 'vscode', 'e2e'].filter((k) => only.has(k));
    if (browserKinds.length > 0) {
      if (setupHost()) {
        await mochaKind(
          'webview',
          'Chat webview in Chromium (replay, security)',
          'out/test/webview',
          '.mocharc.webview.json',
        );
        await vscodeKind();
        if (only.has('e2e'))
          await mochaKind('e2e', 'UI end-to-end (Playwright + Chromium)', 'out/test/e2e', '.mocharc.e2e.json');
      } else {
        for (const kind of browserKinds) {
          record(kind, { passed: 0, failed: 1, skipped: 0 }, 0, '(host setup failed)');
        }
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

heading('Summary');
const total = { passed: 0, failed: 0, skipped: 0 };
for (const r of results) {
  total.passed += r.passed;
  total.failed += r.failed;
  total.skipped += r.skipped;
  const counts = ['build', 'typecheck', 'lint'].includes(r.kind)
    ? r.note
    : `${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${r.note ? ` ${r.note}` : ''}`;
  console.log(`${r.kind.padEnd(12)} ${seconds(r.ms).padStart(8)}  ${counts}`);
}
console.log(`${'total'.padEnd(12)} ${seconds(Date.now() - startedAll).padStart(8)}`);
// Repeated here, last, so that a log cut to its tail still says which tests failed.
const failures = results.flatMap((r) => (r.failures ?? []).map((f) => `${r.kind}: ${f}`));
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);
