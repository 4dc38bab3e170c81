/**
 * Brings whole the entries the panel holds as stubs (see `EntryStub` and the host's
 * `EntryWindow`): it tells the host what the view renders, asks at once for the stubs rendered,
 * and, while nothing else is asked and no history replays, fills in the rest a chunk at a time
 * from the end back, so find and a long scroll soon need no round trip.
 */
import type { MessageConnection } from 'vscode-jsonrpc';
import type { PanelEntry } from '../protocol/entries';
import { fetchEntriesRequest, viewportChangedEvent } from '../protocol/messages';

/** Entries asked for per idle fill (the host sends fewer when they are large). */
export const FILL_CHUNK = 400;

export class EntryFetcher {
  /** Indices asked for and not answered yet. */
  private readonly asked = new Set<number>();
  private filling = false;
  /** An ask failed (the host is going away): no more filling until the next snapshot. */
  private stalled = false;
  private lastView = '';
  /** Bumped by `reset`: answers about an earlier thread change nothing. */
  private generation = 0;

  constructor(
    private readonly connection: MessageConnection,
    private readonly entries: () => readonly PanelEntry[],
    /** Called when an answer came: the next frame looks again. */
    private readonly schedule: () => void,
    /** Gets `data-entries="whole"` once every entry is whole and nothing replays, else "partial". */
    private readonly marker: HTMLElement,
  ) {}

  /** A snapshot or a cleared thread: nothing asked stands. */
  reset(): void {
    this.asked.clear();
    this.filling = false;
    this.stalled = false;
    this.lastView = '';
    this.generation++;
    this.marker.dataset.entries = 'partial';
  }

  /**
   * After a render of `from`…`to` (exclusive): says so to the host when it moved, asks for the
   * stubs among them, and when `idle` goes on filling the rest in.
   */
  rendered(from: number, to: number, follow: boolean, idle: boolean): void {
    const view = `${from}:${to}:${follow}`;
    if (view !== this.lastView) {
      this.lastView = view;
      void this.connection.sendNotification(viewportChangedEvent, { from, to, follow });
    }
    const entries = this.entries();
    let start = -1;
    for (let index = from; index <= to; index++) {
      const wanted = index < to && entries[index]?.type === 'stub' && !this.asked.has(index);
      if (wanted && start < 0) start = index;
      else if (!wanted && start >= 0) {
        this.ask(start, index);
        start = -1;
      }
    }
    if (!idle) this.marker.dataset.entries = 'partial';
    else if (!this.filling && !this.stalled && this.asked.size === 0) this.fill(entries);
  }

  /** Asks for the last run of stubs, up to {@link FILL_CHUNK}. */
  private fill(entries: readonly PanelEntry[]): void {
    let end = entries.length;
    while (end > 0 && entries[end - 1]!.type !== 'stub') end--;
    this.marker.dataset.entries = end === 0 ? 'whole' : 'partial';
    if (end === 0) return;
    let start = end - 1;
    while (start > 0 && end - start < FILL_CHUNK && entries[start - 1]!.type === 'stub') start--;
    this.filling = true;
    this.ask(start, end);
  }

  private ask(from: number, to: number): void {
    for (let index = from; index < to; index++) this.asked.add(index);
    const generation = this.generation;
    const answered = (failed: boolean): void => {
      if (generation !== this.generation) return;
      // The entries came before the answer: they are applied by the frame this schedules. Any
      // the host left out (past its budget) are still stubs and are asked for again.
      for (let index = from; index < to; index++) this.asked.delete(index);
      this.filling = false;
      if (failed) this.stalled = true;
      else this.schedule();
    };
    this.connection.sendRequest(fetchEntriesRequest, { from, to }).then(
      () => answered(false),
      (error: unknown) => {
        console.warn('acp webview: fetchEntries failed', error);
        answered(true);
      },
    );
  }
}
