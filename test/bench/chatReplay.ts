// Benchmark 2 (the headline): a session's history replayed into a chat panel in a real VS Code
// (code-server + the extension + the reference agent) shown in headless Chromium. The driver
// clicks the session in the Sessions view and reads the probe in the webview frame; the suite in
// test/bench/suites/chat measures the extension host. The same streams' raw transport time on a
// bare SDK connection is measured first, in the same run. Then, where the real Claude Code
// adapter is installed (npm test installs it), a 2,000-turn Claude Code transcript opened the
// same way through it, offline, in a window of its own.
// Usage: node out/test/bench/chatReplay.js (ACP_BENCH_CHAT_CLAUDE_ONLY=1: the Claude Code part alone)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { SELECTORS } from '../host/browser';
import { createFixture, seedSessions, type Fixture } from '../host/fixture';
import { seedClaudeSession } from '../support/claudeStore';
import { claudeAcp, nodeAtLeast } from '../support/nodes';
import { bareLoad, startBare } from './bare';
import { classifyHostRun, CpuRecorder, describeUse, summarizeUse } from './cpu';
import { failureShot, startHostRun, traceIfAsked, waitForFile, type HostRun } from './hostRun';
import { count, median, ms, ratio, summary, table } from './lib';
import { probe, type ProbeState } from './probe';
import { writeSignal } from './signal';

const B = 'chat replay';
/** A competing extension's time for the 2,000-turn session (DESIGN.md). */
const PEER_MS = 53_000;

interface Target {
  sessionId: string;
  name: string;
  turns: number;
  raw: { ms: number; updates: number };
  /** Opened after another panel: the webview machinery is warm. */
  warm?: boolean;
}

interface HostResult {
  firstUpdateAt?: number;
  loadedAt: number;
  updates: number;
  entries: number;
  status: string;
  loop: { maxMs: number; p99Ms: number; meanMs: number };
}

/** `whole`: the webview holds every entry whole (no stub waits to be filled in). */
type Probe = ProbeState & { elements: number; whole: boolean; wholeAt?: number };

const readProbe = (f: Frame) =>
  f.evaluate(() => {
    const b = (window as unknown as { __acpBench?: ProbeState }).__acpBench;
    return b && b.kind === 'webview' && document.getElementById('app')
      ? {
          ...b,
          elements: document.getElementsByTagName('*').length,
          whole: document.querySelector<HTMLElement>('.thread')?.dataset.entries === 'whole',
        }
      : undefined;
  });

/**
 * VS Code's own marks in the webview's host page (`pre/index.html`), after the click: when it
 * was asked for the content and how long it then waited for its service worker (`workerReady`).
 */
async function webviewStages(
  page: Page,
  clickedAt: number,
): Promise<{ contentAsked: number; workerWait: number } | undefined> {
  for (const f of page.frames()) {
    if (!/\/webview\/browser\/pre\/index\.html/.test(f.url())) continue;
    const marks = await f
      .evaluate(() =>
        Object.fromEntries(
          performance.getEntriesByType('mark').map((m) => [m.name, performance.timeOrigin + m.startTime]),
        ),
      )
      .catch(() => ({}) as Record<string, number>);
    const started = marks['webview/index.html/content/started'];
    const ready = marks['webview/index.html/content/workerReady'];
    if (started !== undefined && ready !== undefined && started >= clickedAt)
      return { contentAsked: started - clickedAt, workerWait: ready - started };
  }
  return undefined;
}

