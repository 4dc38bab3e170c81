// Benchmark 4: a session/load under load, in a real VS Code (code-server + Chromium). Three
// agents, two folders, five chat panels side by side; a 20,000-update history replays into one
// panel while a long reply streams into another (the overlap), then each runs alone with the
// other panels idle. The suite in test/bench/suites/load drives the host and times it; this
// driver seeds the world, measures the same streams on a bare SDK connection, reads the probe
// in every chat webview and the workbench, and prints. Slow figures never fail it: only a lost
// update, entry or character, or a broken flow.
// Usage: node out/test/bench/load.js
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Frame, Page } from 'playwright-core';
import { createFixture, referenceAgent, seedSessions } from '../host/fixture';
import { bareLoad, startBare } from './bare';
import { classifyHostRun, CpuRecorder } from './cpu';
import { key, lostThings, REPLY_LINE, REPLY_LINES, report, type PhaseFigures } from './loadReport';
import { failureShot, startHostRun, traceIfAsked, waitForFile, type HostRun } from './hostRun';
import { median } from './lib';
import { PHASES, type LoadPlan, type PanelPlan, type Phase, type PhaseResult } from './loadPlan';
import { probe, type ProbeState } from './probe';
import { writeSignal } from './signal';

/** Seeded turns that replay as 20,005 updates (see test/agent/content.ts). */
const TURNS_20K = 8334;
const PROMPT = 'Please write me a long answer.';
/** The long reply (1 MiB) in 2,000 chunks, paced by a millisecond per message as a model streams. */
const STREAM_SWITCHES = ['--reply-chunks', '2000', '--delay', '1'];
const RUNS = 3;

interface AgentSetup {
  id: string;
  name: string;
  switches: string[];
  store: string;
}

/** What the driver reads from a chat webview's probe. */
interface Seen extends ProbeState {
  /** Agent name · folder: tells the panels apart. */
  subtitle: string;
  prompting: boolean;
  /** The thread follows its bottom (its ↓ button is hidden). */
  following: boolean;
  /** Lines of the long reply in the rendered entry asked for. */
  lines: number;
  elements: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readSeen(f: Frame, entryIndex: number): Promise<Seen | undefined> {
  return f.evaluate(
    ([index, line]) => {
      const b = (window as unknown as { __acpBench?: ProbeState }).__acpBench;
      if (!b || b.kind !== 'webview' || !document.getElementById('app')) return undefined;
      const text = index >= 0 ? (document.querySelector(`.entry[data-index="${index}"]`)?.textContent ?? '') : '';
      return {
        ...b,
        subtitle: document.querySelector('.subtitle')?.textContent ?? '',
        prompting: !!document.querySelector('.status-line.prompting'),
        following: !!(document.querySelector('.jump') as HTMLElement | null)?.hidden,
        lines: text.split(line).length - 1,
        elements: document.getElementsByTagName('*').length,
      };
    },
    [entryIndex, REPLY_LINE] as const,
  );
}

/**
 * The chat webviews' inner frames by subtitle. Init scripts may not reach a frame written with
 * document.open(): the probe goes in late there (long tasks are buffered; see chatReplay.ts).
 */
async function chatFrames(page: Page): Promise<Map<string, Frame>> {
  const found = new Map<string, Frame>();
  for (const f of page.frames()) {
    if (f.isDetached() || f === page.mainFrame()) continue;
    const state = await f
      .evaluate(() => {
        if (!document.getElementById('app')) return undefined;
        const b = (window as unknown as { __acpBench?: ProbeState }).__acpBench;
        return { subtitle: document.querySelector('.subtitle')?.textContent ?? '', probed: b?.kind === 'webview' };
      })
      .catch(() => undefined);
    if (!state?.subtitle) continue;
    if (!state.probed) {
      await f.evaluate(() => delete (window as unknown as { __acpBench?: unknown }).__acpBench);
      await f.evaluate(probe);
      await f.evaluate(() => ((window as unknown as { __acpBench: ProbeState }).__acpBench.late = true));
    }
    found.set(state.subtitle, f);
  }
  return found;
}

async function framesFor(page: Page, keys: string[], ms: number): Promise<Map<string, Frame>> {
  const end = Date.now() + ms;
  for (;;) {
    const frames = await chatFrames(page);
    if (keys.every((k) => frames.has(k))) return frames;
    if (Date.now() > end)
      throw new Error(
        `chat webviews missing: ${keys.filter((k) => !frames.has(k)).join('; ')} (seen: ${[...frames.keys()].join('; ') || 'none'})`,
      );
    await sleep(10);
  }
}

/** Waits until `done` holds for the frame and nothing in it has changed for 1.5 s. */
async function settled(
  frame: Frame,
  entryIndex: number,
  what: string,
  done: (p: Seen) => boolean,
  ms: number,
): Promise<Seen> {
  const end = Date.now() + ms;
  for (;;) {
    const p = await readSeen(frame, entryIndex);
    if (p && done(p) && Date.now() - (p.lastMutation ?? 0) > 1500) return p;
    if (Date.now() > end)
      throw new Error(
        `${what} did not settle in its webview (highest entry ${p?.maxIndex ?? -1}, ${p?.lines ?? 0} reply lines)`,
      );
    await sleep(100);
  }
}

/** Waits for one of the suite's signal files; fails as soon as the suite has ended. */
async function step(run: HostRun, name: string, ms: number): Promise<string> {
  const file = join(run.ctl, name);
  await Promise.race([
    waitForFile(file, ms, `the suite (${name})`),
    run.exit.then((c) => Promise.reject(new Error(`the suite ended (exit ${c}) before ${name}`))),
  ]);
  return file;
}

async function sessionsOf(store: string, cwd: string): Promise<{ sessionId: string; title?: string }[]> {
  const bare = await startBare(store);
  try {
    return (await bare.agent.request('session/list', { cwd })).sessions.map((s) => ({
      sessionId: s.sessionId,
      ...(s.title ? { title: s.title } : {}),
    }));
  } finally {
    await bare.stop();
  }
}

/** The long reply on a bare connection: milliseconds from prompt to end of turn, and updates. */
async function bareStream(store: string, cwd: string): Promise<{ ms: number; updates: number }> {
  const bare = await startBare(store, STREAM_SWITCHES);
  try {
    const { sessionId } = await bare.agent.request('session/new', { cwd, mcpServers: [] });
    let updates = 0;
    bare.onUpdate = () => updates++;
    const started = performance.now();
    await bare.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: PROMPT }] });
    return { ms: performance.now() - started, updates };
  } finally {
    await bare.stop();
  }
}

