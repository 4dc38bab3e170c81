import { sessionKey } from '../agent/sessionKey';
import type { Library } from './library';
import { pathKey } from '../platform/pathKey';
import type { KeptSession } from './types';

/**
 * A kept session by its id alone (the checkpoints' journals and `file:` hits name a session so),
 * or by its agent and id.
 */
export type KeptLookup = (sessionId: string, agentId?: string) => KeptSession | undefined;

/**
 * The kept sessions of `folders`, each folder read from the library once, or of everything
 * kept in one read, to look up by id. By id alone, of two agents' sessions under one id the
 * first read wins (in a folder, the one opened last). Rejects when the library cannot answer.
 */
export async function keptSessions(library: Library, folders: readonly string[] | 'everything'): Promise<KeptLookup> {
  const seen = new Set<string>();
  const scopes =
    folders === 'everything'
      ? [{}]
      : folders.filter((f) => !seen.has(pathKey(f)) && seen.add(pathKey(f))).map((cwd) => ({ cwd }));
  const kept = (await Promise.all(scopes.map((scope) => library.sessions(scope)))).flat();
  const byId = new Map<string, KeptSession>();
  const byKey = new Map<string, KeptSession>();
  for (const k of kept) {
    if (!byId.has(k.sessionId)) byId.set(k.sessionId, k);
    byKey.set(sessionKey(k.agentId, k.sessionId), k);
  }
  return (sessionId, agentId) =>
    agentId === undefined ? byId.get(sessionId) : byKey.get(sessionKey(agentId, sessionId));
}
