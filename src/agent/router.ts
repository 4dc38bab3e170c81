import type { SessionNotification } from '@agentclientprotocol/sdk';
import { Emitter } from '../base/event';
import { toDisposable, type IDisposable } from '../base/lifecycle';

/** Receives one session's updates, in the order the agent sent them. */
export type UpdateListener = (notification: SessionNotification) => void;

const BUFFER_MAX = 1000;
const BUFFER_MS = 5000;

/**
 * Routes `session/update` notifications to the listener registered for their session.
 *
 * Agents may send updates before the `session/load` or `session/new` response, so callers
 * register before sending; updates for a session nobody registered yet are kept briefly
 * (at most 1,000 for 5 s) and handed over on registration instead of being dropped.
 * Delivery is synchronous from the SDK's handler, which starts handlers in arrival order, so
 * each session's updates apply in order without awaiting anything in between.
 */
export class UpdateRouter implements IDisposable {
  private readonly listeners = new Map<string, UpdateListener>();
  private readonly pending = new Map<string, { at: number; n: SessionNotification }[]>();
  private pendingCount = 0;
  private readonly activity = new Emitter<string>();
  private readonly any = new Emitter<SessionNotification>();
  private droppedUnknown = 0;

  /** Fires with the session id of every routed update (load timeouts reset on it). */
  readonly onActivity = this.activity.event;
  /** Every update of every session, after routing (session lists watch `session_info_update`). */
  readonly onAnyUpdate = this.any.event;

  constructor(private readonly now: () => number = Date.now) {}

  /** Updates dropped because nobody claimed their session in time. */
  get dropped(): number {
    return this.droppedUnknown;
  }

  register(sessionId: string, listener: UpdateListener): IDisposable {
    if (this.listeners.has(sessionId)) throw new Error(`session ${sessionId} is already routed`);
    this.listeners.set(sessionId, listener);
    const early = this.pending.get(sessionId);
    if (early) {
      this.pending.delete(sessionId);
      this.pendingCount -= early.length;
      for (const { n } of early) listener(n);
    }
    return toDisposable(() => {
      if (this.listeners.get(sessionId) === listener) this.listeners.delete(sessionId);
    });
  }

  isRouted(sessionId: string): boolean {
    return this.listeners.has(sessionId);
  }

  dispatch(n: SessionNotification): void {
    const listener = this.listeners.get(n.sessionId);
    if (listener) {
      listener(n);
    } else {
      this.keep(n);
    }
    this.activity.fire(n.sessionId);
    this.any.fire(n);
  }

  private keep(n: SessionNotification): void {
    const now = this.now();
    this.expire(now);
    if (this.pendingCount >= BUFFER_MAX) {
      this.droppedUnknown++;
      return;
    }
    let list = this.pending.get(n.sessionId);
    if (!list) this.pending.set(n.sessionId, (list = []));
    list.push({ at: now, n });
    this.pendingCount++;
  }

  private expire(now: number): void {
    for (const [id, list] of this.pending) {
      const keep = list.filter((e) => now - e.at <= BUFFER_MS);
      if (keep.length !== list.length) {
        this.droppedUnknown += list.length - keep.length;
        this.pendingCount -= list.length - keep.length;
        if (keep.length) this.pending.set(id, keep);
        else this.pending.delete(id);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
    this.pending.clear();
    this.pendingCount = 0;
    this.activity.dispose();
    this.any.dispose();
  }
}
