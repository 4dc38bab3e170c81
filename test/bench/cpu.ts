// The CPU time each process of a benchmark's world used between two instants, and how busy the
// machine was then: read from /proc every 100 ms (Linux; elsewhere the figures read n/a). Tells
// whether a figure is bound by the machine's cores and which process took them.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** A process's group name from its command line; undefined leaves it out. */
export type Classify = (cmdline: string, pid: number) => string | undefined;

interface Sample {
  at: number;
  /** The machine's busy and total clock ticks since boot, all cores. */
  busy: number;
  total: number;
  /** Clock ticks each watched process has run (user + system, all its threads). */
  byPid: Map<number, number>;
}

export interface CpuUse {
  /** Milliseconds of CPU per group, largest first. */
  groups: [string, number][];
  /** Share of all cores busy (anything on the machine). */
  busy: number;
  cores: number;
}

const INTERVAL_MS = 100;
/** Clock ticks per second of /proc's counters (USER_HZ: 100 on Linux). */
const HZ = 100;
const now = () => performance.timeOrigin + performance.now();

function readStat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces and parentheses.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return undefined;
  }
}

function machineTicks(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  // idle and iowait are the idle ones.
  return { busy: total - f[3]! - (f[4] ?? 0), total };
}

/** Samples this process and its descendants until stopped. */
export class CpuRecorder {
  private readonly samples: Sample[] = [];
  private readonly groupOf = new Map<number, string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private scans = 0;

  constructor(private readonly classify: Classify) {}

  static available(): boolean {
    try {
      machineTicks();
      return true;
    } catch {
      return false;
    }
  }

  start(): void {
    if (!CpuRecorder.available()) return;
    this.scan();
    this.sample();
    this.timer = setInterval(() => {
      // New processes (an agent started, a renderer) are looked for once a second.
      if (++this.scans % 10 === 0) this.scan();
      this.sample();
    }, INTERVAL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** CPU used from `from` to `to` (epoch ms); undefined without samples around both. */
  use(from: number, to: number): CpuUse | undefined {
    this.sample();
    const a = this.at(from);
    const b = this.at(to);
    if (!a || !b || to <= from) return undefined;
    const groups = new Map<string, number>();
    for (const [pid, ticks] of b.byPid) {
      const group = this.groupOf.get(pid);
      if (!group) continue;
      const ms = ((ticks - (a.byPid.get(pid) ?? ticks)) * 1000) / HZ;
      groups.set(group, (groups.get(group) ?? 0) + ms);
    }
    return {
      groups: [...groups].filter(([, v]) => v > 0).sort((x, y) => y[1] - x[1]),
      busy: (b.busy - a.busy) / (b.total - a.total || 1),
      cores: cpus().length,
    };
  }

  /** The counters at `t`, interpolated between the samples either side of it. */
  private at(t: number): Omit<Sample, 'at'> | undefined {
    const i = this.samples.findIndex((s) => s.at >= t);
    if (i <= 0) return undefined;
    const [p, q] = [this.samples[i - 1]!, this.samples[i]!];
    const w = (t - p.at) / (q.at - p.at || 1);
    const mix = (x: number, y: number) => x + (y - x) * w;
    const byPid = new Map<number, number>();
    for (const [pid, ticks] of q.byPid) byPid.set(pid, mix(p.byPid.get(pid) ?? ticks, ticks));
    return { busy: mix(p.busy, q.busy), total: mix(p.total, q.total), byPid };
  }

  private sample(): void {
    const byPid = new Map<number, number>();
    for (const pid of this.groupOf.keys()) {
      const s = readStat(pid);
      if (s) byPid.set(pid, s.ticks);
    }
    this.samples.push({ at: now(), ...machineTicks(), byPid });
  }

  /** Finds this process's descendants and their groups. */
  private scan(): void {
    const children = new Map<number, number[]>();
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid)) continue;
      const s = readStat(pid);
      if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
    }
    const todo = [process.pid];
    while (todo.length) {
      const pid = todo.pop()!;
      todo.push(...(children.get(pid) ?? []));
      if (this.groupOf.has(pid)) continue;
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      } catch {
        continue;
      }
      const group = this.classify(cmdline, pid);
      if (group) this.groupOf.set(pid, group);
    }
  }
}

/** "agent 480 ms, extension host 590 ms, …; 2 cores 97% busy" */
export function describeUse(use: CpuUse | undefined): string {
  if (!use) return 'n/a (no /proc here)';
  const parts = use.groups.map(([name, v]) => `${name} ${Math.round(v)} ms`);
  return `${parts.join(', ')}; the machine's ${use.cores} cores ${Math.round(use.busy * 100)}% busy`;
}

/** A summary line's value and note: "93% of 2 cores", the four largest groups. */
export function summarizeUse(use: CpuUse | undefined): [string, string] {
  if (!use) return ['n/a', ''];
  const largest = use.groups.slice(0, 4).map(([name, v]) => `${name} ${Math.round(v)} ms`);
  return [`${Math.round(use.busy * 100)}% of ${use.cores} cores`, largest.join(', ')];
}

/** The processes of a code-server + Chromium benchmark, by what they do. */
export const classifyHostRun: Classify = (cmdline, pid) => {
  if (pid === process.pid) return 'this driver (Playwright)';
  if (/--type=extensionHost/.test(cmdline)) return 'extension host';
  if (/\bagent\.js\b/.test(cmdline)) return 'agent';
  if (/code-server/.test(cmdline)) return 'VS Code server';
  // Renderers are forked from the zygote and keep its command line.
  if (/--type=(renderer|zygote)/.test(cmdline)) return 'Chromium renderer';
  if (/--type=gpu-process/.test(cmdline)) return 'Chromium GPU';
  if (/chrom/i.test(cmdline)) return 'Chromium browser';
  return 'other';
};
