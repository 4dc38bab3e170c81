// Benchmark 3: "ACP: Resume Session" in a real extension host (code-server + Chromium) over a
// folder of 10,000 sessions. The suite in test/bench/suites/quickPick measures inside the host;
// this driver seeds, runs it, adds when the rows appeared in the workbench, and prints. Then it
// runs the Sessions view's host figures (test/bench/sessionsView.ts).
// Usage: node out/test/bench/quickPick.js
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SELECTORS } from '../host/browser';
import { createFixture } from '../host/fixture';
import { startBare } from './bare';
import { failureShot, startHostRun } from './hostRun';
import { count, ms, ratio, summary, table } from './lib';
import { sessionsViewBench } from './sessionsView';
import type { ProbeState } from './probe';
import { TYPED, type KeystrokeFigures, type RefreshFigures } from './suites/quickPick/keystrokes';
import { writeSignal } from './signal';

const TOTAL = 10_000;
const B = 'QuickPick';

interface Loop {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
}
interface Results {
  cold: { at: number; firstRowsMs: number; rows: number; settledMs: number; paged: number; loop: Loop };
  second: { at: number; firstRowsMs: number; rows: number };
  search: { prefix: string; foundMs?: number; listed: number; loop: Loop };
  withView: { firstRowsMs: number; settledMs: number; paged: number; loop: Loop };
  keystrokes: KeystrokeFigures[];
  refresh: RefreshFigures;
}

