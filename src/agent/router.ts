import type { SessionNotification } from '@agentclientprotocol/sdk';
import { Emitter } from '../base/event';
import { toDisposable, type IDisposable } from '../base/lifecycle';

/** Receives one session's updates, in the order the agent sent them. */
export type UpdateListener = (notification: SessionNotification) => void;

/** A session's route; disposing it stops the updates. */
export interface RouteRegistration extends IDisposable {
  /**
   * The chat is closing (waiting for `session/close` to be answered): it keeps the updates until
   * a chat opening the same session again takes the route.
   */
  giveWay(): void;
}

const BUFFER_MAX = 1000;
const BUFFER_MS = 5000;

export interface RouterOptions {
  /** The clock the buffer's age limit is measured with; tests pass their own. */
  now?: () => number;
  /**
   * Updates dropped from the buffer (expired or over the limit), with a log line that names
   * no payload; `line` is absent for drops a line already told (a full buffer says so once).
   */
  onDrop?: (count: number, line: string | undefined) => void;
  /** How many updates for unknown sessions are kept (1,000) and for how long (5 s). */
  bufferMax?: number;
  bufferMs?: number;
}

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
  /** Listeners of chats that are closing: one opening the same session again takes their place. */
  private readonly givenWay = new Set<UpdateListener>();
  private readonly pending = new Map<string, { at: number; n: SessionNotification }[]>();
  private pendingCount = 0;
  private readonly activity = new Emitter<string>();
  private readonly any = new Emitter<SessionNotification>();
  private droppedUnknown = 0;
  /** Updates refused since the buffer filled up; logged as one line when it has room again. */
  private overflow = 0;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;
  private readonly max: number;
  private readonly maxAgeMs: number;

  /** Fires with the session id of every routed update (load timeouts reset on it). */
  readonly onActivity = this.activity.event;
  /** Every update of every session, after routing (session lists watch `session_info_update`). */
  readonly onAnyUpdate = this.any.event;

  constructor(private readonly options: RouterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.max = options.bufferMax ?? BUFFER_MAX;
    this.maxAgeMs = options.bufferMs ?? BUFFER_MS;
  }

  /** Updates dropped because nobody claimed their session in time. */
  get dropped(): number {
    return this.droppedUnknown;
  }

  /** Updates waiting for their session to be registered. */
  get buffered(): number {
    return this.pendingCount;
  }

  /**
   * Routes the session's updates to `listener`. A session routed to a listener that has not
   * given way (see {@link RouteRegistration.giveWay}) cannot be routed again: two live chats on
   * one session would split its updates.
   */
  register(sessionId: string, listener: UpdateListener): RouteRegistration {
    const current = this.listeners.get(sessionId);
    if (current && !this.givenWay.has(current)) throw new Error(`session ${sessionId} is already routed`);
    if (current) this.givenWay.delete(current);
    this.listeners.set(sessionId, listener);
    // What waited too long is stale, even when nothing else arrived since to expire it.
    this.expire(this.now());
    const early = this.pending.get(sessionId);
    if (early) {
      this.pending.delete(sessionId);
      this.pendingCount -= early.length;
      for (const { n } of early) listener(n);
    }
    const registration = toDisposable(() => {
      this.givenWay.delete(listener);
      if (this.listeners.get(sessionId) === listener) this.listeners.delete(sessionId);
    });
    return Object.assign(registration, { giveWay: () => void this.givenWay.add(listener) });
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
    if (this.pendingCount >= this.max) {
      this.droppedUnknown++;
      const first = this.overflow++ === 0;
      this.options.onDrop?.(
        1,
        first
          ? `dropped an update for session ${n.sessionId}, which nobody opened: ${this.max} such updates are already waiting`
          : undefined,
      );
      return;
    }
    let list = this.pending.get(n.sessionId);
    if (!list) this.pending.set(n.sessionId, (list = []));
    list.push({ at: now, n });
    this.pendingCount++;
    this.armExpiry();
  }

  /** Expires on time as well, so a buffer nobody touches again does not hold its updates. */
  private armExpiry(): void {
    if (this.expiryTimer || this.pendingCount === 0) return;
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = undefined;
      this.expire(this.now());
    }, this.maxAgeMs + 100);
    this.expiryTimer.unref?.();
  }

  private expire(now: number): void {
    let expired = 0;
    const sessions: string[] = [];
    for (const [id, list] of this.pending) {
      const keep = list.filter((e) => now - e.at <= this.maxAgeMs);
      if (keep.length !== list.length) {
        expired += list.length - keep.length;
        sessions.push(id);
        if (keep.length) this.pending.set(id, keep);
        else this.pending.delete(id);
      }
    }
    if (expired > 0) {
      this.droppedUnknown += expired;
      this.pendingCount -= expired;
      const named = sessions.slice(0, 3).join(', ') + (sessions.length > 3 ? ` and ${sessions.length - 3} more` : '');
      this.options.onDrop?.(
        expired,
        `dropped ${expired} update(s) for session(s) nobody opened within ${this.maxAgeMs / 1000} s: ${named}`,
      );
    }
    if (this.pendingCount < this.max) {
      if (this.overflow > 1)
        this.options.onDrop?.(
          0,
          `in all, ${this.overflow} update(s) for unopened sessions were dropped while the buffer was full`,
        );
      this.overflow = 0;
    }
    this.armExpiry();
  }

  dispose(): void {
    clearTimeout(this.expiryTimer);
    this.listeners.clear();
    this.pending.clear();
    this.pendingCount = 0;
    this.activity.dispose();
    this.any.dispose();
  }
}
