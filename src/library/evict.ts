/**
 * The library's size limit (`acp.library.maxSizeMB`). The least recently opened sessions go
 * first, never the one just written. One session may take at most half the limit: a larger one
 * (a history of thousands of turns against a small limit) keeps its newest part, whole chunks of
 * its entries, and is never shown as the whole history again; should even its newest chunk not
 * fit, none of it is kept. Either way the others stay, and the log says what was dropped.
 */
import type { Row, SqlValue } from './engine';
import { num, str } from './rows';
import { CHUNK, chunkRowid, entryId, MAX_CHUNK, MAX_ENTRY } from './schema';

/** The share of the limit one session may take. */
export const SESSION_SHARE = 0.5;
/** Eviction frees space down to this share of the cap, so it does not run on every write. */
const EVICT_TO = 0.9;
/** Pages of index merging after an eviction: enough to free what a few sessions held (8 MB at most). */
const MERGE_PAGES = 1000;

/** What eviction needs of the store. */
export interface CapStore {
  read<T>(fn: () => T): T;
  /** One write transaction. */
  transaction<T>(fn: () => T): T;
  /** Gives freed pages back to the file system (outside a transaction). */
  vacuum(): void;
  get(sql: string, values?: SqlValue[]): Row | undefined;
  all(sql: string, values?: SqlValue[]): Row[];
  run(sql: string, values?: SqlValue[]): void;
  removeSid(sid: number): void;
  usedBytes(): { used: number; file: number };
  log(message: string): void;
}

/** Bytes the file uses, the sessions' entries' bytes, and how many file bytes an entry byte costs. */
function sizes(db: CapStore): { used: number; scale: number } {
  return db.read(() => {
    const used = db.usedBytes().used;
    const kept = num(db.get('SELECT coalesce(sum(bytes), 0) AS b FROM sessions')?.b);
    // A session takes its entries' bytes and, in proportion, the index's and the pages' slack.
    return { used, scale: kept > 0 ? used / kept : 1 };
  });
}

/** Keeps the file under `maxBytes`; `keep` is the session just written. */
export function enforceCap(db: CapStore, maxBytes: number, keep?: number): void {
  if (keep !== undefined) trim(db, maxBytes, keep);
  let evicted = 0;
  for (let round = 0; round < 8; round++) {
    const { used, scale } = sizes(db);
    if (used <= maxBytes) break;
    const excess = used - maxBytes * EVICT_TO;
    const done = db.transaction(() => {
      let freed = 0;
      let n = 0;
      for (const r of db.all('SELECT sid, bytes FROM sessions ORDER BY openedAt ASC, sid ASC')) {
        const sid = num(r.sid);
        if (sid === keep) continue;
        db.removeSid(sid);
        n++;
        freed += num(r.bytes) * scale;
        if (freed >= excess) break;
      }
      // The index holds what was deleted from it until its segments merge: merge them now, or
      // the space stays taken and the next round would evict sessions it need not.
      if (n) db.run("INSERT INTO search (search, rank) VALUES ('merge', ?)", [MERGE_PAGES]);
      return n;
    });
    if (done === 0) break;
    evicted += done;
    db.vacuum();
  }
  if (evicted)
    db.log(`The session library was over its size limit: ${evicted} least recently opened sessions were removed.`);
}

/** Cuts a session larger than its share of the limit down to its newest chunks that fit, or removes it. */
function trim(db: CapStore, maxBytes: number, sid: number): void {
  const { scale } = sizes(db);
  const budget = (maxBytes * SESSION_SHARE) / scale;
  const row = db.read(() => db.get('SELECT session, bytes FROM sessions WHERE sid = ?', [sid]));
  if (!row || num(row.bytes) <= budget) return;
  const base = entryId(sid, 0);
  const chunks = db.read(() =>
    db.all(
      `SELECT min((id - ?1) / ${CHUNK}, ${MAX_CHUNK}) AS chunk, sum(size) AS bytes, count(*) AS n FROM entries
       WHERE id BETWEEN ?1 AND ?2 GROUP BY chunk ORDER BY chunk DESC`,
      [base, entryId(sid, MAX_ENTRY)],
    ),
  );
  let bytes = 0;
  let entries = 0;
  let from: number | undefined;
  for (const c of chunks) {
    if (bytes + num(c.bytes) > budget) break;
    bytes += num(c.bytes);
    entries += num(c.n);
    from = num(c.chunk);
  }
  const name = str(row.session);
  db.transaction(() => {
    if (from === undefined) {
      db.removeSid(sid);
    } else {
      for (let c = 0; c < from; c++) db.run('DELETE FROM search WHERE rowid = ?', [chunkRowid(sid, c)]);
      db.run('DELETE FROM entries WHERE id BETWEEN ? AND ?', [base, base + from * CHUNK - 1]);
      db.run('UPDATE sessions SET bytes = ?, complete = 0, trimmed = 1 WHERE sid = ?', [bytes, sid]);
    }
    db.run("INSERT INTO search (search, rank) VALUES ('merge', ?)", [MERGE_PAGES]);
  });
  db.vacuum();
  db.log(
    from === undefined
      ? `The session ${name} is larger than half the session library's size limit, even its last entries: it is not kept.`
      : `The session ${name} is larger than half the session library's size limit: only its newest ${entries} entries are kept, and it loads from its agent when opened.`,
  );
}
