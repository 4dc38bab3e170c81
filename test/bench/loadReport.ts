// Benchmark 4's report: what the load benchmark (load.ts) measured, as tables and summary lines,
// and what it found lost.
import { longReply } from '../agent/replies';
import { describeUse, summarizeUse, type CpuUse } from './cpu';
import { count, ms, ratio, summary, table } from './lib';
import type { LoadPlan, Phase, PhaseResult } from './loadPlan';
import type { ProbeState } from './probe';

const B = 'load';
/** A line of the long reply: the webview must show every one of them. */
export const REPLY_LINE = longReply().split('\n')[2]!;
export const REPLY_LINES = longReply().split(REPLY_LINE).length - 1;

export type Task = ProbeState['longtasks'][number];

export interface PhaseFigures {
  host: PhaseResult;
  /** Epoch ms: the load's last entry in its webview, the reply's final render in its webview. */
  loadShownAt?: number;
  streamShownAt?: number;
  loadMaxIndex?: number;
  /** The load's view stopped following the replay at this entry (a person had to click ↓). */
  unfollowedAt?: number;
  /** Long tasks since the phase started: each chat webview's by subtitle, and the workbench's. */
  tasks: Map<string, Task[]>;
  workbench: Task[];
  /** CPU per process from the phase's start to its last render. */
  cpu?: CpuUse;
}

export const key = (p: { agentName: string; cwd: string }) => `${p.agentName} · ${p.cwd}`;

/** The frame's own long tasks (attributed to it), or all it saw when the browser names none. */
const own = (tasks: Task[]) => (tasks.some((t) => t.name) ? tasks.filter((t) => t.name === 'self') : tasks);
const longest = (tasks: Task[]) => (tasks.length ? Math.max(...tasks.map((t) => t.duration)) : 0);
/** What did not arrive, in the host or in a webview; empty when nothing was lost. */
export function lostThings(plan: LoadPlan, results: Map<Phase, PhaseFigures>): string[] {
  const lost: string[] = [];
  const alone = results.get('loadAlone')!.host.load!;
  for (const [phase, f] of results) {
    const { load, stream } = f.host;
    if (load) {
      if (load.updates !== plan.loadUpdates)
        lost.push(`${phase}: ${count(load.updates)} of ${count(plan.loadUpdates)} updates reached the thread`);
      if (load.entries !== alone.entries)
        lost.push(`${phase}: ${count(load.entries)} entries, ${count(alone.entries)} when loaded alone`);
      if (f.loadMaxIndex !== load.entries - 1)
        lost.push(
          `${phase}: the webview's last entry is ${count(f.loadMaxIndex)}, the thread's ${count(load.entries - 1)}`,
        );
    }
    if (stream && !stream.whole)
      lost.push(`${phase}: the reply has ${count(stream.chars)} of ${count(longReply().length)} characters`);
  }
  return lost;
}