async function runPhase(run: HostRun, plan: LoadPlan, phase: Phase, cpu: CpuRecorder): Promise<PhaseFigures> {
  const open = [...plan.panels.map(key), ...(phase === 'streamAlone' ? [key(plan.load)] : [])];
  await step(run, `armed-${phase}`, 180_000);
  await framesFor(run.page, open, 60_000);
  const saveTrace = await traceIfAsked(run.page, `load-${phase}`);
  writeFileSync(join(run.ctl, `go-${phase}`), '');
  // The loading panel opens now: find its webview while it replays, so its probe sees it.
  const loading = phase === 'streamAlone' ? undefined : framesFor(run.page, [key(plan.load)], 60_000);
  // Awaited below; should the suite fail first, this must not end the process as unhandled.
  loading?.catch(() => undefined);
  const finished = await step(run, `finished-${phase}.json`, 600_000);
  await loading;
  const host = JSON.parse(readFileSync(finished, 'utf8')) as PhaseResult;
  const frames = await framesFor(run.page, [...plan.panels.map(key), key(plan.load)], 60_000);
  const figures: PhaseFigures = { host, tasks: new Map(), workbench: [] };
  if (host.load) {
    const { entries } = host.load;
    const frame = frames.get(key(plan.load))!;
    let p = await settled(
      frame,
      -1,
      'the 20,000-update load',
      (s) => !s.loading && (s.maxIndex >= entries - 1 || !s.following),
      300_000,
    );
    if (p.maxIndex < entries - 1) {
      // Not a loss: the entries are there below. Reported, then checked the way a person would.
      figures.unfollowedAt = p.maxIndex;
      await frame.click('.jump');
      p = await settled(frame, -1, 'the 20,000-update load after ↓', (s) => s.maxIndex >= entries - 1, 60_000);
    } else {
      figures.loadShownAt = p.maxIndexAt;
    }
    figures.loadMaxIndex = p.maxIndex;
  }
  if (host.stream) {
    const p = await settled(
      frames.get(key(plan.stream))!,
      host.stream.entryIndex,
      'the long reply',
      (s) => !s.prompting && s.lines >= REPLY_LINES,
      300_000,
    );
    figures.streamShownAt = p.lastMutation;
  }
  const ended = Math.max(figures.loadShownAt ?? 0, figures.streamShownAt ?? 0);
  if (ended) figures.cpu = cpu.use(host.startedAt, ended);
  await saveTrace();
  for (const [k, f] of frames) {
    const p = await readSeen(f, -1);
    if (p)
      figures.tasks.set(
        k,
        p.longtasks.filter((t) => t.start >= host.startedAt),
      );
  }
  figures.workbench = (
    await run.page.evaluate(() => (window as unknown as { __acpBench?: ProbeState }).__acpBench?.longtasks ?? [])
  ).filter((t) => t.start >= host.startedAt);
  writeFileSync(join(run.ctl, `done-${phase}`), '');
  return figures;
}

