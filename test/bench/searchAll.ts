// Benchmark 11: search every agent and folder at once, and land on the message. First the
// search Resume Session runs per keystroke over 10,000 kept sessions (searchKeys.ts, run under
// a Node with node:sqlite, as the extension host has), "everything" beside "this folder" and
// beside the filters. Then, in the real workbench (code-server + Chromium, the reference agent),
// opening a hit: a 20,000-update session kept by the library, its hit 10,000 entries up, beside
// a hit in a small session of the folder: from a click on the hit's row to the highlighted words
// in view in the chat webview (measured there, in a frame's callback).
// Usage: node out/test/bench/searchAll.js   (ACP_BENCH_SEARCH_OPEN_ONLY=1: the second part only)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { createFixture, plantWord, seedSessions } from '../host/fixture';
import { nodeWithSqlite } from '../support/nodes';
import { repoRoot } from '../support/refAgent';
import { failureShot, startHostRun, traceIfAsked, waitForFile } from './hostRun';
import { count, median, ms, summary, table } from './lib';
import { waitFor } from '../support/wait';
import { probe, type ProbeState } from './probe';
import { writeSignal } from './signal';
import type { OpenTarget } from './suites/searchOpen/searchOpen.test';

const B = 'searchAll';
/** Seeded turns that replay as 20,005 updates (see test/agent/content.ts). */
const TURNS_20K = 8334;
const SMALL_TURNS = 40;
/** How far up the big session's hit is: entries after it. */
const UP = 10_000;
/** Opens of each hit (median, and each shown). */
const RUNS = 3;
/** How long the current match may take after the words show before it is reported n/a. */
const CURRENT_WAIT_MS = 5_000;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const readProbe = (f: Frame) =>
  f.evaluate(() => {
    const b = (window as unknown as { __acpBench?: ProbeState }).__acpBench;
    return b && b.kind === 'webview' ? b : undefined;
  });

/**
 * The webview's frame and probe once it saw the highlighted words in view after `since`. A frame
 * the init script did not reach (written with document.open()) gets the probe late, and says so.
 */
