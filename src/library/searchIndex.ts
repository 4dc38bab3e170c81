/**
 * Queries over the library's index: sessions by the words said in them (with a snippet of the
 * entry that matched best), and sessions by the files their tool calls touched. Each word is
 * looked up as a prefix once, over chunk rowids that name their session; ranking and snippets
 * are done here, on the few sessions that matched.
 */
import { pathKey } from './pathKey';
import { bestText, compareRanked, prefixQuery, queryWords, snippet, timeOf } from './query';
import { CHUNK_BITS, chunkRowid } from './schema';
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

/** The chunks (their rowids) that hold a word starting with `word`, read as one string. */
function chunksWith(store: Queries, word: string): number[] {
  const ids = store.get('SELECT group_concat(rowid) AS ids FROM search WHERE search MATCH ?', [prefixQuery(word)])?.ids;
  return typeof ids === 'string' && ids ? ids.split(',').map(Number) : [];
}

const popcount = (n: number) => {
  let c = 0;
  for (; n; n &= n - 1) c++;
  return c;
};

export function searchSessions(store: Queries, typed: string, scope: Scope, limit: number): SearchHit[] {
  const words = queryWords(typed);
  if (!words.length) return [];
  // Bit i set: the session (or the chunk) holds a word starting with words[i].
  const held = new Map<number, number>();
  const chunks = new Map<number, Map<number, number>>();
  words.forEach((w, i) => {
    for (const rowid of chunksWith(store, w)) {
      const sid = Math.floor(rowid / 2 ** CHUNK_BITS);
      held.set(sid, (held.get(sid) ?? 0) | (1 << i));
      let mine = chunks.get(sid);
      if (!mine) chunks.set(sid, (mine = new Map()));
      mine.set(rowid, (mine.get(rowid) ?? 0) | (1 << i));
    }
  });
  if (!held.size) return [];
  const ranked = sessionRows(store, held.keys())
    .filter((r) => inScope(r, scope))
    .map((r) => {
      const mask = held.get(Number(r.sid)) ?? 0;
      return { r, mask, matched: popcount(mask), time: timeOf(r.updatedAt as string | null) ?? Number(r.keptAt) };
    })
    .sort(compareRanked)
    .slice(0, limit);
  return ranked.map(({ r, mask, matched }) => {
    const s = keptFrom(r);
    const hit: SearchHit = { agentId: s.agentId, sessionId: s.sessionId, cwd: s.cwd, matched, words: words.length };
    if (s.title !== undefined) hit.title = s.title;
    if (s.updatedAt !== undefined) hit.updatedAt = s.updatedAt;
    const found = bestEntry(store, Number(r.sid), chunks.get(Number(r.sid))!, words, mask);
    if (found) {
      hit.snippet = snippet(
        found.text,
        words.filter((_, i) => mask & (1 << i)),
      );
      hit.entryIndex = found.index;
    }
    return hit;
  });
}

/**
 * The entry of a session that shows its words best: in the first chunk that holds the most of
 * them (all, when one does), the entry that holds the most.
 */
function bestEntry(
  store: Queries,
  sid: number,
  chunks: Map<number, number>,
  words: string[],
  mask: number,
): { index: number; text: string } | undefined {
  let best = -1;
  let bestCount = 0;
  for (const [rowid, m] of chunks) {
    const n = popcount(m);
    if (n > bestCount || (n === bestCount && rowid < best)) {
      best = rowid;
      bestCount = n;
    }
  }
  if (best < 0) return undefined;
  const entries = store.chunkTexts(sid, best - chunkRowid(sid, 0));
  const mine = words.filter((_, i) => mask & (chunks.get(best) ?? 0) & (1 << i));
  const at = bestText(
    entries.map((e) => e.text),
    mine,
  );
  return at < 0 ? undefined : entries[at];
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
