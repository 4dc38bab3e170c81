/**
 * The library's size limit (`acp.library.maxSizeMB`). The least recently opened sessions go
 * first, never the one just written. Space freed is given back to the file system.
 */
import type { Row, SqlValue } from './engine';
import { num } from './rows';

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
