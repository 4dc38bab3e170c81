// Makes sure the pair the host tests need is present: code-server 4.139.1 (with the Node 24
// its postinstall insists on) in a cache dir outside the repo, and Debian's Chromium.
// Importable (`hostSetup()` returns the paths) and runnable (`node scripts/hostSetup.mjs`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = process.env.ACP_CHROMIUM || '/usr/bin/chromium';
const APT_COMMAND = 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium libkrb5-dev';

/** Where everything lives; computing it installs nothing. */
export function hostPaths() {
  const cacheDir = process.env.ACP_TEST_CACHE || join(homedir(), '.cache', 'acp-client-test');
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const node24Dir = join(cacheDir, 'n24', 'node_modules', 'node', 'node_modules', `node-linux-${arch}`);
  return {
    cacheDir,
    node24Dir,
    node24: join(node24Dir, 'bin', 'node'),
    codeServer: join(cacheDir, 'cs', 'node_modules', '.bin', 'code-server'),
    chromium: CHROMIUM,
  };
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, error: r.error };
}

function firstLine(cmd, args, env) {
  if (!existsSync(cmd)) return '';
  const r = run(cmd, args, { env, timeout: 60_000 });
  return r.ok ? r.out.trim().split('\n')[0] : '';
}

/** The environment code-server runs in: Node 24 first on PATH. */
export function codeServerEnv(paths = hostPaths(), base = process.env) {
  return { ...base, PATH: `${join(paths.node24Dir, 'bin')}:${base.PATH ?? ''}` };
}

/**
 * The environment without what an outer npm (`npm test`, `npm start`) exports: an inner npm
 * reads npm_config_user_agent as its own config and hands it to code-server's postinstall,
 * whose Node version check then sees the outer Node instead of Node 24.
 */
function withoutNpmEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD'));
}

function npmInstall(dir, spec, env, extra = []) {
  // A fresh package.json each time: a half-finished earlier install must not pin anything.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'acp-test-host', private: true }));
  const args = ['install', '--no-audit', '--no-fund', '--no-save', ...extra, spec];
  console.log(`host setup: npm ${args.join(' ')} (in ${dir})`);
  const r = spawnSync('npm', args, { cwd: dir, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm install ${spec} failed (exit ${r.status ?? r.signal})`);
}

function ensureNode24(paths, log) {
  if (firstLine(paths.node24, ['--version']) === `v${NODE_VERSION}`) {
    log(`Node ${NODE_VERSION}: present`);
    return;
  }
  const started = Date.now();
  npmInstall(join(paths.cacheDir, 'n24'), `node@${NODE_VERSION}`, withoutNpmEnv(process.env));
  const got = firstLine(paths.node24, ['--version']);
  if (got !== `v${NODE_VERSION}`)
    throw new Error(`Node ${NODE_VERSION} not found at ${paths.node24} after install (got "${got}")`);
  log(`Node ${NODE_VERSION}: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function codeServerVersion(paths) {
  if (!existsSync(paths.codeServer)) return '';
  // Its own XDG dir: a first run writes a default config file, which must not land in $HOME.
  const env = { ...codeServerEnv(paths), XDG_CONFIG_HOME: join(paths.cacheDir, 'xdg-config') };
  const r = run(paths.codeServer, ['--version'], { env, timeout: 60_000 });
  return /^(\d+\.\d+\.\d+) /m.exec(r.out)?.[1] ?? '';
}

function ensureCodeServer(paths, log, present) {
  if (present) {
    log(`code-server ${CODE_SERVER_VERSION}: present`);
    return;
  }
  const started = Date.now();
  const env = {
    ...codeServerEnv(paths, withoutNpmEnv(process.env)),
    // The user's ~/.npmrc may point node-gyp at another Node's headers; the native modules
    // must be built against Node 24, which code-server then runs on.
    npm_config_nodedir: paths.node24Dir,
    // npm 11 skips dependency install scripts unless allowed. code-server's postinstall
    // installs VS Code's own dependencies with nested npm runs that build native modules
    // (pty, spdlog, watcher, kerberos...), and those nested runs must not skip them either.
    // This cache holds nothing but this pinned code-server.
    npm_config_dangerously_allow_all_scripts: 'true',
  };
  npmInstall(join(paths.cacheDir, 'cs'), `code-server@${CODE_SERVER_VERSION}`, env, [`--nodedir=${paths.node24Dir}`]);
  const got = codeServerVersion(paths);
  if (got !== CODE_SERVER_VERSION)
    throw new Error(`code-server ${CODE_SERVER_VERSION} does not run after install (got "${got}")`);
  log(`code-server ${CODE_SERVER_VERSION}: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function aptInstalled(pkg) {
  return run('dpkg-query', ['-W', '-f=${Status}', pkg]).out.includes('install ok installed');
}

function ensureSystemPackages(paths, log, { chromium, krb }) {
  const missing = [];
  if (chromium && !existsSync(paths.chromium)) missing.push('chromium');
  // libkrb5-dev is what code-server's native kerberos module builds against.
  if (krb && existsSync('/usr/bin/dpkg-query') && !aptInstalled('libkrb5-dev')) missing.push('libkrb5-dev');
  if (missing.length === 0) {
    if (chromium) log(`Chromium: ${firstLine(paths.chromium, ['--version']) || paths.chromium}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    const why = process.env.CI === 'true' && chromium ? ' (CI=true: a missing browser is an error)' : '';
    throw new Error(`missing ${missing.join(', ')}${why}. Install as root:\n  sudo sh -c '${APT_COMMAND}'`);
  }
  const started = Date.now();
  log(`installing ${missing.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt-get (a second test run, an unattended upgrade) may hold dpkg's lock: wait for it.
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  for (const args of [
    ['-qq', ...wait, 'update'],
    ['-qq', ...wait, 'install', '-y', ...missing],
  ]) {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed; run: ${APT_COMMAND}`);
  }
  if (chromium && !existsSync(paths.chromium)) throw new Error(`${paths.chromium} still missing after apt-get`);
  log(`${missing.join(', ')}: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * Installs what is missing and returns the paths. Throws with the command to run when it
 * cannot. `browser: false` (the demo) skips Chromium.
 */
export function hostSetup({ log = (m) => console.log(`host setup: ${m}`), browser = true } = {}) {
  const paths = hostPaths();
  mkdirSync(paths.cacheDir, { recursive: true });
  // System packages first: the code-server build needs libkrb5-dev.
  const present = codeServerVersion(paths) === CODE_SERVER_VERSION;
  ensureSystemPackages(paths, log, { chromium: browser, krb: !present });
  ensureNode24(paths, log);
  ensureCodeServer(paths, log, present);
  return paths;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const started = Date.now();
    const paths = hostSetup();
    console.log(`host setup: ready in ${((Date.now() - started) / 1000).toFixed(1)} s (cache ${paths.cacheDir})`);
  } catch (e) {
    console.error(`host setup failed: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
