// Benchmark 5: the extension host's memory while agents flood it, in a real VS Code (code-server
// + Chromium). The suite in test/bench/suites/flood runs each flood in a chat of its own and
// samples the host's memory; this driver prints what it measured, and what the guard that stops
// agents when the host is killed costs (in plain Node, on this machine). Figures only.
// Usage: node out/test/bench/flood.js  (ACP_BENCH_FLOOD_READS=60,200 picks the read floods)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ProcessGuard } from '../../src/agent/guard';
import { createFixture } from '../host/fixture';
import { failureShot, startHostRun } from './hostRun';
import { bytes, ms, summary, table } from './lib';
import type { Memory, Results } from './suites/flood/flood.test';

const B = 'flood';
const both = (m: Memory) => `${bytes(m.held)} / ${bytes(m.rss)}`;

/** Starting the guard, what it holds, and what telling it of a group costs. */
async function guardCost(): Promise<{ startMs: number; rssKiB: number; perLineUs: number }> {
  const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  try {
    const guard = new ProcessGuard();
    const started = performance.now();
    guard.watchGroup(sleeper.pid!);
    const startMs = performance.now() - started;
    const status = () => (guard.pid ? readFileSync(`/proc/${guard.pid}/status`, 'utf8') : '');
    const end = Date.now() + 5000;
    // Once it waits on its input, what it holds is what it keeps.
    while (!/State:\s+S/.test(status()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const rssKiB = Number(/VmRSS:\s+(\d+) kB/.exec(status())?.[1] ?? 0);
    const n = 1000;
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      guard.watchMark(`bench-${i}`);
      guard.forgetMark(`bench-${i}`);
    }
    const perLineUs = ((performance.now() - t) * 1000) / (2 * n);
    guard.forgetGroup(sleeper.pid!);
    return { startMs, rssKiB, perLineUs };
  } finally {
    sleeper.kill('SIGKILL');
  }
}

async function main(): Promise<number> {
  const fixture = createFixture({
    sessions: 1,
    turns: 1,
    secondAgent: { id: 'text', name: 'Text agent', agentArgs: ['--stdout-text'] },
  });
  const run = await startHostRun(fixture, 'flood', 900_000);
  let r: Results;
  try {
    const code = await run.exit;
    const file = `${run.ctl}/flood.json`;
    if (code !== 0 || !existsSync(file)) {
      await failureShot(run, 'flood');
      console.error(run.log.slice(-40).join('\n'));
      throw new Error(`the flood suite ${code === -1 ? 'timed out' : `failed (exit ${code})`}`);
    }
    r = JSON.parse(readFileSync(file, 'utf8')) as Results;
  } finally {
    await run.dispose();
  }
  table(
    "The extension host's memory while an agent floods it (held: heap + external + array buffers / RSS)",
    ['flood', 'before', 'peak', 'after (collected)', 'time', 'what happened'],
    r.floods.map((f) => [f.name, both(f.before), both(f.peak), both(f.after), ms(f.ms), f.outcome.slice(0, 90)]),
  );
  console.log(
    `  An agent that prints text for every answer it reads got ${r.pingPong.answeredPerSecond} answers in a second (${r.pingPong.notJson} lines that were not JSON in all).`,
  );
  for (const f of r.floods)
    summary(
      B,
      `host memory: ${f.name}`,
      `peak ${bytes(f.peak.held - f.before.held)}, kept ${bytes(f.after.held - f.before.held)}`,
      f.outcome.slice(0, 60),
    );
  summary(B, 'parse-error answers to an agent that answers each', `${r.pingPong.answeredPerSecond} per second`);

  const g = await guardCost();
  table(
    'The guard that stops agents when the host is killed outright (one `sh` per extension host)',
    ['', 'figure'],
    [
      ['start (spawn, with the first agent)', ms(g.startMs)],
      ['memory (RSS of the waiting watcher)', `${g.rssKiB} KiB`],
      ['in the extension host (RSS)', r.guard ? `${r.guard.rssKiB} KiB` : 'not found'],
      ['telling it of a group or mark (one pipe write)', `${g.perLineUs.toFixed(1)} µs`],
    ],
  );
  summary(
    B,
    'process guard: start / memory / per message',
    `${ms(g.startMs)} / ${g.rssKiB} KiB / ${g.perLineUs.toFixed(1)} µs`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`flood benchmark could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
