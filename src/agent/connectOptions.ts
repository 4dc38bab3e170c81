import type { ClientHandlers } from './clientApp';
import type { Logger, TraceLevel } from './log';
import type { Redactor } from './redact';
import type { Timeouts } from './timeouts';
import type { AgentConfig } from './types';

/** What an agent's connection is started with (see `AgentConnection.start`). */
export interface ConnectOptions {
  config: AgentConfig;
  logger: Logger;
  handlers: ClientHandlers;
  clientInfo: { name: string; version: string };
  trace?: () => TraceLevel;
  timeouts?: Partial<Timeouts>;
  /** Where the process starts (the agent's cwd per session comes in each request). */
  cwd?: string;
  /** Values resolved from secret storage: the wire tap redacts them like `env` values. */
  secrets?: readonly string[];
  /**
   * Where the values to hide are kept: the window's, shared with the log channel, so the
   * connection's secrets are masked on every route to the log. A new one when absent.
   */
  redactor?: Redactor;
  /** Limits of the buffer for updates of sessions nobody opened yet (1,000 for 5 s); tests shorten them. */
  updateBuffer?: { max?: number; maxAgeMs?: number };
  /** Limits of the wire (bytes waiting for the agent, its requests answered at once); tests lower them. */
  wire?: { maxQueuedBytes?: number; maxRequestsInFlight?: number };
}
