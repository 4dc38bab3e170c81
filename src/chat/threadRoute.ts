import type { AgentConnection } from '../agent/connection';
import type { RouteRegistration } from '../agent/router';
import { Disposable, MutableDisposable } from '../base/lifecycle';
import { QuietTimer } from '../base/quietTimer';
import type { Thread } from './thread';

/**
 * Quiet after which updates that came outside any turn or load end their message. Some agents
 * answer `session/load` first and replay the history after it (Gemini CLI sends all but the
 * first message after the response); nothing else marks the last replayed message finished,
 * so it would stay open and never be rendered as Markdown.
 */
export const IDLE_SETTLE_MS = 400;

/**
 * The way one session's updates reach its thread: registered with the connection's router,
 * and a quiet spell outside a turn or a load ends the open message.
 */
export class ThreadRoute extends Disposable {
  private readonly route = this.register(new MutableDisposable<RouteRegistration>());
  /** Updates outside a turn or a load (a replay after the load response): end their message once they stop. */
  private readonly settle = this.register(
    new QuietTimer(IDLE_SETTLE_MS, () => {
      if (!this.busy()) this.thread.markTurnEnded();
    }),
  );

  /** `busy`: a turn or a load is under way, whose end closes its messages instead. */
  constructor(
    private readonly thread: Thread,
    private readonly busy: () => boolean,
  ) {
    super();
  }

  /** Agents may send updates before the response: open the route before the request. */
  open(c: AgentConnection, sessionId: string, onUpdate?: () => void): void {
    this.route.value = undefined;
    this.route.value = c.router.register(sessionId, (n) => {
      this.thread.apply(n.update);
      onUpdate?.();
      if (!this.busy()) this.settle.touch();
    });
  }

  /** No more updates of the session reach the thread. */
  close(): void {
    this.route.value = undefined;
  }

  /** The chat is closing: a chat that opens the session again meanwhile takes the route. */
  giveWay(): void {
    this.route.value?.giveWay();
  }
}
