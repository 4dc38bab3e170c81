import { MessageTooLargeError, type ClientConnection } from '@agentclientprotocol/sdk';
import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import { AgentNotReading, tooLargeText, type AgentExited } from './errors';
import type { Logger } from './log';

/**
 * The end of an agent's process, as the connection's callers see it: the exit (told with why
 * the connection closed first, when we closed it for a message over the limit or an agent that stopped reading), the calls
 * waiting on it, and an event that a listener subscribing late still hears.
 */
export class ExitWatch implements IDisposable {
  private readonly emitter = new Emitter<AgentExited>();
  private fired: AgentExited | undefined;
  private exit: AgentExited | undefined;
  /** Why the connection closed before the process ended, when we know (a message over the limit, an agent that stopped reading). */
  private closedBecause: string | undefined;
  /** The exit, once the process ended (as told by {@link exited}). */
  readonly exited: Promise<AgentExited>;
  /** The calls waiting on the process; each leaves when it settles, so nothing it returned stays reachable. */
  private readonly waiters = new Set<(e: AgentExited) => void>();

  /** `quiet`: the end was asked for (a stop), so `onDidExit` stays silent. */
  constructor(
    processExited: Promise<AgentExited>,
    conn: ClientConnection,
    agentName: string,
    logger: Logger,
    quiet: () => boolean,
  ) {
    const onClose = () => {
      const reason = conn.signal.reason;
      if (reason instanceof MessageTooLargeError) this.closedBecause = tooLargeText(reason.maxMessageBytes);
      else if (reason instanceof AgentNotReading) this.closedBecause = reason.message;
      if (this.closedBecause) logger.error(`${agentName} ${this.closedBecause}`);
    };
    if (conn.signal.aborted) onClose();
    else conn.signal.addEventListener('abort', onClose, { once: true });
    this.exited = processExited.then((e) => {
      const exit = this.closedBecause ? e.because(this.closedBecause) : e;
      this.exit = exit;
      for (const reject of this.waiters) reject(exit);
      this.waiters.clear();
      if (!quiet()) {
        this.fired = exit;
        this.emitter.fire(exit);
      }
      return exit;
    });
  }

  /** How the process ended; undefined while it runs. */
  get ended(): AgentExited | undefined {
    return this.exit;
  }

  /**
   * Fires once if the process ends while connected (not when we stop it). A listener that
   * subscribes after that still hears of it: an agent may quit right after answering
   * `initialize`, before anyone had the connection to subscribe to.
   */
  readonly onDidExit: Event<AgentExited> = (listener, thisArgs, disposables) => {
    const fired = this.fired;
    if (!fired) return this.emitter.event(listener, thisArgs, disposables);
    let live = true;
    queueMicrotask(() => live && listener.call(thisArgs, fired));
    const subscription = { dispose: () => void (live = false) };
    disposables?.push(subscription);
    return subscription;
  };

  /**
   * A promise that rejects with the exit, for one call to race its request against; `leave()`
   * when the call settles. Not `exited.then(…)`: a reaction on that long-lived promise would
   * keep every result alive until the agent exits.
   */
  wait(): { readonly rejected: Promise<never>; leave(): void } {
    let leave = () => {};
    const rejected = new Promise<never>((_, reject) => {
      this.waiters.add(reject);
      leave = () => this.waiters.delete(reject);
    });
    return { rejected, leave };
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
