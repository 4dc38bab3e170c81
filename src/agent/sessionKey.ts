/** A session as its agent names it: the agent's id in the settings and the agent's session id. */
export interface SessionKey {
  readonly agentId: string;
  readonly sessionId: string;
}

/**
 * One string per session, for maps and sets: the agent's id and the session id joined by a
 * line break, which neither holds usefully. Names and archives are stored under it, so it does
 * not change.
 */
export function sessionKey(agentId: string, sessionId: string): string {
  return `${agentId}\n${sessionId}`;
}
