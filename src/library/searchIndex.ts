/**
 * Queries over the library's index: sessions by the words said in them (with a snippet of the
 * entry that matched best), and sessions by the files their tool calls touched. Each word is
 * looked up as a prefix once, over chunk rowids that name their session; ranking and snippets
 * are done here, on the few sessions that matched.
 */
import { pathKey } from '../platform/pathKey';
import { bestText, compareRanked, queryWords, snippet, timeOf } from './query';
import { CHUNK_BITS, chunkRowid } from './schema';
import { keptFrom, num, str, type Queries, type RankRow, type Row } from './rows';
import type { Scope, SearchFilter, SearchHit, TouchedHit } from './types';

function inScope(r: { agent?: unknown; cwdKey?: unknown }, scope: Scope, cwdKey: string | undefined): boolean {
  if (scope.agentId !== undefined && r.agent !== scope.agentId) return false;
  if (cwdKey !== undefined && r.cwdKey !== cwdKey) return false;
  return true;
}

/** Whether a session passes the typed filters. */
function kept(s: RankRow, f: SearchFilter): boolean {
  const agents = f.agentLike !== undefined || f.agentIds !== undefined;
  if (agents && !f.agentIds?.includes(s.agent) && !(f.agentLike !== undefined && s.agentLower.includes(f.agentLike)))
    return false;
  if (f.folderLike !== undefined && !s.cwdLower.includes(f.folderLike)) return false;
  if (f.after !== undefined || f.before !== undefined) {
    const t = timeOf(s.updatedAt);
    if (t === undefined || (f.after !== undefined && t < f.after) || (f.before !== undefined && t >= f.before))
      return false;
  }
  return true;
}

const popcount = (n: number) => {
  let c = 0;
  for (; n; n &= n - 1) c++;
  return c;
};

const SESSION_SPAN = 2 ** CHUNK_BITS;

/** The first index in an ascending list at or above `value`. */
function lowerBound(list: Float64Array, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function searchSessions(
  store: Queries,
  typed: string,
  scope: Scope,
  limit: number,
  filter: SearchFilter = {},
): SearchHit[] {
  const words = queryWords(typed);
  if (!words.length) return [];
  // Per word, the chunks that hold it (ascending rowids); per session, a bit per word it holds.
  const lists = words.map((w) => store.wordChunks(w));
  const held = new Map<number, number>();
  lists.forEach((list, i) => {
    let last = -1;
    for (const rowid of list) {
      const sid = Math.floor(rowid / SESSION_SPAN);
      if (sid === last) continue;
      last = sid;
      held.set(sid, (held.get(sid) ?? 0) | (1 << i));
    }
  });
  if (!held.size) return [];
  const rows = store.rankRows();
  const cwdKey = scope.cwd === undefined ? undefined : pathKey(scope.cwd);
  const ranked: Array<{ sid: number; mask: number; matched: number; time: number }> = [];
  for (const [sid, mask] of held) {
    const s = rows.get(sid);
    if (s && inScope(s, scope, cwdKey) && kept(s, filter))
      ranked.push({ sid, mask, matched: popcount(mask), time: s.time });
  }
  ranked.sort(compareRanked);
  const top = ranked.slice(0, limit);
  // The names of the hits alone: ranking needs none.
  const names = new Map(
    store
      .all('SELECT sid, session, title FROM sessions WHERE sid IN (SELECT value FROM json_each(?))', [
        JSON.stringify(top.map((r) => r.sid)),
      ])
      .map((r) => [num(r.sid), r]),
  );
  return top.map(({ sid, mask, matched }) => {
    const s = rows.get(sid)!;
    // Read in the same hold as the rows (which a change to the file drops): it is there.
    const name = names.get(sid)!;
    const hit: SearchHit = {
      agentId: s.agent,
      sessionId: str(name.session)!,
      cwd: s.cwd,
      matched,
      words: words.length,
    };
    const title = str(name.title);
    if (title !== undefined) hit.title = title;
    if (s.updatedAt !== undefined) hit.updatedAt = s.updatedAt;
    const found = bestEntry(store, sid, chunksOf(sid, lists), words);
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

/** A session's chunks that hold any of the words, with a bit per word each holds. */
function chunksOf(sid: number, lists: readonly Float64Array[]): Map<number, number> {
  const out = new Map<number, number>();
  const lo = sid * SESSION_SPAN;
  lists.forEach((list, i) => {
    for (let at = lowerBound(list, lo); at < list.length && list[at]! < lo + SESSION_SPAN; at++)
      out.set(list[at]!, (out.get(list[at]!) ?? 0) | (1 << i));
  });
  return out;
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
  const mine = words.filter((_, i) => (chunks.get(best) ?? 0) & (1 << i));
  const at = bestText(
    entries.map((e) => e.text),
    mine,
  );
  return at < 0 ? undefined : entries[at];
}

/**
 * Kept sessions that touched a file, newest first, with the first entry that did: the file by
 * its keys (the same file spelled several ways), or any file whose path holds `like` (folded to
 * lower case, `/` for `\\`: what a `file:` filter typed).
 */
export function touchedBy(
  store: Queries,
  files: { keys: readonly string[] } | { like: string },
  scope: Scope,
): TouchedHit[] {
  const select = `SELECT s.*, p.path AS touchedPath, p.idx AS touchedIdx FROM paths p JOIN sessions s ON s.sid = p.sid`;
  const rows =
    'keys' in files
      ? store.all(`${select} WHERE p.pathKey IN (SELECT value FROM json_each(?))`, [
          JSON.stringify([...new Set(files.keys)]),
        ])
      : store.all(`${select} WHERE instr(lower(replace(p.path, '\\', '/')), ?) > 0`, [likeKey(files.like)]);
  const bySession = new Map<number, Row>();
  const cwdKey = scope.cwd === undefined ? undefined : pathKey(scope.cwd);
  for (const r of rows) {
    if (!inScope(r, scope, cwdKey)) continue;
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

/** A typed part of a path as {@link touchedBy} compares it. */
export function likeKey(fragment: string): string {
  return fragment.replaceAll('\\', '/').toLowerCase();
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
