// `npm test`: build, typecheck, lint, then every kind of test, each under its own heading,
// and one final line "N passed, M failed[, K skipped]". Exits non-zero on any failure.
// A failing build, typecheck or lint counts as one failure.
// Options: --only build,typecheck,lint,unit,integration,webview,vscode,e2e
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeAcpSetup, hostSetup, node24Setup } from './hostSetup.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const KINDS = ['build', 'typecheck', 'lint', 'unit', 'integration', 'webview', 'vscode', 'e2e'];
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

// A kind that hangs (a leaked child, a test that never ends) must not hold CI until its limit.
const KIND_TIMEOUT_MS = Number(process.env.ACP_KIND_TIMEOUT_MS) || 20 * 60_000;

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, ...extraEnv },
    timeout: KIND_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  if (r.error) console.error(r.error.message);
  if (r.signal)
    console.error(
      `${args[0]} ended by ${r.signal}${r.signal === 'SIGKILL' ? ` (over ${KIND_TIMEOUT_MS / 60_000} min?)` : ''}`,
    );
  return r.status ?? 1;
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

function readCounts(file, exitCode) {
  const counts = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { passed: 0, failed: 0, skipped: 0 };
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

function mochaKind(kind, title, dir, config) {
  if (!only.has(kind)) return;
  heading(title);
  const started = Date.now();
  const files = testFiles(dir);
  if (files.length === 0) {
    record(kind, { passed: 0, failed: 0, skipped: 0 }, 0, `(no test files in ${dir})`);
    return;
  }
  const countsFile = join(scratch, `${kind}.json`);
  const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const code = run(
    process.execPath,
    [mocha, '--config', config, '--reporter', join(root, 'scripts', 'countingReporter.cjs')],
    {
      ACP_COUNTS_FILE: countsFile,
    },
  );
  record(kind, readCounts(countsFile, code), Date.now() - started, `(${files.length} file(s))`);
}

function vscodeKind() {
  if (!only.has('vscode')) return;
  heading('Extension-host suites (code-server + Chromium)');
  const started = Date.now();
  const files = testFiles('out/test/vscode/suite');
  if (files.length === 0) {
    record('vscode', { passed: 0, failed: 0, skipped: 0 }, 0, '(no suites in out/test/vscode/suite)');
    return;
  }
  const countsFile = join(scratch, 'vscode.json');
  const code = run(
    process.execPath,
    ['--enable-source-maps', join(root, 'out', 'test', 'host', 'runVscodeSuites.js')],
    {
      ACP_COUNTS_FILE: countsFile,
    },
  );
  record('vscode', readCounts(countsFile, code), Date.now() - started, `(${files.length} file(s))`);
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
  step('typecheck', 'Typecheck (tsc --noEmit)', [
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--noEmit'],
  ]);
  step(
    'lint',
    'Lint (eslint src test; the import graph of src has no cycle)',
    [process.execPath, [join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), 'src', 'test']],
    [process.execPath, [join(root, 'node_modules', 'dpdm', 'lib', 'bin', 'dpdm.js'), ...CYCLES_ARGS]],
  );
  if (!built) {
    console.error('\nthe build failed: no tests were run');
  } else {
    mochaKind('unit', 'Unit tests', 'out/test/unit', '.mocharc.unit.json');
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
    mochaKind(
      'integration',
      'Integration tests (real agent processes)',
      'out/test/integration',
      '.mocharc.integration.json',
    );
    const browserKinds = ['webview', 'vscode', 'e2e'].filter((k) => only.has(k));
    if (browserKinds.length > 0) {
      if (setupHost()) {
        mochaKind(
          'webview',
          'Chat webview in Chromium (replay, security)',
          'out/test/webview',
          '.mocharc.webview.json',
        );
        vscodeKind();
        if (only.has('e2e'))
          mochaKind('e2e', 'UI end-to-end (Playwright + Chromium)', 'out/test/e2e', '.mocharc.e2e.json');
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
