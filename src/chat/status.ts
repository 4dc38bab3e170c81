import { sessionKey } from '../agent/sessionKey';
import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';

/**
 * What an open chat's session is doing, as its row shows it:
 * - `needsInput`: a permission or an elicitation waits for the user;
 * - `running`: a turn is in flight;
 * - `failed`: the last turn, or opening the session, failed;
 * - `unseen`: a turn ended while the chat was not visible;
 * - `idle`: none of these (also: not open here).
 * When several hold, the first in this list wins: what needs the user comes first.
 */
export type ChatActivity = 'needsInput' | 'running' | 'failed' | 'unseen' | 'idle';

/** What a chat reports of its session at a moment; {@link ChatStatuses} keeps what follows from the changes. */
export interface ChatReport {
  /** A turn is in flight. */
  readonly running: boolean;
  /** Permissions and elicitations waiting for the user. */
  readonly waiting: number;
  /** The last turn, or opening the session, failed. */
  readonly failed: boolean;
}

interface Entry {
  running: boolean;
  waiting: number;
  failed: boolean;
  unseen: boolean;
  visible: boolean;
}

/**
 * The activity of every session open in a chat in this window, by (agent, session id), and
 * how many need the user (the view's badge and the status bar count them). Each chat reports
 * what it holds ({@link ChatReport}) whenever it changes; the views read `activity` and
 * listen to `onDidChange`.
 */
export class ChatStatuses implements IDisposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<{ agentId: string; sessionId: string }>();
  /** Fires when a session's activity or the count needing input changed. */
  readonly onDidChange: Event<{ agentId: string; sessionId: string }> = this.changed.event;
  private waitingSessions = 0;

  /** A chat opened on the session (visible or not). */
  opened(agentId: string, sessionId: string, visible: boolean): void {
    const key = sessionKey(agentId, sessionId);
    if (this.entries.has(key)) return this.visible(agentId, sessionId, visible);
    this.entries.set(key, { running: false, waiting: 0, failed: false, unseen: false, visible });
  }

  /** The chat closed: the session is no longer watched here. */
  closed(agentId: string, sessionId: string): void {
    const key = sessionKey(agentId, sessionId);
    const entry = this.entries.get(key);
    if (!entry) return;
    const before = activityOf(entry);
    if (entry.waiting > 0) this.waitingSessions--;
    this.entries.delete(key);
    if (before !== 'idle') this.changed.fire({ agentId, sessionId });
  }

  /** The chat became visible or hidden. Showing it clears "unseen". */
  visible(agentId: string, sessionId: string, visible: boolean): void {
    this.update(agentId, sessionId, (e) => {
      e.visible = visible;
      if (visible) e.unseen = false;
    });
  }

  /**
   * What the chat holds now. A turn that ends without failing while the chat is hidden
   * leaves the session "unseen"; a turn that starts clears it.
   */
  report(agentId: string, sessionId: string, now: ChatReport): void {
    this.update(agentId, sessionId, (e) => {
      if (now.running && !e.running) e.unseen = false;
      if (!now.running && e.running && !now.failed && !e.visible) e.unseen = true;
      if (now.waiting > 0 !== e.waiting > 0) this.waitingSessions += now.waiting > 0 ? 1 : -1;
      e.running = now.running;
      e.waiting = now.waiting;
      e.failed = now.failed;
    });
  }

  /** What the session is doing; `idle` when no chat is open on it here. */
  activity(agentId: string, sessionId: string): ChatActivity {
    const entry = this.entries.get(sessionKey(agentId, sessionId));
    return entry ? activityOf(entry) : 'idle';
  }

  /** How many sessions wait for the user. */
  get needsInput(): number {
    return this.waitingSessions;
  }

  dispose(): void {
    this.entries.clear();
    this.changed.dispose();
  }

  private update(agentId: string, sessionId: string, change: (e: Entry) => void): void {
    const entry = this.entries.get(sessionKey(agentId, sessionId));
    if (!entry) return;
    const before = activityOf(entry);
    const waiting = this.waitingSessions;
    change(entry);
    if (activityOf(entry) !== before || this.waitingSessions !== waiting) {
      this.changed.fire({ agentId, sessionId });
    }
  }
}

function activityOf(e: Entry): ChatActivity {
  if (e.waiting > 0) return 'needsInput';
  if (e.running) return 'running';
  if (e.failed) return 'failed';
  if (e.unseen) return 'unseen';
  return 'idle';
}