async function main(): Promise<number> {
  const fixture = createFixture({ folders: ['alpha', 'beta'], sessions: 0 });
  const [alpha, beta] = fixture.folders as [string, string];
  // Each agent its own store; only the one that streams the reply gets the streaming switches.
  const agent = (id: string, name: string, switches: string[] = []): AgentSetup => {
    const store = join(fixture.root, `store-${id}`);
    mkdirSync(store);
    return { id, name, switches, store };
  };
  const refA = agent('ref-a', 'Reference A');
  const refB = agent('ref-b', 'Reference B', STREAM_SWITCHES);
  const refC = agent('ref-c', 'Reference C');
  const agents = [refA, refB, refC];
  seedSessions(refA.store, [alpha], 1, TURNS_20K);
  seedSessions(refA.store, [beta], 1, 3);
  seedSessions(refB.store, [alpha], 2, 3);
  seedSessions(refB.store, [beta], 1, 3);
  seedSessions(refC.store, [alpha], 1, 3);
  const panel = async (agent: AgentSetup, cwd: string, group: number, nth = 0): Promise<PanelPlan> => {
    const s = (await sessionsOf(agent.store, cwd))[nth];
    if (!s) throw new Error(`${agent.name} has no session ${nth} in ${cwd}`);
    return { agentId: agent.id, agentName: agent.name, cwd, group, ...s };
  };
  const loadPanel = await panel(refA, alpha, 1);
  const streamPanel = await panel(refB, alpha, 2, 0);

  // The same streams on a bare SDK connection: the floor the client is compared to.
  const bare = await startBare(refA.store);
  const rawLoads: { ms: number; updates: number }[] = [];
  for (let r = 0; r < RUNS; r++) rawLoads.push(await bareLoad(bare, loadPanel.sessionId, alpha));
  await bare.stop();
  const rawStore = join(fixture.root, 'store-raw');
  mkdirSync(rawStore);
  const rawStreams: { ms: number; updates: number }[] = [];
  for (let r = 0; r < RUNS; r++) rawStreams.push(await bareStream(rawStore, alpha));
  const raw = {
    load: median(rawLoads.map((x) => x.ms)),
    loadUpdates: rawLoads[0]!.updates,
    stream: median(rawStreams.map((x) => x.ms)),
    streamUpdates: rawStreams[0]!.updates,
  };

  const plan: LoadPlan = {
    panels: [streamPanel, await panel(refC, alpha, 3), await panel(refA, beta, 4), await panel(refB, beta, 5)],
    load: loadPanel,
    stream: streamPanel,
    streamAlone: await panel(refB, alpha, 2, 1),
    prompt: PROMPT,
    loadUpdates: raw.loadUpdates,
  };
  const settings = {
    ...fixture.settings,
    'acp.agents': agents.map((a) => ({
      ...referenceAgent(a.id, a.store, fixture.startedFile, a.switches),
      name: a.name,
    })),
    // The loading panel closes and opens again in its group: the group must stay where it is.
    'workbench.editor.closeEmptyGroups': false,
  };
  const run = await startHostRun({ ...fixture, settings }, 'load', 900_000);
  const results = new Map<Phase, PhaseFigures>();
  const cpu = new CpuRecorder(classifyHostRun);
  cpu.start();
  try {
    writeSignal(join(run.ctl, 'plan.json'), JSON.stringify(plan));
    for (const phase of PHASES) results.set(phase, await runPhase(run, plan, phase, cpu));
    const code = await run.exit;
    report(plan, raw, results);
    const lost = lostThings(plan, results);
    for (const l of lost) console.error(`  LOST: ${l}`);
    if (code !== 0) throw new Error(`the load suite failed (exit ${code})`);
    return lost.length ? 1 : 0;
  } catch (e) {
    await failureShot(run, 'load');
    console.error(run.log.slice(-30).join('\n'));
    throw e;
  } finally {
    cpu.stop();
    await run.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`load benchmark could not run: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