/** The chat webview's inner frame once its probe has seen the app. */
async function webviewFrame(page: Page, ms: number): Promise<Frame> {
  const end = Date.now() + ms;
  for (;;) {
    for (const f of page.frames()) {
      // document.open() gives the inner frame its parent's URL: ask every frame's probe.
      if (f.isDetached() || f === page.mainFrame()) continue;
      if (await readProbe(f).catch(() => undefined)) return f;
      // Init scripts may not reach a frame written with document.open(): inject late, and say so.
      const bare = await f
        .evaluate(
          () =>
            (window as unknown as { __acpBench?: ProbeState }).__acpBench?.kind !== 'webview' &&
            !!document.getElementById('app'),
        )
        .catch(() => false);
      if (bare) {
        await f.evaluate(() => delete (window as unknown as { __acpBench?: unknown }).__acpBench);
        await f.evaluate(probe);
        await f.evaluate(() => ((window as unknown as { __acpBench: ProbeState }).__acpBench.late = true));
        return f;
      }
    }
    if (Date.now() > end) {
      const seen = await Promise.all(
        page
          .frames()
          .map(
            async (f) =>
              `${f.url().slice(0, 100)} → ${await f.evaluate(() => `${document.getElementById('app') ? 'app' : '-'} ${JSON.stringify((window as unknown as { __acpBench?: ProbeState }).__acpBench?.kind)}`).catch((e: unknown) => String(e).slice(0, 80))}`,
          ),
      );
      throw new Error(`the chat webview did not appear; frames:\n  ${seen.join('\n  ')}`);
    }
    // Each look runs script in every frame of the page: looking often would slow what is measured.
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface PageFigures {
  highlight: { ms: number; slices: number; blocks: number };
  find: { query: string; searchMs: number; shownMs: number; count: string }[];
  step: { ms: number; count: string };
}

/**
 * What the page timed itself (User Timing): the highlighter's work, then find on the whole
 * thread: each query's search, and until its first match is shown; a step to the next match.
 */
const pageFigures = (f: Frame) =>
  f.evaluate(async (): Promise<PageFigures> => {
    const entries = (name: string) => performance.getEntriesByName(name);
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const highlight = {
      ms: entries('acp-highlight').reduce((a, e) => a + e.duration, 0),
      slices: entries('acp-highlight').length,
      blocks: document.querySelectorAll('code.hljs').length,
    };
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', ctrlKey: true, bubbles: true }));
    const input = document.querySelector<HTMLInputElement>('.find-input')!;
    const find: PageFigures['find'] = [];
    for (const query of ['parser', 'the', 'exponential backoff', 'no such words here']) {
      performance.clearMeasures('acp-find');
      const started = performance.now();
      input.value = query;
      input.dispatchEvent(new Event('input'));
      const searchMs = entries('acp-find').at(-1)?.duration ?? NaN;
      await frames();
      await frames();
      find.push({
        query,
        searchMs,
        shownMs: performance.now() - started,
        count: document.querySelector('.find-count')?.textContent ?? '',
      });
    }
    input.value = 'parser';
    input.dispatchEvent(new Event('input'));
    await frames();
    const started = performance.now();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await frames();
    await frames();
    const step = { ms: performance.now() - started, count: document.querySelector('.find-count')?.textContent ?? '' };
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    return { highlight, find, step };
  });

/**
 * Waits until the webview shows the last entry, holds every entry whole (find searches them
 * all) and nothing has changed for a while. `wholeAt`: when it was first seen whole (±100 ms).
 */
async function settled(frame: Frame, entries: number, ms: number): Promise<Probe> {
  const end = Date.now() + ms;
  let wholeAt: number | undefined;
  for (;;) {
    const p = await readProbe(frame);
    if (p?.whole && p.maxIndex >= entries - 1) wholeAt ??= performance.timeOrigin + performance.now();
    if (p && !p.loading && wholeAt && Date.now() - (p.lastMutation ?? 0) > 1500) return { ...p, wholeAt };
    if (Date.now() > end)
      throw new Error(`the webview did not settle (highest entry ${p?.maxIndex ?? -1} of ${entries})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Task = { start: number; duration: number };

/** The longest of `tasks` that started from `from` until `to` (0 when none did). */
const longestTask = (tasks: Task[], from: number, to: number) =>
  Math.max(0, ...tasks.filter((x) => x.start >= from && x.start < to).map((x) => x.duration));

/** The workbench's own long tasks so far. */
const workbenchTasks = (page: Page) =>
  page.evaluate(() => (window as unknown as { __acpBench?: ProbeState }).__acpBench?.longtasks ?? []);

/** Tells the suite the driver is done with target `i`; the host's figures for it. */
async function hostResult(run: HostRun, i: number): Promise<HostResult> {
  writeFileSync(join(run.ctl, `done-${i}`), '');
  await waitForFile(join(run.ctl, `result-${i}.json`), 60_000, 'the host figures');
  return JSON.parse(readFileSync(join(run.ctl, `result-${i}.json`), 'utf8')) as HostResult;
}

/** Until the suite is ready to open target `i`. */
async function armed(run: HostRun, i: number): Promise<void> {
  await Promise.race([
    waitForFile(join(run.ctl, `armed-${i}`), 120_000, 'the suite'),
    run.exit.then((c) => Promise.reject(new Error(`the suite ended (${c})`))),
  ]);
}

/** Has the suite open target `i`; resolves once the webview settled on its last entry. */
async function openShown(run: HostRun, i: number): Promise<{ clickedAt: number; frame: Frame; p: Probe }> {
  writeFileSync(join(run.ctl, `go-${i}`), '');
  await waitForFile(join(run.ctl, `opened-${i}`), 60_000, 'the open');
  const clickedAt = Number(readFileSync(join(run.ctl, `opened-${i}`), 'utf8'));
  const frame = await webviewFrame(run.page, 60_000);
  await waitForFile(join(run.ctl, `loaded-${i}`), 600_000, 'the load');
  const { entries } = JSON.parse(readFileSync(join(run.ctl, `loaded-${i}`), 'utf8')) as { entries: number };
  return { clickedAt, frame, p: await settled(frame, entries, 600_000) };
}

async function main(): Promise<number> {
  // Only the Claude Code part: ACP_BENCH_CHAT_CLAUDE_ONLY=1.
  if (process.env.ACP_BENCH_CHAT_CLAUDE_ONLY === '1') {
    await claudeCode();
    return 0;
  }
  const fixture = createFixture({ sessions: 0 });
  const cwd = fixture.folders[0]!;
  // Seeded oldest first: the agent lists newest first, so the 2,000-turn session is row 1.
  seedSessions(fixture.storeDir, [cwd], 1, 8334);
  seedSessions(fixture.storeDir, [cwd], 1, 2000);
  const bare = await startBare(fixture.storeDir);
  const listed = (await bare.agent.request('session/list', { cwd })).sessions.map((s) => s.sessionId);
  const targets: Target[] = [];
  for (const [i, sessionId] of listed.entries()) {
    const runs: { ms: number; updates: number }[] = [];
    for (let r = 0; r < 3; r++) runs.push(await bareLoad(bare, sessionId, cwd));
    const turns = i === 0 ? 2000 : 8334;
    targets.push({
      sessionId,
      turns,
      name: `${count(turns)} turns`,
      raw: { ms: median(runs.map((x) => x.ms)), updates: runs[0]!.updates },
    });
  }
  // The first panel of a window also boots the webview machinery (in code-server: its service
  // worker and host page); the 2,000-turn session opens again last, in a window that has had one.
  targets.push({ ...targets[0]!, name: `${count(2000)} turns, again`, warm: true });
  await bare.stop();

  const run = await startHostRun(fixture, 'chat', 900_000);
  // When the workbench asks for the webview's inner document (VS Code's `pre/fake.html`): the
  // time before it is VS Code's own webview start (in code-server: its service worker).
  const innerRequests: number[] = [];
  run.browser.context.on('request', (r) => {
    if (/\/webview\/browser\/pre\/fake\.html/.test(r.url()))
      innerRequests.push(performance.timeOrigin + performance.now());
  });
  const rows: string[][] = [];
  const cpu = new CpuRecorder(classifyHostRun);
  cpu.start();
  try {
    // The extension host profiles itself (test/bench/suites/chat) into the same folder.
    if (process.env.ACP_BENCH_PROFILE) writeSignal(join(run.ctl, 'profile-dir'), process.env.ACP_BENCH_PROFILE);
    writeSignal(join(run.ctl, 'targets.json'), JSON.stringify(targets.map((t) => ({ sessionId: t.sessionId }))));
    for (const [i, t] of targets.entries()) {
      await armed(run, i);
      // Clicking the row in headless Chromium selected it without opening it in this harness, so
      // the suite runs the row's own command (acp.openSession with its node) when told to.
      await run.page.locator(SELECTORS.treeRows).first().waitFor({ timeout: 30_000 });
      const saveTrace = await traceIfAsked(run.page, `chat-replay-${i}`);
      const { clickedAt, frame, p } = await openShown(run, i);
      const stages = await webviewStages(run.page, clickedAt);
      await saveTrace();
      const workbench = await workbenchTasks(run.page);
      // Tasks until now belong to the replay; find, timed next, has its own figures.
      const replayEnd = performance.timeOrigin + performance.now();
      const page = await pageFigures(frame);
      const h = await hostResult(run, i);
      const last = p.maxIndexAt! - clickedAt;
      const longest = (tasks: Task[]) => longestTask(tasks, clickedAt, replayEnd);
      const figures = {
        firstPaint: p.firstEntryPainted! - clickedAt,
        last,
        hostFirstUpdate: h.firstUpdateAt! - clickedAt,
        updateToPaint: p.firstEntryPainted! - h.firstUpdateAt!,
        messageToPaint: p.late ? NaN : p.firstEntryPainted! - p.firstContentMessage!,
        hostLoaded: h.loadedAt - clickedAt,
        webviewTask: longest(p.longtasks),
        workbenchTask: longest(workbench),
        // VS Code's own webview start, then ours: inner document → first entry painted.
        vscodeWebview: (innerRequests.find((at) => at >= clickedAt) ?? NaN) - clickedAt,
      };
      rows.push([
        `${t.name}, ${count(h.updates)} updates`,
        ms(t.raw.ms),
        ms(figures.firstPaint),
        ms(figures.last),
        ratio(figures.last, t.raw.ms, 1),
        ms(figures.vscodeWebview),
        ms(figures.firstPaint - figures.vscodeWebview),
        ms(figures.updateToPaint),
        ms(figures.webviewTask),
        ms(figures.workbenchTask),
        ms(h.loop.maxMs),
        count(p.elements),
      ]);
      if (p.late)
        console.log(`  ${t.name}: the probe reached the webview late; first-entry figures are upper bounds or n/a`);
      const used = cpu.use(clickedAt, p.maxIndexAt!);
      console.log(`  ${t.name}: CPU from the click to the last entry (${ms(last)}): ${describeUse(used)}`);
      console.log(
        `  ${t.name}: host first update ${ms(figures.hostFirstUpdate)} after the click, load response ${ms(figures.hostLoaded)}; ` +
          `${count(h.entries)} entries (webview's highest index ${count(p.maxIndex)}, every entry whole ${ms(p.wholeAt! - clickedAt)} after the click); first content message → first entry painted ${ms(figures.messageToPaint)}; ` +
          `host event loop p99 ${ms(h.loop.p99Ms)}, mean ${ms(h.loop.meanMs)}`,
      );
      console.log(
        `  ${t.name}: highlighter ${ms(page.highlight.ms)} in ${count(page.highlight.slices)} slices for the ${count(page.highlight.blocks)} code blocks shown; ` +
          `find: ${page.find.map((q) => `"${q.query}" ${ms(q.searchMs)} search, ${ms(q.shownMs)} to shown (${q.count})`).join('; ')}; next match ${ms(page.step.ms)} (${page.step.count})`,
      );
      if (t.turns === 2000) {
        const when = t.warm ? 'a later panel' : 'first panel of the window';
        summary(
          B,
          `2,000 turns, ${when}: click → first / last entry`,
          `${ms(figures.firstPaint)} / ${ms(last)}`,
          `${ratio(PEER_MS, last, 0)} faster than the peer's 53 s; VS Code's webview start ${ms(figures.vscodeWebview)}`,
        );
      } else {
        summary(
          B,
          '20,000 updates: click → first / last entry',
          `${ms(figures.firstPaint)} / ${ms(last)}`,
          `raw transport ${ms(t.raw.ms)}, ratio ${ratio(last, t.raw.ms, 1)}`,
        );
        const [first, ...rest] = page.find;
        summary(
          B,
          '20,000 updates: find, first search / later ones',
          `${ms(first!.searchMs)} / ${ms(Math.max(...rest.map((q) => q.searchMs)))}`,
          `to the first match shown ${ms(Math.max(...page.find.map((q) => q.shownMs)))} at most; next match ${ms(page.step.ms)}; "the": ${page.find[1]!.count}`,
        );
        summary(
          B,
          '20,000 updates: highlighter time (blocks shown)',
          ms(page.highlight.ms),
          `${count(page.highlight.blocks)} blocks in ${count(page.highlight.slices)} slices, off the rendering path`,
        );
        summary(B, '20,000 updates: the machine busy, click → last entry', ...summarizeUse(used));
        summary(
          B,
          '20,000 updates: longest task webview / host loop max',
          `${ms(figures.webviewTask)} / ${ms(h.loop.maxMs)}`,
          `${count(p.elements)} DOM elements`,
        );
      }
      if (i === 0) {
        console.log(
          `  The first panel of the window waits ${ms(figures.vscodeWebview)} for VS Code's webview machinery before our page is asked for: ` +
            (stages
              ? `its host page asks for our content at ${ms(stages.contentAsked)}, then waits ${ms(stages.workerWait)} for its service worker to take control of the page (later panels do not wait).`
              : `(VS Code's own marks were not found).`),
        );
      }
    }
    table(
      "Chat replay into a panel (code-server + Chromium, opened with the Sessions view row's command)",
      [
        'session',
        'raw transport',
        'open → first entry',
        'open → last entry',
        'last / raw',
        'VS Code webview start',
        'then → first entry',
        'host 1st update → painted',
        'longest task (webview)',
        '(workbench)',
        'host loop max',
        'DOM elements',
      ],
      rows,
    );
    console.log(
      `  The nearest competing extension: ${ms(PEER_MS)} for the 2,000-turn session, with the window frozen.`,
    );
    const code = await run.exit;
    if (code !== 0) throw new Error(`the chat suite failed (exit ${code})`);
  } catch (e) {
    await failureShot(run, 'chat');
    console.error(run.log.slice(-30).join('\n'));
    throw e;
  } finally {
    cpu.stop();
    await run.dispose();
  }
  await claudeCode();
  return 0;
}

/** One answer of the seeded Claude Code session: paragraphs and a code block, as agents write. */
const answer = (i: number) =>
  `${'The cart keeps its lines in one map, keyed by the product, and **totals** them on demand with \`sum()\`. '.repeat(4)}\n\n` +
  `\`\`\`ts\nexport function total${i}(lines: Line[]): number {\n  return lines.reduce((n, l) => n + l.price * l.count, 0);\n}\n\`\`\``;

/**
 * The 2,000-turn session again, as a Claude Code transcript opened through the real adapter
 * (offline: nothing is prompted, so no key is needed), in a window of its own whose only agent
 * is Claude Code: the first open (`session/load`, the adapter replays it) after a small
 * session's panel, then again (from the library, resumed). The click → the last entry beside
 * when the adapter answered the load.
 */
async function claudeCode(): Promise<void> {
  const adapter = claudeAcp();
  const node = nodeAtLeast(22);
  if (!adapter || !node) {
    console.log(
      `  The real Claude Code adapter: skipped (${adapter ? 'no Node 22 or later' : '@agentclientprotocol/claude-agent-acp is not installed; npm test installs it'}).`,
    );
    return;
  }
  const base = createFixture({ sessions: 0, agent: false });
  const cwd = base.folders[0]!;
  const home = join(base.root, 'claude-home');
  const configDir = join(home, '.claude');
  mkdirSync(configDir, { recursive: true });
  const turns = Array.from({ length: 2000 }, (_, i): [string, string] => [
    `Turn ${i + 1}: how does the cart total its lines?`,
    answer(i),
  ]);
  const sessionId = seedClaudeSession(configDir, cwd, turns);
  // Opened first and not measured: the first panel of a window also boots the webview machinery.
  const warmUp = seedClaudeSession(configDir, cwd, [['Hello', 'Hello: what shall we work on?']]);
  const fixture: Fixture = {
    ...base,
    settings: {
      'acp.agents': [
        {
          id: 'claude',
          name: 'Claude Code',
          command: node,
          args: [join(adapter, 'dist', 'index.js')],
          env: { HOME: home, CLAUDE_CONFIG_DIR: configDir, ANTHROPIC_API_KEY: '', IS_SANDBOX: '' },
        },
      ],
    },
  };
  const targets = [
    { sessionId: warmUp, name: '' },
    { sessionId, name: 'first open (a later panel)' },
    { sessionId, name: 'again' },
  ];
  const run = await startHostRun(fixture, 'chat', 900_000);
  const rows: string[][] = [];
  try {
    writeSignal(join(run.ctl, 'targets.json'), JSON.stringify(targets.map((t) => ({ sessionId: t.sessionId }))));
    for (const [i, { name }] of targets.entries()) {
      await armed(run, i);
      const { clickedAt, p } = await openShown(run, i);
      const workbench = await workbenchTasks(run.page);
      const shownAt = performance.timeOrigin + performance.now();
      const h = await hostResult(run, i);
      const longest = (tasks: Task[]) => longestTask(tasks, clickedAt, shownAt);
      if (!name) continue;
      const last = p.maxIndexAt! - clickedAt;
      rows.push([
        `2,000 turns, ${name}, ${count(h.updates)} updates`,
        ms(p.firstEntryPainted! - clickedAt),
        ms(last),
        h.firstUpdateAt === undefined ? '–' : ms(h.firstUpdateAt - clickedAt),
        ms(h.loadedAt - clickedAt),
        ms(longest(p.longtasks)),
        ms(longest(workbench)),
        ms(h.loop.maxMs),
        count(h.entries),
      ]);
      summary(
        B,
        `Claude Code adapter, 2,000 turns, ${name}: click → first / last entry`,
        `${ms(p.firstEntryPainted! - clickedAt)} / ${ms(last)}`,
        `${ratio(PEER_MS, last, 0)} faster than the peer's 53 s; the adapter answered ${ms(h.loadedAt - clickedAt)} after the click`,
      );
    }
    table(
      'The real Claude Code adapter (claude-agent-acp, offline), a seeded 2,000-turn transcript opened with the Sessions row’s command',
      [
        'session',
        'open → first entry',
        'open → last entry',
        'host 1st update',
        'load answered (chat usable)',
        'longest task (webview)',
        '(workbench)',
        'host loop max',
        'entries',
      ],
      rows,
    );
    const code = await run.exit;
    if (code !== 0) throw new Error(`the chat suite failed with Claude Code (exit ${code})`);
  } catch (e) {
    await failureShot(run, 'chat-claude');
    console.error(run.log.slice(-30).join('\n'));
    throw e;
  } finally {
    await run.dispose();
    base.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`chat replay benchmark could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
