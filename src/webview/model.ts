/**
 * The webview's copy of the thread: the last snapshot with the changes applied since. It owns
 * the entries it was sent (they arrive structured-cloned), so streaming text is appended in
 * place. Reports which indices changed so the view re-renders only those.
 */
import type { EntryStub, PanelChange, PanelEntry, ThreadMeta, ThreadStatus } from '../protocol/entries';
import { unpackEntries } from '../protocol/entries';
import type { ChatCapabilities, QueueState, SessionLinkView, SnapshotParams } from '../protocol/messages';
import { applyTerminalDelta } from '../protocol/terminalOutput';
import { StreamSplitter } from './streamSplit';

/** What one batch of changes touched. */
export interface Touched {
  /** Entries appended at the end (new length minus old, or minus nothing after a clear). */
  added: number;
  /** Every entry was dropped first (`entriesCleared`): the view starts over from index 0. */
  cleared: boolean;
  /** Existing entries that got streamed text appended. */
  appended: Set<number>;
  /** Existing entries replaced by a new version. */
  replaced: Set<number>;
  meta: boolean;
  status: boolean;
}

export class ThreadModel {
  /** Stubs stand for entries not sent yet (see `EntryStub`). */
  entries: PanelEntry[] = [];
  meta: ThreadMeta = { commands: [], configOptions: [] };
  status: ThreadStatus = { state: 'idle' };
  capabilities: ChatCapabilities | undefined;
  /** Follow-ups queued while the agent works (the host's queue). */
  queue: QueueState = { items: [], paused: false };
  /** The sessions this one was continued from or in. */
  links: SessionLinkView[] = [];
  /** Messages still streaming, split into finished blocks and an open tail. */
  readonly streams = new Map<number, StreamSplitter>();
  /**
   * Messages that finished since the view last rendered, with the splitter they streamed
   * through: a long one is completed in place (see streaming.ts). The view clears it.
   */
  readonly finished = new Map<number, StreamSplitter>();

  reset(snapshot: SnapshotParams): void {
    this.entries = unpackEntries(snapshot.thread.entries);
    this.meta = snapshot.thread.meta;
    this.status = snapshot.thread.status;
    this.capabilities = snapshot.capabilities;
    this.queue = snapshot.queue ?? { items: [], paused: false };
    this.links = readLinks(snapshot.links);
    this.streams.clear();
    this.finished.clear();
    this.entries.forEach((entry, index) => this.track(index, entry));
  }

  /** Applies changes in order; an index out of range is dropped (a stale batch), never thrown. */
  apply(changes: readonly PanelChange[]): Touched {
    let before = this.entries.length;
    const touched: Touched = {
      added: 0,
      cleared: false,
      appended: new Set(),
      replaced: new Set(),
      meta: false,
      status: false,
    };
    for (const change of changes) {
      switch (change.kind) {
        case 'entryAdded':
          if (change.index < this.entries.length) {
            this.replace(change.index, change.entry, touched, before);
          } else if (change.index === this.entries.length) {
            this.entries.push(change.entry);
            this.track(change.index, change.entry);
          }
          break;
        case 'entryChanged':
          if (change.index < this.entries.length) this.replace(change.index, change.entry, touched, before);
          break;
        case 'stubsAdded':
          for (let k = 0; k * 2 < change.shapes.length; k++) {
            const index = change.index + k;
            const stub: EntryStub = {
              type: 'stub',
              height: { base: change.shapes[k * 2]!, chars: change.shapes[k * 2 + 1]! },
            };
            if (index < this.entries.length) this.replace(index, stub, touched, before);
            else if (index === this.entries.length) this.entries.push(stub);
          }
          break;
        case 'textAppended': {
          const entry = this.entries[change.index];
          if (entry && (entry.type === 'user' || entry.type === 'agent' || entry.type === 'thought')) {
            entry.text += change.text;
            this.streams.get(change.index)?.append(change.text);
            if (change.index < before) touched.appended.add(change.index);
          }
          break;
        }
        case 'messageEnded': {
          const entry = this.entries[change.index];
          if (entry && (entry.type === 'user' || entry.type === 'agent' || entry.type === 'thought') && !entry.done) {
            entry.done = true;
            this.track(change.index, entry);
            if (change.index < before) touched.replaced.add(change.index);
          }
          break;
        }
        case 'terminalAppended': {
          const entry = this.entries[change.index];
          if (entry?.type !== 'tool') break;
          entry.terminalOutput = {
            ...entry.terminalOutput,
            [change.terminalId]: applyTerminalDelta(entry.terminalOutput?.[change.terminalId], change.delta),
          };
          if (change.index < before) touched.replaced.add(change.index);
          break;
        }
        case 'entriesCleared':
          // The host starts the thread over (a reload replays the history): entries added after
          // this in the same batch are new, not replacements of the old ones.
          this.entries = [];
          this.streams.clear();
          this.finished.clear();
          before = 0;
          touched.cleared = true;
          touched.appended.clear();
          touched.replaced.clear();
          break;
        case 'metaChanged':
          this.meta = change.meta;
          touched.meta = true;
          break;
        case 'statusChanged':
          this.status = change.status;
          touched.status = true;
          break;
      }
    }
    touched.added = this.entries.length - before;
    return touched;
  }

  private replace(index: number, entry: PanelEntry, touched: Touched, before: number): void {
    this.entries[index] = entry;
    this.track(index, entry);
    if (index < before) touched.replaced.add(index);
  }

  /** Starts or ends the stream splitter of a message as its `done` flag says. */
  private track(index: number, entry: PanelEntry): void {
    const streaming = (entry.type === 'user' || entry.type === 'agent' || entry.type === 'thought') && !entry.done;
    if (!streaming) {
      const stream = this.streams.get(index);
      if (stream) this.finished.set(index, stream);
      this.streams.delete(index);
      return;
    }
    const current = this.streams.get(index);
    if (current && current.value === entry.text) return;
    const splitter = new StreamSplitter();
    splitter.append(entry.text);
    this.streams.set(index, splitter);
  }
}

/** Links as the host sent them: well-formed ones only, a few. */
export function readLinks(links: unknown): SessionLinkView[] {
  if (!Array.isArray(links)) return [];
  return links
    .filter(
      (l): l is SessionLinkView =>
        typeof l === 'object' &&
        l !== null &&
        (l.direction === 'to' || l.direction === 'from') &&
        typeof l.agentId === 'string' &&
        typeof l.sessionId === 'string' &&
        typeof l.text === 'string',
    )
    .slice(0, 20);
}
