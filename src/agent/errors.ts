/**
 * The few typed errors of the core. `ui/messages.ts` is the one place that turns them into
 * words for the user; nobody else shows a raw `e.message`.
 */

/** The agent process ended (or never started: `spawnError`). */
export class AgentExited extends Error {
  override readonly name = 'AgentExited';
  constructor(
    readonly agentName: string,
    readonly code: number | null,
    readonly signal: string | null,
    /** The last lines the agent wrote to stderr. */
    readonly stderrTail: string,
    readonly spawnError?: string,
  ) {
    super(
      spawnError
        ? `${agentName} could not be started: ${spawnError}`
        : `${agentName} stopped${code !== null ? ` with exit code ${code}` : ''}${signal ? ` (${signal})` : ''}`,
    );
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
  InvalidParams: -32602,
  InternalError: -32603,
  RequestCancelled: -32800,
} as const;
