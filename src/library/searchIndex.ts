/**
 * Queries over the library's index: sessions by the words said in them (with a snippet of the
 * entry that matched best), and sessions by the files their tool calls touched. Each word is
 * looked up as a prefix once, over chunk rowids that name their session; ranking and snippets
 * are done here, on the few sessions that matched.
 */
import { pathKey } from './pathKey';
import { allQuery, bestText, compareRanked, prefixQuery, queryWords, snippet, timeOf } from './query';
import { CHUNK_BITS, MAX_CHUNK, chunkRange, chunkRowid } from './schema';
import { keptFrom, type Queries, type Row } from './rows';
import type { Scope, SearchHit, TouchedHit } from './types';

function inScope(r: Row, scope: Scope): boolean {
  if (scope.agentId !== undefined && r.agent !== scope.agentId) return false;
  if (scope.cwd !== undefined && r.cwdKey !== pathKey(scope.cwd)) return false;
  return true;
}

/** The sessions' rows for a set of ids, in one statement. */
function sessionRows(store: Queries, sids: Iterable<number>): Row[] {
  return store.all('SELECT * FROM sessions WHERE sid IN (SELECT value FROM json_each(?))', [JSON.stringify([...sids])]);
}

export function searchSessions(store: Queries, typed: string, scope: Scope, limit: number): SearchHit[] {
  const words = queryWords(typed);
  if (!words.length) return [];
  // Bit i set: the session holds a word starting with words[i].
  const held = new Map<number, number>();
  words.forEach((w, i) => {
    for (const r of store.all(`SELECT DISTINCT rowid >> ${CHUNK_BITS} AS sid FROM search WHERE search MATCH ?`, [
      prefixQuery(w),
    ])) {
      const sid = Number(r.sid);
      held.set(sid, (held.get(sid) ?? 0) | (1 << i));
    }
  });
  if (!held.size) return [];
  const ranked = sessionRows(store, held.keys())
    .filter((r) => inScope(r, scope))
    .map((r) => {
      const mask = held.get(Number(r.sid)) ?? 0;
      const mine = words.filter((_, i) => mask & (1 << i));
      return { r, mine, matched: mine.length, time: timeOf(r.updatedAt as string | null) ?? Number(r.keptAt) };
    })
    .sort(compareRanked)
    .slice(0, limit);
  return ranked.map(({ r, mine, matched }) => {
    const s = keptFrom(r);
    const hit: SearchHit = { agentId: s.agentId, sessionId: s.sessionId, cwd: s.cwd, matched, words: words.length };
    if (s.title !== undefined) hit.title = s.title;
    if (s.updatedAt !== undefined) hit.updatedAt = s.updatedAt;
    const found = bestEntry(store, Number(r.sid), mine);
    if (found) {
      hit.snippet = snippet(found.text, mine);
      hit.entryIndex = found.index;
    }
    return hit;
  });
}

/**
 * The entry of a session that shows its matched words best: in the first chunk that holds all
 * of them (or, when they are spread over chunks, the first that holds the first word), the
 * entry that holds the most.
 */
function bestEntry(store: Queries, sid: number, words: string[]): { index: number; text: string } | undefined {
  const lo = chunkRowid(sid, 0);
  const hi = chunkRowid(sid, MAX_CHUNK);
  const first = (query: string) =>
    store.get('SELECT rowid FROM search WHERE search MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid LIMIT 1', [
      query,
      lo,
      hi,
    ]);
  const row = first(allQuery(words)) ?? first(prefixQuery(words[0]!));
  if (!row) return undefined;
  const [from, to] = chunkRange(Number(row.rowid) - lo);
  const entries = store.all(
    "SELECT idx, text FROM entries WHERE sid = ? AND idx BETWEEN ? AND ? AND text != '' ORDER BY idx",
    [sid, from, to],
  );
  const best = bestText(
    entries.map((e) => String(e.text)),
    words,
  );
  return best < 0 ? undefined : { index: Number(entries[best]!.idx), text: String(entries[best]!.text) };
}

/** Kept sessions that touched a file (any of its keys), newest first, with the first entry that did. */
export function touchedBy(store: Queries, keys: readonly string[], scope: Scope): TouchedHit[] {
  const rows = store.all(
    `SELECT s.*, p.path AS touchedPath, p.idx AS touchedIdx FROM paths p JOIN sessions s ON s.sid = p.sid
     WHERE p.pathKey IN (SELECT value FROM json_each(?))`,
    [JSON.stringify([...new Set(keys)])],
  );
  const bySession = new Map<number, Row>();
  for (const r of rows) {
    if (!inScope(r, scope)) continue;
    const seen = bySession.get(Number(r.sid));
    if (!seen || Number(r.touchedIdx) < Number(seen.touchedIdx)) bySession.set(Number(r.sid), r);
  }
  return sortTouched(
    [...bySession.values()].map((r) => {
      const s = keptFrom(r);
      const hit: TouchedHit = {
        agentId: s.agentId,
        sessionId: s.sessionId,
        cwd: s.cwd,
        entryIndex: Number(r.touchedIdx),
        path: String(r.touchedPath),
      };
      if (s.title !== undefined) hit.title = s.title;
      if (s.updatedAt !== undefined) hit.updatedAt = s.updatedAt;
      return hit;
    }),
  );
}

/** Newest first by the agent's `updatedAt`; sessions without one last, in a stable order. */
export function sortTouched(hits: TouchedHit[]): TouchedHit[] {
  return hits.sort(
    (a, b) =>
      (timeOf(b.updatedAt) ?? -Infinity) - (timeOf(a.updatedAt) ?? -Infinity) ||
      a.agentId.localeCompare(b.agentId) ||
      a.sessionId.localeCompare(b.sessionId),
  );
}