export function report(
  plan: LoadPlan,
  raw: { load: number; loadUpdates: number; stream: number; streamUpdates: number },
  results: Map<Phase, PhaseFigures>,
): void {
  const o = results.get('overlap')!;
  const l = results.get('loadAlone')!;
  const s = results.get('streamAlone')!;
  const loadHost = (f: PhaseFigures) => f.host.load && f.host.load.loadedAt - f.host.startedAt;
  const loadShown = (f: PhaseFigures) => f.loadShownAt && f.loadShownAt - f.host.startedAt;
  const streamHost = (f: PhaseFigures) => f.host.stream && f.host.stream.endedAt - f.host.startedAt;
  const streamShown = (f: PhaseFigures) => f.streamShownAt && f.streamShownAt - f.host.startedAt;
  const webviews = (f: PhaseFigures) => longest([...f.tasks.values()].flatMap(own));
  const anyFrame = (f: PhaseFigures) => longest([...f.tasks.values()].flat().concat(f.workbench));
  // A phase without the half a row measures leaves its cell empty.
  const cell = (v: number | undefined) => (v === undefined ? '' : ms(v));
  const shownCell = (f: PhaseFigures) =>
    f.unfollowedAt === undefined ? cell(loadShown(f)) : `stopped at ${count(f.unfollowedAt)}`;
  const row = (what: string, fn: (f: PhaseFigures) => number | undefined, rawMs?: number) => [
    what,
    cell(fn(o)),
    cell(fn(l)),
    cell(fn(s)),
    ratio(fn(o), fn(l) ?? fn(s)),
    cell(rawMs),
  ];
  table(
    `A 20,000-update load (${count(raw.loadUpdates)} updates) while a 1 MiB reply streams (${count(raw.streamUpdates)} updates); 3 agents, 2 folders, 5 chat panels in view`,
    ['', 'overlap', 'load alone', 'reply alone', 'overlap / alone', 'raw (bare SDK)'],
    [
      row('20,000 updates: open → loaded (host)', loadHost, raw.load),
      [
        '20,000 updates: open → last entry shown (webview)',
        shownCell(o),
        shownCell(l),
        '',
        ratio(loadShown(o), loadShown(l)),
        '',
      ],
      row('long reply: prompt → turn ended (host)', streamHost, raw.stream),
      row('long reply: prompt → final render (webview)', streamShown),
      [
        'host event loop delay: max',
        ms(o.host.loop.maxMs),
        ms(l.host.loop.maxMs),
        ms(s.host.loop.maxMs),
        ratio(o.host.loop.maxMs, Math.max(l.host.loop.maxMs, s.host.loop.maxMs)),
        '',
      ],
      [
        'host event loop delay: p99',
        ms(o.host.loop.p99Ms),
        ms(l.host.loop.p99Ms),
        ms(s.host.loop.p99Ms),
        ratio(o.host.loop.p99Ms, Math.max(l.host.loop.p99Ms, s.host.loop.p99Ms)),
        '',
      ],
      ['host event loop delay: mean', ms(o.host.loop.meanMs), ms(l.host.loop.meanMs), ms(s.host.loop.meanMs), '', ''],
      ['longest task, any chat webview (its own)', ms(webviews(o)), ms(webviews(l)), ms(webviews(s)), '', ''],
      [
        'longest task, workbench (its own)',
        ms(longest(own(o.workbench))),
        ms(longest(own(l.workbench))),
        ms(longest(own(s.workbench))),
        '',
        '',
      ],
      ['longest task, renderer main thread (any frame)', ms(anyFrame(o)), ms(anyFrame(l)), ms(anyFrame(s)), '', ''],
    ],
  );
  console.log(
    "  overlap / alone: the overlap's figure over the same half run alone (the larger alone figure for the host loop).",
  );
  for (const [phase, f] of results) {
    if (f.unfollowedAt !== undefined)
      console.log(
        `  ${phase}: the loading panel stopped following the replay at entry ${count(f.unfollowedAt)} (its ↓ button showed); after ↓ it showed the last entry.`,
      );
  }
  const role = (k: string) =>
    k === key(plan.load) ? '20,000-update load' : k === key(plan.stream) ? 'long reply' : 'idle';
  const panels = [...plan.panels, plan.load].sort((x, y) => x.group - y.group);
  table(
    'Longest task per chat webview during the overlap (tasks attributed to the frame itself)',
    ['panel (agent · folder)', 'group', 'role', 'longest task', 'long tasks', 'total'],
    [
      ...panels.map((p) => {
        const tasks = own(o.tasks.get(key(p)) ?? []);
        return [
          `${p.agentName} · ${p.cwd.split('/').pop()}`,
          String(p.group),
          role(key(p)),
          ms(longest(tasks)),
          count(tasks.length),
          ms(tasks.reduce((a, t) => a + t.duration, 0)),
        ];
      }),
      [
        'workbench',
        '',
        '',
        ms(longest(own(o.workbench))),
        count(own(o.workbench).length),
        ms(own(o.workbench).reduce((a, t) => a + t.duration, 0)),
      ],
    ],
  );
  // The workbench sees every task of the renderer's main thread, named from where it stands:
  // a webview's as 'same-origin-descendant', one spanning frames (a relayed message) as 'multiple-contexts'.
  const byName = new Map<string, Task[]>();
  for (const t of o.workbench) byName.set(t.name ?? 'unnamed', [...(byName.get(t.name ?? 'unnamed') ?? []), t]);
  const names = [...byName].map(([name, tasks]) => `${name} ${count(tasks.length)} (longest ${ms(longest(tasks))})`);
  console.log(
    `  all long tasks of the renderer in the overlap, as the workbench attributes them: ${names.join(', ') || 'none'}`,
  );
  console.log(
    `  the replying panel's long tasks in the overlap: ${timeline(o, own(o.tasks.get(key(plan.stream)) ?? []))}`,
  );
  for (const [phase, f] of results)
    console.log(`  ${phase}: CPU from its start to its last render: ${describeUse(f.cpu)}`);
  const lo = o.host.load!;
  const st = o.host.stream!;
  console.log(
    `  nothing lost: ${count(lo.updates)} of ${count(plan.loadUpdates)} updates routed, ${count(lo.entries)} entries (alone: ${count(l.host.load!.entries)}), ` +
      `webview's last entry ${count(o.loadMaxIndex)}; reply ${count(st.chars)} of ${count(longReply().length)} characters in ${count(st.updates)} updates, all ${count(REPLY_LINES)} lines in its webview`,
  );
  summary(
    B,
    'overlap: 20,000-update load / long reply (host)',
    `${ms(loadHost(o))} / ${ms(streamHost(o))}`,
    `alone ${ms(loadHost(l))} / ${ms(streamHost(s))}`,
  );
  summary(
    B,
    'overlap: host event loop max / p99',
    `${ms(o.host.loop.maxMs)} / ${ms(o.host.loop.p99Ms)}`,
    `alone: load ${ms(l.host.loop.maxMs)}, reply ${ms(s.host.loop.maxMs)}`,
  );
  summary(B, 'overlap: the machine busy, start → last render', ...summarizeUse(o.cpu));
  summary(
    B,
    'overlap: longest task chat webview / workbench',
    `${ms(webviews(o))} / ${ms(longest(own(o.workbench)))}`,
    `any frame ${ms(anyFrame(o))}`,
  );
}

/**
 * When a panel's long tasks fell, in seconds from the phase's start, beside the phase's own
 * milestones (the first chunk of the reply, its turn's end, the load's end, the final render):
 * "+1.2 s 63 ms". Tells a task of the stream from one of the reply's end or of the other panel.
 */
function timeline(f: PhaseFigures, tasks: Task[]): string {
  const at = (t: number | undefined) => (t === undefined ? undefined : (t - f.host.startedAt) / 1000);
  const marks: [string, number | undefined][] = [
    ['first chunk', at(f.host.stream?.firstChunkAt)],
    ['loaded', at(f.host.load?.loadedAt)],
    ['turn ended', at(f.host.stream?.endedAt)],
    ['final render', at(f.streamShownAt)],
  ];
  const items = [
    ...marks.flatMap(([what, s]) => (s === undefined ? [] : [{ s, text: `[${what} +${s.toFixed(2)} s]` }])),
    ...tasks.map((t) => ({
      s: (t.start - f.host.startedAt) / 1000,
      text: `+${((t.start - f.host.startedAt) / 1000).toFixed(2)} s ${ms(t.duration)}`,
    })),
  ].sort((a, b) => a.s - b.s);
  return tasks.length ? items.map((i) => i.text).join(', ') : 'none';
}
