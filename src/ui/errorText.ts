import { AgentExited, AgentTimedOut, AuthRequired, Cancelled, ErrorCodes, ProtocolError } from '../agent/errors';
import { StartRefused } from '../agent/agentHost';
import { MissingSecret } from '../agent/secrets';

/**
 * The one place that turns errors into words for the user. Nobody else shows a raw
 * `e.message`: agents' messages can be long, technical or hostile, so they are capped and
 * put after our own sentence.
 */
export function describeError(e: unknown): string {
  if (e instanceof AgentExited) {
    if (e.spawnError) return `${e.agentName} could not be started: ${startFailure(e)}`;
    if (e.reason) return `${e.agentName} ${cap(e.reason)}. The log has the details.`;
    const how = e.code !== null ? `exit code ${e.code}` : e.signal ? `signal ${e.signal}` : 'no exit code';
    return `${e.agentName} stopped (${how}). The log has its last output.`;
  }
  if (e instanceof AgentTimedOut)
    return `${e.agentName} did not answer ${e.phase} within ${Math.round(e.ms / 1000)} seconds.`;
  if (e instanceof AuthRequired) {
    // The agent's own reason ("the API key is wrong") helps when signing in is not the fix.
    const why = cap(e.detail.replace(/^Authentication required:?\s*/i, ''));
    return `Sign in to ${e.agentName} to continue${why ? ` (${e.agentName} says: ${why})` : ''}: choose "Sign in to ${e.agentName}" in the Sessions view or run "ACP: Sign In".`;
  }
  if (e instanceof MissingSecret) return `${cap(e.message)}. Run "ACP: Set Agent Secret" to store it.`;
  if (e instanceof Cancelled) return 'Cancelled.';
  if (e instanceof StartRefused) return cap(e.message);
  if (e instanceof ProtocolError) {
    if (e.code === ErrorCodes.ResourceNotFound) return `${e.agentName} does not know this session any more.`;
    const detail = cap(e.message);
    // Agents often say only "Internal error" and put the reason in `data` (Gemini CLI: `{ details }`).
    const more = dataDetail(e.data);
    const said = more && !detail.includes(more) ? (detail ? `${detail} (${more})` : more) : detail;
    return `${e.agentName} could not complete ${e.method}${said ? `: ${said}` : '.'}`;
  }
  return cap(e instanceof Error ? e.message : String(e)) || 'Something went wrong.';
}

/** Why an agent's process never ran, and what to do (the words after "X could not be started: "). */
export function startFailure(e: AgentExited): string {
  return `${cap(e.spawnError ?? '')}. Check "acp.agents" in your settings.`;
}

/** The reason an agent put in an error's `data`: a string, or a `details`/`message`/`reason` string in it. */
function dataDetail(data: unknown): string {
  if (typeof data === 'string') return cap(data);
  if (data && typeof data === 'object') {
    for (const key of ['details', 'detail', 'message', 'reason', 'error']) {
      const value = (data as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim()) return cap(value);
    }
  }
  return '';
}

/** One line, at most 300 characters, no control characters. */
function cap(s: string): string {
  const line = s
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
