/**
 * Which entries a chat panel holds whole. A long history sent whole costs the webview (and in a
 * browser-hosted VS Code, the workbench relaying it) megabytes while it replays, though the
 * reader sees a screenful. So the panel is sent whole the entries near where the reader is (the
 * end while the view follows it) and a stub with the height for the others; it asks for stubs
 * as they come near the viewport, and fills the rest in while idle (`fetchEntries`). An entry
 * sent whole stays whole: its later changes are sent as they come, until the next snapshot.
 */
import type { EntryStub, PanelChange, PanelEntry, ThreadChange, ThreadEntry } from '../protocol/entries';
import { heightShape } from '../protocol/heightShape';
import { cloneEntry } from './threadChanges';

/** Entries at the end sent whole while the view follows it: more than a tall screen holds. */
export const FOLLOW_TAIL = 64;
/** Entries either side of those rendered sent whole, so a short scroll needs no round trip. */
export const VIEW_MARGIN = 48;
/**
 * About this many characters of entries are sent per `fetchEntries` (at least one entry). Each
 * answer is parsed by the workbench, relayed and parsed again by the panel on the renderer's
 * main thread, which every chat and the workbench share: 128 KiB keeps each of those steps
 * short (512 KiB made each a long task of 30–60 ms while a replayed history filled in).
 */
export const FETCH_BUDGET = 128 * 1024;

interface View {
  from: number;
  to: number;
  follow: boolean;
}

/** An entry index the webview sent, or undefined when it is not one (its messages are checked, not trusted). */
export function readIndex(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** `from`…`to` (exclusive) as the webview sent them (`viewportChanged`, `fetchEntries`), or undefined. */
export function readRange(params: unknown): { from: number; to: number } | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { from, to } = params as Record<string, unknown>;
  const start = readIndex(from);
  const end = readIndex(to);
  return start !== undefined && end !== undefined && start <= end ? { from: start, to: end } : undefined;
}

export function stubOf(entry: ThreadEntry): EntryStub {
  return { type: 'stub', height: heightShape(entry) };
}

export class EntryWindow {
  /** 1 where the panel holds the entry whole. */
  private held = new Uint8Array(256);
  private view: View = { from: 0, to: 0, follow: true };

  /** A new snapshot: the panel holds nothing yet and shows `at`, or follows the end. */
  reset(at?: number): void {
    this.held.fill(0);
    this.view = at === undefined ? { from: 0, to: 0, follow: true } : { from: at, to: at + 1, follow: false };
  }

  /** The webview rendered `from`…`to` (exclusive); `follow`: it stays at the end. */
  setView(from: number, to: number, follow: boolean): void {
    this.view = { from, to, follow };
  }

  holds(index: number): boolean {
    return index < this.held.length && this.held[index] === 1;
  }

  /** The thread's entries as the snapshot carries them (whole ones are copies). */
  snapshot(entries: readonly ThreadEntry[]): PanelEntry[] {
    return entries.map((entry, index) => this.send(index, entry, entries.length));
  }

  /**
   * The batch as the panel is sent it. `entries` are the thread's now, which the batch brings
   * the panel up to: a change to a stub becomes a new stub, or the whole entry once it is near.
   */
  changes(batch: readonly ThreadChange[], entries: readonly ThreadEntry[]): PanelChange[] {
    const out: PanelChange[] = [];
    for (const change of batch) {
      switch (change.kind) {
        case 'entryAdded':
        case 'entryChanged': {
          const whole = this.holds(change.index) || this.near(change.index, entries.length);
          if (whole) out.push({ ...change, entry: this.hold(change.index, change.entry) });
          else if (change.kind === 'entryAdded') addStub(out, change.index, change.entry);
          else out.push({ ...change, entry: stubOf(change.entry) });
          break;
        }
        case 'textAppended':
        case 'messageEnded':
        case 'terminalAppended': {
          if (this.holds(change.index)) {
            out.push(change);
            break;
          }
          const entry = entries[change.index];
          if (!entry) break;
          if (this.near(change.index, entries.length))
            out.push({ kind: 'entryChanged', index: change.index, entry: this.hold(change.index, cloneEntry(entry)) });
          // Terminal output and a message's end leave a stub's height as it is (a stub has no
          // `done`: the whole entry, once sent, is a copy of the ended one).
          else if (change.kind === 'textAppended')
            out.push({ kind: 'entryChanged', index: change.index, entry: stubOf(entry) });
          break;
        }
        case 'entriesCleared':
          this.held.fill(0);
          out.push(change);
          break;
        default:
          out.push(change);
      }
    }
    return out;
  }

  /**
   * `fetchEntries`: copies of the entries in `from`…`to` the panel does not hold, in order, until
   * about `budget` characters; `end` is where it stopped (exclusive).
   */
  take(
    from: number,
    to: number,
    entries: readonly ThreadEntry[],
    budget = FETCH_BUDGET,
  ): { changes: ThreadChange[]; end: number } {
    const changes: ThreadChange[] = [];
    const last = Math.min(to, entries.length);
    let index = Math.max(0, from);
    let spent = 0;
    for (; index < last && (spent < budget || changes.length === 0); index++) {
      if (this.holds(index)) continue;
      const entry = cloneEntry(entries[index]!);
      spent += roughSize(entry);
      changes.push({ kind: 'entryChanged', index, entry: this.hold(index, entry) });
    }
    return { changes, end: index };
  }

  /** Whether the entry at `index` of `count` is near where the reader is. */
  private near(index: number, count: number): boolean {
    const { from, to, follow } = this.view;
    if (follow && index >= count - FOLLOW_TAIL) return true;
    return to > from && index >= from - VIEW_MARGIN && index < to + VIEW_MARGIN;
  }

  private send(index: number, entry: ThreadEntry, count: number): PanelEntry {
    return this.near(index, count) ? this.hold(index, cloneEntry(entry)) : stubOf(entry);
  }

  private hold<E extends ThreadEntry>(index: number, entry: E): E {
    if (index >= this.held.length) {
      const grown = new Uint8Array(Math.max(index + 1, this.held.length * 2));
      grown.set(this.held);
      this.held = grown;
    }
    this.held[index] = 1;
    return entry;
  }
}

/** A stub for an added entry, joined onto the stubs added just before it. */
function addStub(out: PanelChange[], index: number, entry: ThreadEntry): void {
  const { base, chars } = heightShape(entry);
  const last = out[out.length - 1];
  if (last?.kind === 'stubsAdded' && last.index + last.shapes.length / 2 === index) last.shapes.push(base, chars);
  else out.push({ kind: 'stubsAdded', index, shapes: [base, chars] });
}

/** About how many characters an entry is on the wire. */
function roughSize(entry: ThreadEntry): number {
  return 'text' in entry && typeof entry.text === 'string' ? 64 + entry.text.length : JSON.stringify(entry).length;
}
