import { MessageTooLargeError, RequestError } from '@agentclientprotocol/sdk';

/**
 * The few typed errors of the core. `ui/messages.ts` is the one place that turns them into
 * words for the user; nobody else shows a raw `e.message`.
 */

/** The agent process ended (or never got as far as answering `initialize`: `spawnError`). */
export class AgentExited extends Error {
  override readonly name = 'AgentExited';
  constructor(
    readonly agentName: string,
    readonly code: number | null,
    readonly signal: string | null,
    /** The last lines the agent wrote to stderr (known secrets redacted). */
    readonly stderrTail: string,
    /** Why it could not be started, e.g. `the command "x" was not found`. */
    readonly spawnError?: string,
    /** Why the connection ended it, when we did (a message over the size limit). */
    readonly reason?: string,
  ) {
    super(
      spawnError
        ? `${agentName} could not be started: ${spawnError}. Check "acp.agents" in your settings.`
        : reason
          ? `${agentName} ${reason}`
          : `${agentName} stopped${code !== null ? ` with exit code ${code}` : ''}${signal ? ` (${signal})` : ''}`,
    );
  }

  /** The same exit, told as a start that failed (it ended before answering `initialize`). */
  asStartFailure(): AgentExited {
    if (this.spawnError) return this;
    const how = this.code !== null ? ` with code ${this.code}` : this.signal ? ` on ${this.signal}` : '';
    const last = this.stderrTail
      .split('\n')
      .filter((l) => l.trim())
      .at(-1);
    const said = last ? ` (its last output: "${last.length > 200 ? `${last.slice(0, 200)}…` : last}")` : '';
    return new AgentExited(
      this.agentName,
      this.code,
      this.signal,
      this.stderrTail,
      `it exited${how} before answering initialize${said}`,
    );
  }

  /** The same exit, with the reason the connection closed. */
  because(reason: string): AgentExited {
    return new AgentExited(this.agentName, this.code, this.signal, this.stderrTail, this.spawnError, reason);
  }
}

/** A request got no answer in time. `phase` is the method, e.g. `session/list`. */
export class AgentTimedOut extends Error {
  override readonly name = 'AgentTimedOut';
  constructor(
    readonly agentName: string,
    readonly phase: string,
    readonly ms: number,
  ) {
    super(`${agentName} did not answer ${phase} within ${Math.round(ms / 1000)} s`);
  }
}

/** The agent wants the user to sign in first (`-32000`). */
export class AuthRequired extends Error {
  override readonly name = 'AuthRequired';
  constructor(
    readonly agentName: string,
    readonly detail: string,
  ) {
    super(`${agentName} needs you to sign in${detail ? `: ${detail}` : ''}`);
  }
}

/** The agent answered with a JSON-RPC error, or with a result of the wrong shape. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly agentName: string,
    readonly method: string,
    message: string,
    /** The JSON-RPC error code, when the agent sent one. */
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The agent does not advertise `sessionCapabilities.list`; views say so instead of asking. */
export class CannotList extends Error {
  override readonly name = 'CannotList';
  constructor(readonly agentName: string) {
    super(`${agentName} cannot list sessions.`);
  }
}

/** The caller gave up (the user cancelled, the panel closed). */
export class Cancelled extends Error {
  override readonly name = 'Cancelled';
  constructor(readonly phase: string) {
    super(`${phase} was cancelled`);
  }
}

/** JSON-RPC codes as the SDK uses them. */
export const ErrorCodes = {
  AuthRequired: -32000,
  ResourceNotFound: -32002,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  RequestCancelled: -32800,
} as const;

/** Masks known secrets in texts that came from the agent. */
export interface TextRedactor {
  text(s: string): string;
  data(d: unknown): unknown;
}

const asIs: TextRedactor = { text: (s) => s, data: (d) => d };

/** Maps what the SDK throws to our few typed errors; the agent's own texts pass through `redact`. */
export function toTypedError(agentName: string, method: string, e: unknown, redact: TextRedactor = asIs): Error {
  if (
    e instanceof AgentExited ||
    e instanceof AgentTimedOut ||
    e instanceof Cancelled ||
    e instanceof ProtocolError ||
    e instanceof AuthRequired
  )
    return e;
  if (e instanceof RequestError) {
    if (e.code === ErrorCodes.AuthRequired) return new AuthRequired(agentName, redact.text(e.message));
    if (e.code === ErrorCodes.RequestCancelled) return new Cancelled(method);
    return new ProtocolError(
      agentName,
      method,
      redact.text(e.message) || `${method} failed`,
      e.code,
      redact.data(e.data),
    );
  }
  if (e instanceof MessageTooLargeError) return new ProtocolError(agentName, method, tooLargeText(e.maxMessageBytes));
  return new ProtocolError(agentName, method, redact.text(e instanceof Error ? e.message : String(e)));
}

/** "sent a message over 32 MiB …": the words for a connection the size limit closed. */
export function tooLargeText(maxBytes: number): string {
  const size = maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`;
  return `sent a message over ${size}, the largest this client accepts, so the connection was closed and the agent stopped`;
}

/**
 * The error a failed start reports: what the user can act on, with the agent's exit where
 * there was one. `closed` is why the connection closed, if it did before we closed it.
 */
export async function startFailure(
  name: string,
  e: unknown,
  closed: unknown,
  proc: { readonly exited: Promise<AgentExited>; readonly exit: AgentExited | undefined },
  redact: TextRedactor,
): Promise<Error> {
  if (closed instanceof MessageTooLargeError) return (await proc.exited).because(tooLargeText(closed.maxMessageBytes));
  if (e instanceof AgentTimedOut) return e;
  if (e instanceof AgentExited) return e.asStartFailure();
  // The pipe closed a moment before the exit event: the exit is the news.
  if (closed !== undefined && proc.exit) return proc.exit.asStartFailure();
  return toTypedError(name, 'initialize', e, redact);
}
