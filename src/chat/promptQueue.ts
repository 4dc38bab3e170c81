/**
 * Follow-ups the user wrote while the agent was working: kept by the host (the webview is only a
 * projection, so the queue survives the panel being hidden), shown as queued, editable and
 * removable until sent, and sent one per turn, in order. A turn the user stopped, or one that
 * failed, pauses the queue: what was queued stays until the user sends it or removes it.
 */
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { QueueState, QueuedPrompt } from '../protocol/messages';

/** Bounds a queue the user cannot see the end of. */
const MAX_QUEUED = 50;
const MAX_TEXT = 100_000;

export class PromptQueue extends Disposable {
  private items: QueuedPrompt[] = [];
  private paused = false;
  private next = 1;
  private readonly emitter = this.register(new Emitter<QueueState>());
  /** Fires with the whole queue whenever it changes. */
  readonly onDidChange = this.emitter.event;

  get state(): QueueState {
    return { items: this.items.map((item) => ({ ...item })), paused: this.paused };
  }

  get size(): number {
    return this.items.length;
  }

  /** Adds a follow-up at the end; false when the queue is full. */
  add(text: string): boolean {
    if (this.items.length >= MAX_QUEUED) return false;
    this.items.push({ id: `q${this.next++}`, text: text.slice(0, MAX_TEXT), editing: false });
    this.changed();
    return true;
  }

  /** New text for a queued follow-up, and whether the user is editing it (then it waits). */
  update(id: string, change: { text?: string; editing?: boolean }): boolean {
    const item = this.items.find((i) => i.id === id);
    if (!item) return false;
    if (typeof change.text === 'string') {
      if (!change.text.trim()) return this.remove(id);
      item.text = change.text.slice(0, MAX_TEXT);
    }
    if (typeof change.editing === 'boolean') item.editing = change.editing;
    this.changed();
    return true;
  }

  remove(id: string): boolean {
    const before = this.items.length;
    this.items = this.items.filter((i) => i.id !== id);
    if (this.items.length === before) return false;
    if (!this.items.length) this.paused = false;
    this.changed();
    return true;
  }

  /**
   * The follow-up to send now, taken off the queue: the first, unless the queue is paused or the
   * first is being edited (it goes once the edit is done, so the order holds).
   */
  takeNext(): QueuedPrompt | undefined {
    const first = this.items[0];
    if (this.paused || !first || first.editing) return undefined;
    return this.take(first.id);
  }

  /** Takes one follow-up to send now (the user's Send now), resuming a paused queue. */
  take(id: string): QueuedPrompt | undefined {
    const item = this.items.find((i) => i.id === id);
    if (!item) return undefined;
    this.items = this.items.filter((i) => i !== item);
    this.paused = false;
    this.changed();
    return item;
  }

  /** A stopped or failed turn: nothing more goes by itself. */
  pause(): void {
    if (this.paused || !this.items.length) return;
    this.paused = true;
    this.changed();
  }

  private changed(): void {
    this.emitter.fire(this.state);
  }
}
