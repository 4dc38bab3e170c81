import { sessionKey } from '../agent/sessionKey';
import type { ChangeSummary } from '../checkpoints/touching';
import type { SearchScope } from './contentSearch';
import { keptSessions } from '../library/keptSessions';
import type { Library } from '../library/library';
import { money, type SessionStats } from '../library/stats';
import { duration } from '../protocol/duration';

/** "3 files +40 −2 · USD 0.75 · 12 min active": what a session changed, cost and ran, or undefined. */
export function sessionNote(stats: SessionStats | undefined, changes: ChangeSummary | undefined): string | undefined {
  const parts: string[] = [];
  if (changes?.files)
    parts.push(`${changes.files} ${changes.files === 1 ? 'file' : 'files'} +${changes.added} −${changes.deleted}`);
  if (stats?.cost) parts.push(money(stats.cost.amount, stats.cost.currency));
  if (stats?.activeMs) parts.push(`${duration(stats.activeMs)} active`);
  return parts.length ? parts.join(' · ') : undefined;
}

/** Where the notes come from: the library's kept use and the checkpoints' journals. */
export interface SessionNoteSources {
  library: Library | undefined;
  changes?: { sessionSummaries(folders: readonly string[]): Promise<Map<string, ChangeSummary>> };
}

/**
 * Every session's note in `folders` at once (one library read of each folder, or of everything
 * kept when the list shows sessions of any folder, and one read of each journal), for a list
 * that shows many rows: looked up by agent and session id, nothing read per row.
 */
export async function sessionNotes(
  sources: SessionNoteSources,
  folders: readonly string[],
  scope: SearchScope = 'window',
): Promise<(agentId: string, sessionId: string) => string | undefined> {
  const [kept, changes] = await Promise.all([
    sources.library && keptSessions(sources.library, scope === 'everything' ? scope : folders).catch(() => undefined),
    sources.changes?.sessionSummaries(folders).catch(() => new Map<string, ChangeSummary>()) ??
      new Map<string, ChangeSummary>(),
  ]);
  const notes = new Map<string, string | undefined>();
  return (agentId, sessionId) => {
    const key = sessionKey(agentId, sessionId);
    if (!notes.has(key)) notes.set(key, sessionNote(kept?.(sessionId, agentId)?.stats, changes.get(sessionId)));
    return notes.get(key);
  };
}
