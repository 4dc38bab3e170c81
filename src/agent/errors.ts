import { MessageTooLargeError, RequestError } from '@agentclientprotocol/sdk';

/**
 * The typed errors of the extension, all here. Each one's message is its one sentence for the
 * user, written once, in its constructor (the agent's own words only ever as a capped part of
 * it; a `ProtocolError` carries just those words, and `app/errorText.ts` makes its sentence).
 * `app/errorText.ts` adds what to do in VS Code where that helps; nobody else shows an error.
 */

/** One line, at most 300 characters, no control or bidi characters: how others' text enters our sentences. */
export function oneLine(s: string): string {
  const line = s
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** What a start that never ran needs: the words after "<agent> could not be started: ". */
function startProblem(spawnError: string): string {
  return `${oneLine(spawnError)}. Check "acp.agents" in your settings.`;
}

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
        ? `${agentName} could not be started: ${startProblem(spawnError)}`
        : reason
          ? `${agentName} ${reason}`
          : `${agentName} stopped (${code !== null ? `exit code ${code}` : signal ? `signal ${signal}` : 'no exit code'})`,
    );
  }

  /** Why the process never ran and what to do, when it never did (a row's detail under its name). */
  get startProblem(): string | undefined {
    return this.spawnError === undefined ? undefined : startProblem(this.spawnError);
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
    super(`${agentName} did not answer ${phase} within ${Math.round(ms / 1000)} seconds.`);
  }
}

/** The agent wants the user to sign in first (`-32000`). `detail` is what the agent said. */
export class AuthRequired extends Error {
  override readonly name = 'AuthRequired';
  constructor(
    readonly agentName: string,
    readonly detail: string,
  ) {
    // The agent's own reason ("the API key is wrong") helps when signing in is not the fix.
    const why = oneLine(detail.replace(/^Authentication required:?\s*/i, ''));
    super(`Sign in to ${agentName} to continue${why ? ` (${agentName} says: ${why})` : ''}`);
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

/** An agent was not started: it was removed or stopped meanwhile, or the workspace is not trusted. */
export class StartRefused extends Error {
  override readonly name = 'StartRefused';
}

/** A setting refers to a secret that was never stored. */
export class MissingSecret extends Error {
  override readonly name = 'MissingSecret';
  constructor(
    readonly secretName: string,
    /** Where the reference is, e.g. `Claude Code (env.ANTHROPIC_API_KEY)`. */
    readonly where: string,
  ) {
    super(`the secret "${secretName}" used by ${where} is not set`);
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
    super('Cancelled.');
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

/**
 * The agent stopped reading what the client sends it: the connection closes, as for a message
 * over the size limit. `message` is the words for the user, after the agent's name.
 */
export class AgentNotReading extends Error {
  override readonly name = 'AgentNotReading';
  constructor(readonly maxBytes: number) {
    super(
      `stopped reading what the client sends it (${Math.round(maxBytes / (1024 * 1024))} MiB were waiting for it), so the connection was closed and the agent stopped`,
    );
  }
}

/** "sent a message over 32 MiB …": the words for a connection the size limit closed. */
export function tooLargeText(maxBytes: number): string {
  const size = maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`;
  return `sent a message over ${size}, the largest this client accepts, so the connection was closed and the agent stopped`;
}