/** The oldest session: the agent lists it on its last page. */
async function lastPageSession(store: string, cwd: string): Promise<string> {
  const bare = await startBare(store, ['--page-size', '5000']);
  try {
    let cursor: string | undefined;
    let last: string | undefined;
    do {
      const page = await bare.agent.request('session/list', cursor ? { cwd, cursor } : { cwd });
      last = page.sessions.at(-1)?.sessionId ?? last;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    if (!last) throw new Error('the agent listed no sessions');
    return last;
  } finally {
    await bare.stop();
  }
}

const loopText = (l: Loop) => `max ${ms(l.maxMs)}, p99 ${ms(l.p99Ms)}`;

async function main(): Promise<number> {
  const fixture = createFixture({ sessions: TOTAL, turns: 1 });
  const target = await lastPageSession(fixture.storeDir, fixture.folders[0]!);
  const run = await startHostRun(
    { ...fixture, env: { ...fixture.env, ACP_BENCH_TARGET_ID: target } },
    'quickPick',
    720_000,
  );
  try {
    // The suite asks for its search to be typed into the QuickPick's input box.
    const typing = (async () => {
      const ask = join(run.ctl, 'type.json');
      while (!existsSync(ask)) {
        if (await Promise.race([run.exit.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))])) return;
      }
      const { prefix } = JSON.parse(readFileSync(ask, 'utf8')) as { prefix: string };
      const input = run.page.locator(SELECTORS.quickInput);
      await input.click();
      // Pasted, as an id is: the whole prefix arrives at once, and the clock starts with it.
      const at = Date.now();
      await input.fill(prefix);
      writeSignal(join(run.ctl, 'typed'), String(at));
    })();
    const code = await run.exit;
    await typing.catch((e: unknown) => console.error(`typing the search failed: ${String(e)}`));
    const file = `${run.ctl}/quickPick.json`;
    if (code !== 0 || !existsSync(file)) {
      await failureShot(run, 'quickPick');
      console.error(run.log.slice(-40).join('\n'));
      throw new Error(`the QuickPick suite ${code === -1 ? 'timed out' : `failed (exit ${code})`}`);
    }
    const r = JSON.parse(readFileSync(file, 'utf8')) as Results;
    const shown = await run.page.evaluate(
      () => (window as unknown as { __acpBench?: ProbeState }).__acpBench?.quickRows ?? [],
    );
    const domFirst = (at: number) => shown.find((s) => s.rows > 0 && s.at >= at)?.at;
    const coldDom = domFirst(r.cold.at);
    table(
      `Resume Session QuickPick: ${count(TOTAL)} sessions in the folder (agent pages of 50)`,
      ['', 'extension host', 'rows in the workbench DOM', 'note'],
      [
        [
          'command → first rows, cold (agent starts, nothing cached)',
          ms(r.cold.firstRowsMs),
          ms(coldDom && coldDom - r.cold.at),
          `${count(r.cold.rows)} rows`,
        ],
        ['command → first rows, second open', ms(r.second.firstRowsMs), '', `${count(r.second.rows)} rows`],
        ['cold open → background paging settled', ms(r.cold.settledMs), '', `${count(r.cold.paged)} rows (pick limit)`],
        [
          `paste "${r.search.prefix}" → session from the last page listed`,
          r.search.foundMs === undefined ? 'not within 150 s' : ms(r.search.foundMs),
          '',
          `paged on to ${count(r.search.listed)}`,
        ],
      ],
    );
    table(
      'Extension host event loop during background paging (monitorEventLoopDelay)',
      ['', 'max delay', 'p99', 'mean', 'time'],
      [
        [
          'cold open, paging to 5,000',
          ms(r.cold.loop.maxMs),
          ms(r.cold.loop.p99Ms),
          ms(r.cold.loop.meanMs),
          ms(r.cold.settledMs),
        ],
        [
          'id search, paging to 10,000',
          ms(r.search.loop.maxMs),
          ms(r.search.loop.p99Ms),
          ms(r.search.loop.meanMs),
          ms(r.search.foundMs ?? 150_000),
        ],
        [
          'paging to 5,000 with the Sessions view visible',
          ms(r.withView.loop.maxMs),
          ms(r.withView.loop.p99Ms),
          ms(r.withView.loop.meanMs),
          ms(r.withView.settledMs),
        ],
      ],
    );
    console.log(
      `  With the Sessions view visible, paging took ${ratio(r.withView.settledMs, r.cold.settledMs)} as long as with it hidden.`,
    );
    for (const k of r.keystrokes)
      table(
        `Resume Session per keystroke: "${TYPED}" typed a character every ${k.everyMs} ms over ${count(k.rows)} rows, ${k.kept} sessions kept`,
        ['', 'all keystrokes', 'per keystroke'],
        [
          ['renders (items handed to the workbench)', count(k.renders), (k.renders / k.keystrokes).toFixed(2)],
          ['items handed over', count(k.itemsSent), count(k.itemsSent / k.keystrokes)],
          ['host time in renders', ms(k.renderMs), ms(k.renderMs / k.keystrokes)],
          ["content searches sent to the library's worker", count(k.searches), (k.searches / k.keystrokes).toFixed(2)],
          ['last keystroke → its search answered, its rows shown', ms(k.settleMs), ''],
          ['host event loop while typing: max / p99', `${ms(k.loop.maxMs)} / ${ms(k.loop.p99Ms)}`, ''],
        ],
      );
    table(
      `Sessions view: getChildren() of the root over ${count(r.refresh.rows)} rows (median of ${r.refresh.runs})`,
      ['', 'time'],
      [
        ['a refresh, the list unchanged', ms(r.refresh.unchangedMs)],
        ["a refresh after a row's time moved", ms(r.refresh.changedMs)],
      ],
    );
    summary(
      B,
      'command → first rows (cold / second open)',
      `${ms(r.cold.firstRowsMs)} / ${ms(r.second.firstRowsMs)}`,
      coldDom ? `cold, rows in the DOM: ${ms(coldDom - r.cold.at)}` : undefined,
    );
    summary(
      B,
      'id prefix → session on the last page',
      r.search.foundMs === undefined ? 'not within 150 s' : ms(r.search.foundMs),
      `${count(r.search.listed)} listed`,
    );
    for (const k of r.keystrokes)
      summary(
        B,
        `per keystroke every ${k.everyMs} ms: renders / searches / host ms`,
        `${(k.renders / k.keystrokes).toFixed(2)} / ${(k.searches / k.keystrokes).toFixed(2)} / ${ms(k.renderMs / k.keystrokes)}`,
        `${count(k.rows)} rows`,
      );
    summary(
      'Sessions view',
      `getChildren over ${count(r.refresh.rows)} rows: unchanged / after a change`,
      `${ms(r.refresh.unchangedMs)} / ${ms(r.refresh.changedMs)}`,
    );
    summary(
      B,
      'host event loop max delay while paging',
      `${ms(r.cold.loop.maxMs)} / ${ms(r.search.loop.maxMs)}`,
      `view visible: ${loopText(r.withView.loop)}`,
    );
  } finally {
    await run.dispose();
  }
  // The Sessions view's figures need an extension host too: a second world, run here.
  await sessionsViewBench();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`QuickPick benchmark could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
