// `npm run bench`: builds with the tests, runs each benchmark in turn and prints their tables,
// then a summary. Figures and ratios only: a slow figure never fails the run. Exits 1 only when
// a benchmark could not run (a build failure, a missing browser, a broken flow).
// Usage: node scripts/bench.mjs [sessionList] [chatReplay] [quickPick] [load] [flood] [library]
//   [windowsStart] [agentStop] [checkpoints] [worktrees] [searchAll]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostSetup } from './hostSetup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BENCHES = [
  {
    name: 'sessionList',
    title: '1. Session list (plain Node, real agent processes)',
    host: false,
    node: ['--expose-gc'],
  },
  { name: 'chatReplay', title: '2. Chat replay (code-server + Chromium)', host: true, node: [] },
  { name: 'quickPick', title: '3. Resume Session QuickPick (extension host)', host: true, node: [] },
  {
    name: 'load',
    title: '4. A 20,000-update load while another chat streams (code-server + Chromium)',
    host: true,
    node: [],
  },
  {
    name: 'flood',
    title: '5. The extension host while agents flood it (code-server + Chromium)',
    host: true,
    node: [],
  },
  {
    name: 'library',
    title:
      "6. Session library: search, size, memory and start per engine at 2,000 × 200, and on a chat's path (plain Node)",
    host: false,
    node: ['--expose-gc'],
  },
  {
    name: 'windowsStart',
    title: '7. Agent start on Windows: through a .cmd shim beside a direct node.exe (Wine)',
    host: false,
    node: [],
    wine: true,
  },
  {
    name: 'agentStop',
    title:
      "8. Stopping an agent: the host's search for what it started, with several hundred processes (plain Node, Linux)",
    host: false,
    node: [],
  },
  {
    name: 'checkpoints',
    title: '9. Checkpoints of a 50,000-file folder beside raw git (plain Node)',
    host: false,
    node: [],
  },
  {
    name: 'worktrees',
    title: '10. A session in a new worktree of a 50,000-file repository beside raw git worktree add (plain Node)',
    host: false,
    node: [],
  },
  {
    name: 'searchAll',
    title:
      '11. Search everything: per keystroke over 10,000 sessions of 5 agents and 20 folders, and opening a hit 10,000 entries up (plain Node, then code-server + Chromium)',
    host: true,
    node: [],
    // The first run builds its library of 2,000,000 messages into the test cache.
    timeoutMin: 45,
  },
];
const only = new Set(process.argv.slice(2));
const chosen = BENCHES.filter((b) => only.size === 0 || only.has(b.name));
const scratch = mkdtempSync(join(tmpdir(), 'acp-bench-'));
const results = join(scratch, 'results.jsonl');
const env = { ...process.env, ACP_BENCH_RESULTS: results };
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const outcomes = [];
const started = Date.now();

function heading(text) {
  console.log(`\n${'='.repeat(text.length)}\n${text}\n${'='.repeat(text.length)}`);
}

try {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log("Figures are this machine's, under whatever else runs on it; compare ratios across machines.");
  // The extension and the webview as they are packaged (minified): what users run.
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests', '--minify'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('the build failed: no benchmark was run');
    process.exit(1);
  }
  let hostReady;
  for (const bench of chosen) {
    heading(bench.title);
    const t0 = Date.now();
    if (bench.host) {
      if (hostReady === undefined) {
        try {
          const paths = hostSetup({ log: (m) => console.log(`host setup: ${m}`) });
          Object.assign(env, {
            ACP_NODE24_DIR: paths.node24Dir,
            ACP_CODE_SERVER: paths.codeServer,
            ACP_CHROMIUM: paths.chromium,
          });
          hostReady = true;
        } catch (e) {
          console.error(`host setup failed: ${e instanceof Error ? e.message : e}`);
          hostReady = false;
        }
      }
      if (!hostReady) {
        outcomes.push({ bench, ok: false, ms: 0, note: 'host setup failed' });
        continue;
      }
    }
    const script = join(root, 'out', 'test', 'bench', `${bench.name}.js`);
    if (bench.wine) {
      const skip = spawnSync('sh', ['-c', 'command -v wine'], { stdio: 'ignore' }).status !== 0;
      if (skip) {
        console.log('skipped: Wine is not installed (`npm run test:windows` installs it as root)');
        outcomes.push({ bench, ok: true, ms: 0, note: 'skipped: no Wine' });
        continue;
      }
      const lane = await import('./windowsLane.mjs');
      lane.windowsSetup();
      const code = lane.runUnderWine(['--enable-source-maps', script], {
        env: { ACP_BENCH_RESULTS: lane.winPath(results) },
      });
      outcomes.push({
        bench,
        ok: code === 0,
        ms: Date.now() - t0,
        note: code === 0 ? '' : `could not run (exit ${code})`,
      });
      continue;
    }
    const r = existsSync(script)
      ? spawnSync(process.execPath, [...bench.node, '--enable-source-maps', script], {
          cwd: root,
          env,
          stdio: 'inherit',
          timeout: (bench.timeoutMin ?? 15) * 60_000,
        })
      : { status: 1, signal: null };
    outcomes.push({
      bench,
      ok: r.status === 0,
      ms: Date.now() - t0,
      note: r.status === 0 ? '' : `could not run (exit ${r.status ?? r.signal})`,
    });
  }

  heading('Summary');
  const lines = existsSync(results)
    ? readFileSync(results, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const w = [0, 0, 0];
  const cells = lines.map((l) => [l.bench, l.what, l.value, l.note ?? '']);
  for (const c of cells) for (let i = 0; i < 3; i++) w[i] = Math.max(w[i], c[i].length);
  for (const c of cells) console.log(`${c[0].padEnd(w[0])}  ${c[1].padEnd(w[1])}  ${c[2].padStart(w[2])}  ${c[3]}`);
  console.log('');
  for (const o of outcomes)
    console.log(`${o.bench.name.padEnd(12)} ${seconds(o.ms).padStart(8)}  ${o.ok ? o.note || 'ran' : o.note}`);
  console.log(`${'total'.padEnd(12)} ${seconds(Date.now() - started).padStart(8)}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
