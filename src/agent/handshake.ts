import {
  methods,
  MessageTooLargeError,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type ClientConnection,
  type InitializeResponse,
} from '@agentclientprotocol/sdk';
import { AgentExited, AgentTimedOut, toTypedError, tooLargeText, type TextRedactor } from './errors';
import type { AgentProcess } from './process';
import { withTimeout } from './timeouts';
import { validateInitializeResult } from './validate';

export interface HandshakeOptions {
  readonly agentName: string;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly timeoutMs: number;
  readonly redactor: TextRedactor;
}

/**
 * `initialize`, the first exchange with a process just started: our capabilities and name go
 * out, the agent's answer comes back checked, within the timeout. When it does not (the process
 * ended first, no answer in time, an answer of the wrong shape), the connection closes, the
 * process is stopped, and the error says what the user can act on.
 */
export async function initialize(
  conn: ClientConnection,
  proc: AgentProcess,
  opts: HandshakeOptions,
): Promise<InitializeResponse> {
  const failEarly = proc.exited.then((e) => {
    throw e;
  });
  failEarly.catch(() => {});
  try {
    const request = conn.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: opts.capabilities,
      clientInfo: { name: opts.clientInfo.name, title: 'ACP Client for VS Code', version: opts.clientInfo.version },
    });
    return validateInitializeResult(
      await withTimeout(
        Promise.race([request, failEarly]),
        opts.timeoutMs,
        () => new AgentTimedOut(opts.agentName, 'initialize', opts.timeoutMs),
      ),
    );
  } catch (e) {
    // Read before our own close: did the agent end the conversation, or did we?
    const closed = conn.signal.aborted ? conn.signal.reason : undefined;
    conn.close();
    await proc.stop(500);
    throw await failedStartError(opts.agentName, e, closed, proc, opts.redactor);
  }
}

/**
 * The error a failed start reports: what the user can act on, with the agent's exit where
 * there was one. `closed` is why the connection closed, if it did before we closed it.
 */
export async function failedStartError(
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
