/**
 * Collects thread changes for the webview and hands them over in batches: one `postMessage` per
 * frame or per size budget, never one per update (a replay is thousands of updates a second).
 */
import type { IDisposable } from '../base/lifecycle';
import type { ThreadChange, ThreadEntry } from '../protocol/entries';
import { mergeTerminalDeltas } from '../protocol/terminalOutput';

/** The timer functions the batcher uses; tests pass fakes. */
export interface BatcherTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ChangeBatcherOptions {
  /** The longest a change waits before it is sent. Default 16 ms (one frame). */
  intervalMs?: number;
  /** Flush at once when the queued text passes this many characters. Default 256 KiB. */
  maxChars?: number;
  timers?: BatcherTimers;
  /** Receives a failure of the flush callback when it ran from the timer. */
  onError?: (error: unknown) => void;
}

const defaultTimers: BatcherTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A rough size of what the change puts on the wire, counted in characters. */
function sizeOf(change: ThreadChange): number {
  switch (change.kind) {
    case 'textAppended':
      return change.text.length;
    case 'terminalAppended':
      return 64 + change.delta.text.length;
    case 'entryAdded':
    case 'entryChanged':
      return entrySize(change.entry);
    default:
      return 64;
  }
}

function entrySize(entry: ThreadEntry): number {
  switch (entry.type) {
    case 'user':
    case 'agent':
    case 'thought':
      return 64 + entry.text.length + entry.attachments.length * 256;
    case 'tool': {
      let size = 128 + entry.title.length;
      for (const c of entry.content) {
        if (c.type === 'diff') size += c.newText.length + (c.oldText?.length ?? 0);
        else if (c.type === 'content' && c.content.type === 'text') size += c.content.text.length;
      }
      return size;
    }
    case 'plan':
      return entry.entries.reduce((n, e) => n + 32 + e.content.length, 64);
    default:
      return 128;
  }
}

export interface Pace {
  intervalMs: number;
  maxChars: number;
}

interface Queued {
  change: ThreadChange;
  suffix: string;
  /** A full change's message ended later in this batch. */
  ended?: boolean;
}

/**
 * The change with the text appended to it in this batch (and, for a full change, the message's
 * end); the queued entry copy is not mutated.
 */
function materialize(q: Queued): ThreadChange {
  if (!q.suffix && !q.ended) return q.change;
  const c = q.change;
  switch (c.kind) {
    case 'textAppended':
      return { ...c, text: c.text + q.suffix };
    case 'entryAdded':
    case 'entryChanged': {
      const e = c.entry;
      if (!('text' in e)) return c;
      const text = e.text + q.suffix;
      return { ...c, entry: 'done' in e && q.ended ? { ...e, text, done: true } : { ...e, text } };
    }
    default:
      return c;
  }
}

/**
 * Queues changes and flushes them as one array at most every `intervalMs`, or at once past the
 * size budget or on `flushNow()`. Within a batch it keeps the result and drops the steps:
 * consecutive `textAppended` to one entry are joined; an `entryAdded` or `entryChanged` absorbs
 * later changes to the same entry (keeping its place, and `entryAdded` stays an add); only the
 * last `metaChanged` and `statusChanged` are kept; `entriesCleared` drops the entry changes
 * queued before it. Terminal deltas to one terminal are joined, and a full entry change drops
 * the deltas queued for that entry (its copy already holds their output); a message's end is
 * folded into its full change. This relies on the entries in changes being copies (as `Thread`
 * emits them).
 */