async function highlighted(frames: () => Frame[], since: number, ms: number): Promise<{ frame: Frame; p: ProbeState }> {
  const end = Date.now() + ms;
  for (;;) {
    for (const frame of frames()) {
      if (frame.isDetached()) continue;
      const p = await readProbe(frame).catch(() => undefined);
      if (p?.highlightAt !== undefined && p.highlightAt >= since) return { frame, p };
      if (p) continue;
      const bare = await frame
        .evaluate(
          () =>
            (window as unknown as { __acpBench?: ProbeState }).__acpBench?.kind !== 'webview' &&
            !!document.getElementById('app'),
        )
        .catch(() => false);
      if (bare) {
        await frame.evaluate(() => delete (window as unknown as { __acpBench?: unknown }).__acpBench);
        await frame.evaluate(probe);
        await frame.evaluate(() => ((window as unknown as { __acpBench: ProbeState }).__acpBench.late = true));
      }
    }
    if (Date.now() > end) {
      const seen = await Promise.all(
        frames().map((f) =>
          readProbe(f)
            .then((p) => JSON.stringify(p && { ...p, longtasks: p.longtasks.length }))
            .catch((e: unknown) => String(e).slice(0, 80)),
        ),
      );
      throw new Error(`the highlighted words did not come into view after ${since}; probes:\n  ${seen.join('\n  ')}`);
    }
    // Often, so that a frame the init script missed gets the probe before the words show.
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface HostStep {
  step: string;
  at: number;
  detail?: string;
}

/**
 * The chat's start as its frame's timeline has it, in epoch milliseconds: the webview's outer
 * frame and the chat's document began, our script was fetched and began, the snapshot and the
 * reveal came (the marks of src/webview). Read whenever the probe came: the timeline keeps them.
 */
async function frameSteps(frame: Frame): Promise<Record<string, number | undefined>> {
  const inner = await frame.evaluate(() => {
    const at = (name: string) => {
      const e = performance.getEntriesByName(name, 'mark')[0];
      return e ? performance.timeOrigin + e.startTime : undefined;
    };
    const script = performance.getEntriesByType('resource').find((e) => e.name.includes('webview.js')) as
      PerformanceResourceTiming | undefined;
    return {
      documentStart: performance.timeOrigin,
      scriptLoaded: script ? performance.timeOrigin + script.responseEnd : undefined,
      script: at('acp.script'),
      firstScreen: at('acp.firstScreen'),
      // The page's first paint with text in it: the first screen, when the host painted one.
      contentfulPaint: (() => {
        const e = performance.getEntriesByName('first-contentful-paint')[0];
        return e ? performance.timeOrigin + e.startTime : undefined;
      })(),
      snapshot: at('acp.snapshot'),
      reveal: at('acp.reveal'),
    };
  });
  const frameStart = await frame
    .parentFrame()
    ?.evaluate(() => performance.timeOrigin)
    .catch(() => undefined);
  return { ...inner, frameStart };
}

async function openFigures(): Promise<void> {
  const fixture = createFixture({ sessions: 0 });
  const cwd = fixture.folders[0]!;
  seedSessions(fixture.storeDir, [cwd], 1, TURNS_20K);
  seedSessions(fixture.storeDir, [cwd], 1, SMALL_TURNS);
  const indexFile = join(fixture.storeDir, 'index.json');
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { sessions: { sessionId: string; turns: number }[] };
  const big = index.sessions.find((s) => s.turns === TURNS_20K)!;
  const small = index.sessions.find((s) => s.turns === SMALL_TURNS)!;
  plantWord(fixture.storeDir, big.sessionId, 'zanzibarquill', UP);
  plantWord(fixture.storeDir, small.sessionId, 'marzipanlantern', 20);
  const targets: (OpenTarget & { name: string })[] = [
    {
      name: '20,000 updates, scope everything',
      sessionId: big.sessionId,
      cwd,
      query: 'zanzibarquill retry',
      scope: 'everything',
    },
    {
      name: `${SMALL_TURNS} turns, scope this folder`,
      sessionId: small.sessionId,
      cwd,
      query: 'marzipanlantern retry',
      scope: 'window',
    },
  ];
  const plan = Array.from({ length: RUNS }, () => targets).flat();

  const run = await startHostRun(fixture, 'searchOpen', 1_200_000);
  const rows: string[][] = [];
  const steps_: string[][] = [];
  const times = new Map<string, number[]>();
  const currents = new Map<string, number[]>();
  /** Click → the host's first screen of the hit in view (the message, its words highlighted). */
  const screens = new Map<string, number[]>();
  try {
    writeSignal(join(run.ctl, 'targets.json'), JSON.stringify(plan));
    // The click as the workbench received it (its first event, the button going down), in the
    // page's clock: epoch milliseconds, as the probe's.
    await run.page.evaluate(() => {
      window.addEventListener(
        'mousedown',
        () => ((window as unknown as { __clickAt?: number }).__clickAt = performance.timeOrigin + performance.now()),
        true,
      );
    });
    for (const [i, t] of plan.entries()) {
      await Promise.race([
        waitForFile(join(run.ctl, `armed-${i}`), 900_000, 'the suite'),
        run.exit.then((c) => Promise.reject(new Error(`the suite ended (${c})`))),
      ]);
      const hit = JSON.parse(readFileSync(join(run.ctl, `armed-${i}`), 'utf8')) as {
        entryIndex: number;
        entries: number;
      };
      const before = load();
      const saveTrace = await traceIfAsked(run.page, `search-open-${i}`);
      const row = run.page.locator('.quick-input-list .monaco-list-row', { hasText: t.query.split(' ')[0]! }).first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      await run.page.evaluate(() => delete (window as unknown as { __clickAt?: number }).__clickAt);
      await row.click();
      writeSignal(join(run.ctl, `pressed-${i}`));
      const clickAt = await waitFor('the click in the workbench', () =>
        run.page.evaluate(() => (window as unknown as { __clickAt?: number }).__clickAt),
      );
      const { frame, p: first } = await highlighted(() => run.page.frames(), clickAt, 120_000);
      // The current match is marked apart from the others once it is in place (or never: then n/a).
      const p = await waitFor(
        'the current match marked',
        async () => {
          const q = await readProbe(frame);
          return q?.currentAt !== undefined && q;
        },
        CURRENT_WAIT_MS,
        50,
      ).catch(() => first);
      const findCount = await frame.evaluate(() => document.querySelector('.find-count')?.textContent ?? '');
      const marks = await frameSteps(frame);
      await saveTrace();
      writeSignal(join(run.ctl, `done-${i}`));
      await waitForFile(join(run.ctl, `result-${i}.json`), 60_000, 'the host figures');
      const { steps } = JSON.parse(readFileSync(join(run.ctl, `result-${i}.json`), 'utf8')) as {
        steps: HostStep[];
      };
      const host = (step: string) => {
        const s = steps.find((x) => x.step === step);
        return s ? `${ms(s.at - clickAt)}${s.detail ? ` (${s.detail})` : ''}` : '–';
      };
      const since = (at: number | undefined) => (at === undefined ? '–' : ms(at - clickAt));
      const late = p.late ? '*' : '';
      steps_.push([
        `${t.name} #${Math.floor(i / targets.length) + 1}`,
        host('picked'),
        host('panel'),
        host('page set'),
        since(marks.frameStart),
        since(marks.documentStart),
        `${since(marks.firstScreen)} / ${since(marks.contentfulPaint)} / ${since(p.firstScreenAt)}${late}`,
        since(marks.scriptLoaded),
        since(marks.script),
        host('webview ready'),
        host('transcript read'),
        host('agent listed'),
        host('kept shown'),
        host('snapshot posted'),
        since(marks.snapshot),
        host('changes posted'),
        host('reveal posted'),
        since(marks.reveal),
        host('entries fetched'),
        `${since(p.firstEntryPainted)}${late}`,
        `${ms(p.highlightAt! - clickAt)}${late}`,
      ]);
      const shown = p.highlightAt! - clickAt;
      // Exact when the page's first contentful paint came after the first screen's script (it
      // is then the screen's paint); else as the probe saw it (an upper bound when it came late).
      const painted =
        marks.contentfulPaint !== undefined &&
        marks.firstScreen !== undefined &&
        marks.contentfulPaint >= marks.firstScreen
          ? marks.contentfulPaint
          : p.firstScreenAt;
      const screen = painted !== undefined ? painted - clickAt : NaN;
      screens.set(t.name, [...(screens.get(t.name) ?? []), screen]);
      const current = p.currentAt !== undefined ? p.currentAt - clickAt : NaN;
      times.set(t.name, [...(times.get(t.name) ?? []), shown]);
      currents.set(t.name, [...(currents.get(t.name) ?? []), current]);
      rows.push([
        t.name,
        count(hit.entries),
        `${count(hit.entryIndex)} (${count(hit.entries - 1 - hit.entryIndex)} up)`,
        ms(screen),
        ms(p.firstEntryPainted !== undefined ? p.firstEntryPainted - clickAt : NaN),
        ms(shown),
        ms(current),
        `"${p.highlightText}", find bar "${findCount}"${p.late && p.shownAtFirstLook ? ' (shown before the probe reached the frame: an upper bound)' : ''}`,
        `${before} → ${load()}`,
      ]);
    }
    table(
      'Opening a search hit in the real workbench (code-server + Chromium): a click on the hit in Resume Session → the chat, from the library, scrolled to the message with the words highlighted in view (measured in the webview)',
      [
        'session, scope',
        'entries',
        'hit entry',
        'click → first screen: the message, words highlighted, in view',
        'click → first entry painted',
        'click → words highlighted in view',
        'click → current match marked',
        'highlighted',
        'load average',
      ],
      rows,
    );
    table(
      "Where the time goes, ms after the click (host steps from the extension host, the others in the webview's frame; * the probe reached the frame late: an upper bound; (n) entries sent)",
      [
        'open',
        'picked',
        'panel made',
        'page set',
        'webview frame start',
        'document start',
        'first screen: parsed / first contentful paint / seen in view',
        'script loaded',
        'script start',
        'webview ready',
        'transcript read',
        'agent listed',
        'kept shown',
        'snapshot posted',
        'snapshot received',
        'first changes posted',
        'reveal posted',
        'reveal received',
        'entries fetched',
        'first entry painted',
        'highlighted',
      ],
      steps_,
    );
    for (const t of targets) {
      const painted = screens.get(t.name)!.filter(Number.isFinite);
      summary(
        B,
        `open a hit, ${t.name}: click → the message shown, words highlighted (first screen), median / max of ${painted.length}`,
        painted.length ? `${ms(median(painted))} / ${ms(Math.max(...painted))}` : 'n/a',
        t === targets[0] ? `aim ≤ 300 ms; the hit ${count(UP)} entries up` : 'today’s scope, a small session',
      );
      const list = times.get(t.name)!;
      const marked = currents.get(t.name)!.filter(Number.isFinite);
      summary(
        B,
        `open a hit, ${t.name}: click → the live chat's find bar highlights the words, median / max of ${list.length}`,
        `${ms(median(list))} / ${ms(Math.max(...list))}`,
        `current match marked: median ${ms(median(marked))}`,
      );
    }
    const code = await run.exit;
    if (code !== 0) throw new Error(`the search-open suite failed (exit ${code})`);
  } catch (e) {
    await failureShot(run, 'search-open');
    console.error(run.log.slice(-30).join('\n'));
    throw e;
  } finally {
    await run.dispose();
  }
}

async function main(): Promise<number> {
  if (process.env.ACP_BENCH_SEARCH_OPEN_ONLY !== '1') {
    const node = nodeWithSqlite() ?? process.execPath;
    const r = spawnSync(node, ['--enable-source-maps', join(repoRoot, 'out/test/bench/searchKeys.js')], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error(`the keystroke part failed (${r.status ?? r.signal})`);
  }
  await openFigures();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`search benchmark could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
