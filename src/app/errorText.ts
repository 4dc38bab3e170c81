import { AgentExited, AuthRequired, ErrorCodes, MissingSecret, oneLine, ProtocolError } from '../agent/errors';

/**
 * The one place that turns errors into words for the user. Our errors carry their sentence
 * (see agent/errors.ts); this adds what to do in VS Code where that helps. A `ProtocolError`
 * carries only the agent's words: its sentence is made here, the agent's words capped and after
 * our own. Nobody else shows a raw `e.message`.
 */
export function describeError(e: unknown): string {
  if (e instanceof ProtocolError) return protocolSentence(e);
  const said = oneLine(e instanceof Error ? e.message : String(e));
  if (e instanceof AgentExited && !e.spawnError)
    return `${said}. The log has ${e.reason ? 'the details' : 'its last output'}.`;
  if (e instanceof AuthRequired)
    return `${said}: choose "Sign in to ${e.agentName}" in the Sessions view or run "ACP: Sign In".`;
  if (e instanceof MissingSecret) return `${said}. Run "ACP: Set Agent Secret" to store it.`;
  return said || 'Something went wrong.';
}

function protocolSentence(e: ProtocolError): string {
  if (e.code === ErrorCodes.ResourceNotFound) return `${e.agentName} does not know this session any more.`;
  const detail = oneLine(e.message);
  // Agents often say only "Internal error" and put the reason in `data` (Gemini CLI: `{ details }`).
  const more = dataDetail(e.data);
  const said = more && !detail.includes(more) ? (detail ? `${detail} (${more})` : more) : detail;
  return `${e.agentName} could not complete ${e.method}${said ? `: ${said}` : '.'}`;
}

/** The reason an agent put in an error's `data`: a string, or a `details`/`message`/`reason` string in it. */
function dataDetail(data: unknown): string {
  if (typeof data === 'string') return oneLine(data);
  if (data && typeof data === 'object') {
    for (const key of ['details', 'detail', 'message', 'reason', 'error']) {
      const value = (data as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim()) return oneLine(value);
    }
  }
  return '';
}