export class ChangeBatcher implements IDisposable {
  /** Queued changes; `suffix` is text appended since, joined into the change only at flush. */
  private queue: (Queued | undefined)[] = [];
  /** Queue position of the full-entry change (added or changed) per entry index. */
  private full = new Map<number, number>();
  /** Queue position of the text append per entry index, when there is no full change. */
  private appends = new Map<number, number>();
  /** Queue positions of terminal deltas per entry index, by terminal id. */
  private terminals = new Map<number, Map<string, number>>();
  private metaAt = -1;
  private statusAt = -1;
  private chars = 0;
  private timer: unknown;
  private disposed = false;
  private readonly defaultPace: Pace;
  private intervalMs: number;
  private maxChars: number;
  private readonly timers: BatcherTimers;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly flush: (changes: ThreadChange[]) => void,
    options: ChangeBatcherOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 16;
    this.maxChars = options.maxChars ?? 256 * 1024;
    this.defaultPace = { intervalMs: this.intervalMs, maxChars: this.maxChars };
    this.timers = options.timers ?? defaultTimers;
    this.onError = options.onError ?? ((error) => console.error(error));
  }

  /**
   * How often and past how much queued text it flushes from now on; `undefined` goes back to
   * the options'. A batch already waiting keeps its timer.
   */
  setPace(pace: Pace | undefined): void {
    this.intervalMs = pace?.intervalMs ?? this.defaultPace.intervalMs;
    this.maxChars = pace?.maxChars ?? this.defaultPace.maxChars;
  }

  /** Changes queued and not yet flushed (after coalescing). */
  get size(): number {
    let n = 0;
    for (const q of this.queue) if (q) n++;
    return n;
  }

  push(changes: readonly ThreadChange[]): void {
    if (this.disposed) return;
    for (const change of changes) this.add(change);
    if (this.chars >= this.maxChars) {
      this.flushNow();
    } else if (this.timer === undefined && this.queue.length > 0) {
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        try {
          this.flushNow();
        } catch (error) {
          this.onError(error);
        }
      }, this.intervalMs);
    }
  }

  /** Sends what is queued now (before a snapshot, a status the user must see, or disposal). */
  flushNow(): void {
    this.cancelTimer();
    const batch: ThreadChange[] = [];
    for (const q of this.queue) if (q) batch.push(materialize(q));
    this.clear();
    if (batch.length > 0) this.flush(batch);
  }

  /** Forgets what is queued, e.g. when a full snapshot is about to be sent instead. */
  discard(): void {
    this.cancelTimer();
    this.clear();
  }

  dispose(): void {
    this.discard();
    this.disposed = true;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private clear(): void {
    this.queue = [];
    this.full.clear();
    this.appends.clear();
    this.terminals.clear();
    this.metaAt = -1;
    this.statusAt = -1;
    this.chars = 0;
  }

  private enqueue(change: ThreadChange): number {
    return this.queue.push({ change, suffix: '' }) - 1;
  }

  private add(change: ThreadChange): void {
    this.chars += sizeOf(change);
    switch (change.kind) {
      case 'textAppended': {
        // Joined onto the entry's full change or the earlier append of this batch, in order.
        const at = this.full.get(change.index) ?? this.appends.get(change.index);
        const q = at !== undefined ? this.queue[at] : undefined;
        if (q) q.suffix += change.text;
        else this.appends.set(change.index, this.enqueue(change));
        return;
      }
      case 'entryAdded':
      case 'entryChanged': {
        // The full entry already holds every earlier append.
        const appendAt = this.appends.get(change.index);
        if (appendAt !== undefined) {
          this.queue[appendAt] = undefined;
          this.appends.delete(change.index);
        }
        for (const at of this.terminals.get(change.index)?.values() ?? []) this.queue[at] = undefined;
        this.terminals.delete(change.index);
        const at = this.full.get(change.index);
        const q = at !== undefined ? this.queue[at] : undefined;
        if (change.kind === 'entryChanged' && q && q.change.kind !== 'textAppended') {
          q.change = {
            kind: q.change.kind === 'entryAdded' ? 'entryAdded' : 'entryChanged',
            index: change.index,
            entry: change.entry,
          };
          q.suffix = '';
          q.ended = false;
          return;
        }
        this.full.set(change.index, this.enqueue(change));
        return;
      }
      case 'terminalAppended': {
        // Every delta queued for this entry comes after its last full change (which drops them).
        let byTerminal = this.terminals.get(change.index);
        if (!byTerminal) this.terminals.set(change.index, (byTerminal = new Map()));
        const at = byTerminal.get(change.terminalId);
        const q = at !== undefined ? this.queue[at] : undefined;
        if (q && q.change.kind === 'terminalAppended')
          q.change = { ...change, delta: mergeTerminalDeltas(q.change.delta, change.delta) };
        else byTerminal.set(change.terminalId, this.enqueue(change));
        return;
      }
      case 'metaChanged':
        if (this.metaAt >= 0) this.queue[this.metaAt] = undefined;
        this.metaAt = this.enqueue(change);
        return;
      case 'statusChanged':
        if (this.statusAt >= 0) this.queue[this.statusAt] = undefined;
        this.statusAt = this.enqueue(change);
        return;
      case 'messageEnded': {
        // A full change queued for the entry ends with it; else it follows the text appended.
        const at = this.full.get(change.index);
        const q = at !== undefined ? this.queue[at] : undefined;
        if (q) q.ended = true;
        else this.enqueue(change);
        return;
      }
      case 'entriesCleared': {
        // Entry changes before a clear address entries that no longer exist.
        const keep: ThreadChange[] = [];
        for (const q of this.queue) {
          if (q && (q.change.kind === 'metaChanged' || q.change.kind === 'statusChanged')) keep.push(q.change);
        }
        this.clear();
        for (const c of keep) this.add(c);
        this.enqueue(change);
        this.chars += sizeOf(change);
        return;
      }
    }
  }
}
