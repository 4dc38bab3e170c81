// What the load benchmark's driver (test/bench/load.ts) and its extension-host suite
// (test/bench/suites/load) hand each other through files in $ACP_BENCH_CTL. No vscode here.

/** One chat panel: a seeded session of one agent, opened in one editor group. */
export interface PanelPlan {
  agentId: string;
  /** The agent's display name; with the folder it tells the panels' webviews apart. */
  agentName: string;
  sessionId: string;
  cwd: string;
  title?: string;
  /** Editor group, 1 to 5 (the suite lays out five). */
  group: number;
}

/** plan.json: written by the driver once the world is seeded. */
export interface LoadPlan {
  /** Open before the first phase: the streaming panel and three idle ones. */
  panels: PanelPlan[];
  /** The 20,000-update session, opened in each phase that loads. */
  load: PanelPlan;
  /** The session that streams the reply in the overlap (one of `panels`). */
  stream: PanelPlan;
  /** A second session of the same agent, folder and group, for the reply alone. */
  streamAlone: PanelPlan;
  prompt: string;
  /** Updates the agent replays for `load`, counted on a bare SDK connection. */
  loadUpdates: number;
}

/**
 * The phases, in order: the overlap first, on a fresh window; then each half alone with the
 * other four panels open and idle.
 */
export const PHASES = ['overlap', 'loadAlone', 'streamAlone'] as const;
export type Phase = (typeof PHASES)[number];

export interface Loop {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
}

/** finished-<phase>.json: the host's figures, in epoch milliseconds. */
export interface PhaseResult {
  phase: Phase;
  startedAt: number;
  /** Event-loop delay from the start until the host finished everything the phase began. */
  loop: Loop;
  load?: {
    firstUpdateAt?: number;
    loadedAt: number;
    updates: number;
    entries: number;
  };
  stream?: {
    firstChunkAt?: number;
    endedAt: number;
    updates: number;
    /** Index of the reply's entry in the thread (the webview renders it with this index). */
    entryIndex: number;
    chars: number;
    /** The reply's text equals the agent's, character for character. */
    whole: boolean;
  };
}
