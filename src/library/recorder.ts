/**
 * Keeps one open chat's thread in the library as it changes: the entries that changed since the
 * last write go out together, a short while after the first change (never one write per
 * streamed chunk, never the whole thread again), or later while a chat of the window is busy. A load that replays the history starts the
 * kept copy over; the copy is marked complete only when the whole history is in it.
 */
import type { Event } from '../base/event';
import { Disposable, toDisposable } from '../base/lifecycle';
import type { ThreadChange, ThreadEntry, Usage } from '../protocol/entries';
import type { Cost } from './stats';
import type { SessionInfo, SessionKey, SessionWrite } from './types';

/** What the recorder reads of a chat's thread (the chat's `Thread` has it). */
export interface RecordedThread {
  readonly entries: readonly ThreadEntry[];
  readonly onDidChange: Event<ThreadChange[]>;
}

export interface RecorderOptions {
  key: SessionKey;
  cwd: string;
  write: (w: SessionWrite) => Promise<void>;
  /** The agent's secret values, masked in what is kept. */
  secrets?: () => readonly string[];
  /** Quiet after a change before the write goes out. */
  delayMs?: number;
  /**
   * A chat of the window is busy (a turn streaming, a history loading): writes wait, up to
   * `busyWaitMs` after the first change they carry.
   */
  busy?: () => boolean;
  busyWaitMs?: number;
  log?: (message: string) => void;
}

const DELAY_MS = 250;
/**
 * Keeping a long history (its full-text index) takes the library's worker a core-second, and a
 * streaming reply would be indexed again every `DELAY_MS`: while a chat is busy, what changed
 * waits, and goes at most this long after its first change (so a long turn is still kept as it
 * goes). A turn of a few seconds is written once, when it ends.
 */
const BUSY_WAIT_MS = 10_000;

export class Recorder extends Disposable {
  private readonly dirty = new Set<number>();
  private info: SessionInfo = {};
  private reset = false;
  private opened = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the first change not written yet came (performance.now()). */
  private firstChange: number | undefined;
  /**
   * The cost last reported in this chat: what a later report adds counts for the day it came.
   * The first one counts whole only in a session that began here (a loaded one's cost so far
   * was spent before, on days the library cannot know).
   */
  private lastCost: Cost | undefined;
  private costFromZero = false;
  private lastUsage = '';
  /** The writes posted so far, settled in order. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly thread: RecordedThread,
    private readonly opts: RecorderOptions,
  ) {
    super();
    this.register(thread.onDidChange((changes) => this.changed(changes)));
    this.register(toDisposable(() => clearTimeout(this.timer)));
  }

  /**
   * The chat attached. `fresh`: what the thread shows now starts the kept copy over (a load, a
   * resume without a kept history, a new session); `complete`: the thread holds the whole
   * history (a new session; a load says so when it ends, see {@link markComplete}).
   */
  begin(opts: { fresh: boolean; complete: boolean; newSession?: boolean }): void {
    if (opts.newSession) this.costFromZero = true;
    if (opts.fresh) {
      this.reset = true;
      this.dirty.clear();
      this.thread.entries.forEach((_, i) => this.dirty.add(i));
    }
    this.info.complete = opts.complete;
    this.opened = true;
    this.schedule();
  }

  /** The whole history is in the thread now (a load finished). */
  markComplete(): Promise<void> {
    this.info.complete = true;
    return this.flush();
  }

  /** What the agent reported of the session (a title, an `updatedAt`). */
  setInfo(info: SessionInfo): void {
    Object.assign(this.info, info);
    this.schedule();
  }

  /** A turn ran for `ms`: it adds to the session's active time. */
  addActive(ms: number): void {
    if (!(ms > 0)) return;
    const stats = (this.info.stats ??= {});
    stats.activeMs = (stats.activeMs ?? 0) + ms;
    this.schedule();
  }

  private noteUsage(u: Usage): void {
    const json = JSON.stringify(u);
    if (json === this.lastUsage) return;
    this.lastUsage = json;
    const stats = (this.info.stats ??= {});
    stats.usage = { used: u.used, size: u.size, ...(u.cost ? { cost: u.cost } : {}) };
    const cost = u.cost;
    const prev = this.lastCost;
    if (cost && (prev === undefined ? this.costFromZero : prev.currency === cost.currency)) {
      const added = cost.amount - (prev?.amount ?? 0);
      if (added > 0) stats.cost = (stats.cost ?? 0) + added;
    }
    if (cost) this.lastCost = cost;
  }

  private changed(changes: ThreadChange[]): void {
    for (const c of changes) {
      switch (c.kind) {
        case 'entryAdded':
        case 'entryChanged':
        case 'textAppended':
        case 'messageEnded':
        case 'terminalAppended':
          this.dirty.add(c.index);
          break;
        case 'entriesCleared':
          // A load replays the history again: the kept copy starts over and is not complete yet.
          this.dirty.clear();
          this.reset = true;
          this.info.complete = false;
          break;
        case 'metaChanged':
          if (c.meta.title !== undefined) this.info.title = c.meta.title;
          if (c.meta.usage) this.noteUsage(c.meta.usage);
          break;
        default:
          continue;
      }
    }
    this.schedule();
  }

  private schedule(): void {
    this.firstChange ??= performance.now();
    if (this.timer === undefined) this.timer = setTimeout(() => this.due(), this.opts.delayMs ?? DELAY_MS);
  }

  /** The delay passed: writes now, or looks again later while a chat is busy. */
  private due(): void {
    this.timer = undefined;
    const waited = performance.now() - (this.firstChange ?? 0);
    if (this.opts.busy?.() && waited < (this.opts.busyWaitMs ?? BUSY_WAIT_MS)) this.schedule();
    else void this.flush();
  }

  /** Writes what changed now; resolves once the store has it. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.firstChange = undefined;
    const w = this.take();
    if (w) {
      // Posted now, so the worker copies the entries as they are; it applies writes in order.
      const written = this.opts
        .write(w)
        .catch((e: unknown) => this.opts.log?.(`Could not keep the session: ${String(e)}`));
      this.chain = this.chain.then(() => written);
    }
    return this.chain;
  }

  private take(): SessionWrite | undefined {
    const entries = [...this.dirty]
      .filter((i) => i < this.thread.entries.length)
      .sort((a, b) => a - b)
      .map((index) => ({ index, entry: this.thread.entries[index]! }));
    const info = this.info;
    if (!entries.length && !this.reset && !this.opened && Object.keys(info).length === 0) return undefined;
    const w: SessionWrite = { ...this.opts.key, cwd: this.opts.cwd, info };
    if (this.reset) w.reset = true;
    if (this.opened) w.opened = true;
    if (entries.length) w.entries = entries;
    const secrets = this.opts.secrets?.();
    if (secrets?.length) w.secrets = secrets;
    this.dirty.clear();
    this.info = {};
    this.reset = false;
    this.opened = false;
    return w;
  }

  override dispose(): void {
    void this.flush();
    super.dispose();
  }
}
