import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { ThreadChange, ThreadEntry, ThreadMeta } from '../protocol/entries';

/** A copy that later mutation of the live entry cannot reach; strings are shared, not copied. */
export function cloneEntry(e: ThreadEntry): ThreadEntry {
  switch (e.type) {
    case 'user':
    case 'agent':
    case 'thought':
      return { ...e, attachments: e.attachments.slice() };
    case 'tool':
      return e.terminalOutput ? { ...e, terminalOutput: { ...e.terminalOutput } } : { ...e };
    default:
      return { ...e };
  }
}

/**
 * How a thread says what changed: the changes of one call, collected in order and fired
 * together. Entries and meta are copied as they are recorded, so a batch queued for the webview
 * does not shift under later updates.
 */
export class ThreadChanges implements IDisposable {
  private changes: ThreadChange[] = [];
  private readonly emitter = new Emitter<ThreadChange[]>();
  /** Fires once per call that changed something, with that call's changes in order. */
  readonly onDidChange: Event<ThreadChange[]> = this.emitter.event;

  /** A change that carries no entry or meta of the thread (status, text appended, a terminal delta). */
  push(change: ThreadChange): void {
    this.changes.push(change);
  }

  added(index: number, entry: ThreadEntry): void {
    this.changes.push({ kind: 'entryAdded', index, entry: cloneEntry(entry) });
  }

  changed(index: number, entry: ThreadEntry): void {
    this.changes.push({ kind: 'entryChanged', index, entry: cloneEntry(entry) });
  }

  meta(meta: ThreadMeta): void {
    this.changes.push({ kind: 'metaChanged', meta: { ...meta } });
  }

  /** Every entry went: what was recorded for them before means nothing now. */
  cleared(): void {
    this.changes = [{ kind: 'entriesCleared' }];
  }

  /** Fires what was recorded since the last call, if anything. */
  fire(): void {
    if (this.changes.length === 0) return;
    const changes = this.changes;
    this.changes = [];
    this.emitter.fire(changes);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
