// Builders of sessions as agents list them, after vscode-pull-request-github's test builders: a
// test names the session's id and the fields it is about; the rest get valid values.
import type { ListSessionsResponse } from '@agentclientprotocol/sdk';
import type { ListedSession } from '../../../src/agent/types';
import { toRow, type SessionRow } from '../../../src/sessions/rows';

/** The folder a built session is in unless the test names another. */
export const PROJECT = '/work/project';

/** A session as `session/list` lists it: in {@link PROJECT}, without a title or a time unless named. */
export function sessionInfo(sessionId: string, fields: Partial<Omit<ListedSession, 'sessionId'>> = {}): ListedSession {
  return { sessionId, cwd: PROJECT, ...fields };
}

/** The same session as a list keeps its row. */
export function sessionRow(sessionId: string, fields: Partial<Omit<ListedSession, 'sessionId'>> = {}): SessionRow {
  return toRow(sessionInfo(sessionId, fields));
}

/** A page of `session/list`: these sessions, and a cursor when there are more. */
export function listPage(sessions: readonly ListedSession[], nextCursor?: string): ListSessionsResponse {
  return { sessions: [...sessions], ...(nextCursor !== undefined ? { nextCursor } : {}) };
}
