/**
 * How a write changes the library's file: a session's row, its entries, the paths its tool calls
 * touched and the index chunks that hold their words. Run inside the store's transaction.
 */
import type { SqlValue } from './engine';
import type { KeptEntry } from './keep';
import { absoluteIn, pathKey } from '../platform/pathKey';
import { fold } from './query';
import { num, str, type Row } from './rows';
import { dayOf, mergeStats, parseStats } from './stats';
import { chunkOf, chunkRange, chunkRowid, entryId, MAX_ENTRY } from './schema';
import type { SessionWrite } from './types';

/** The statements a write needs. */
export interface Writer {
  all(sql: string, values?: SqlValue[]): Row[];
  get(sql: string, values?: SqlValue[]): Row | undefined;
  run(sql: string, values?: SqlValue[]): void;
}

/**
 * Writes the session's row. `missed`: an earlier write of this session failed or made its row
 * again, so what is kept lacks something. A kept copy is whole only from a write that starts it
 * over: a row that a later write makes again (the copy was evicted or cleared meanwhile), or one
 * that missed a write, holds a part of the history, whatever the write says (`whole` false).
 */
export function upsertSession(
  db: Writer,
  w: SessionWrite,
  now: number,
  missed = false,
): { sid: number; whole: boolean } {
  const existed = db.get('SELECT sid, trimmed, stats FROM sessions WHERE agent = ? AND session = ?', [
    w.agentId,
    w.sessionId,
  ]);
  db.run(
    `INSERT INTO sessions (agent, session, cwd, cwdKey, keptAt, openedAt) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (agent, session) DO UPDATE SET cwd = excluded.cwd, cwdKey = excluded.cwdKey`,
    [w.agentId, w.sessionId, w.cwd, pathKey(w.cwd), now, now],
  );
  const sid = num(db.get('SELECT sid FROM sessions WHERE agent = ? AND session = ?', [w.agentId, w.sessionId])?.sid);
  const i = w.info;
  // A copy cut to its newest part (see `evict.ts`) is whole again only from a write that starts it over.
  const whole = w.reset || (existed !== undefined && !missed && !w.partial && num(existed.trimmed) === 0);
  if (w.reset) db.run('UPDATE sessions SET trimmed = 0 WHERE sid = ?', [sid]);
  const complete = whole ? i?.complete : false;
  if (i?.title !== undefined) db.run('UPDATE sessions SET title = ? WHERE sid = ?', [i.title, sid]);
  if (i?.updatedAt !== undefined) db.run('UPDATE sessions SET updatedAt = ? WHERE sid = ?', [i.updatedAt, sid]);
  if (complete !== undefined) db.run('UPDATE sessions SET complete = ? WHERE sid = ?', [complete ? 1 : 0, sid]);
  if (w.opened) db.run('UPDATE sessions SET openedAt = ? WHERE sid = ?', [now, sid]);
  if (i?.stats) {
    const stats = mergeStats(parseStats(str(existed?.stats)), i.stats, dayOf(now));
    db.run('UPDATE sessions SET stats = ? WHERE sid = ?', [JSON.stringify(stats), sid]);
  }
  return { sid, whole };
}

export function dropEntries(db: Writer, sid: number): void {
  const entries = num(db.get('SELECT entries FROM sessions WHERE sid = ?', [sid])?.entries);
  for (let c = 0; c <= chunkOf(Math.max(0, entries - 1)); c++)
    db.run('DELETE FROM search WHERE rowid = ?', [chunkRowid(sid, c)]);
  db.run('DELETE FROM entries WHERE id BETWEEN ? AND ?', [entryId(sid, 0), entryId(sid, MAX_ENTRY)]);
  db.run('DELETE FROM paths WHERE sid = ?', [sid]);
  db.run('UPDATE sessions SET entries = 0, bytes = 0 WHERE sid = ?', [sid]);
}

export function putEntries(
  db: Writer,
  sid: number,
  cwd: string,
  kept: Array<{ index: number; kept: KeptEntry }>,
): void {
  const row = db.get('SELECT entries, bytes FROM sessions WHERE sid = ?', [sid]);
  let entries = num(row?.entries);
  let bytes = num(row?.bytes);
  const chunks = new Set<number>();
  for (const { index, kept: k } of kept) {
    const size = k.json.length + k.text.length;
    const id = entryId(sid, index);
    const old = db.get('SELECT size, text FROM entries WHERE id = ?', [id]);
    bytes += size - num(old?.size);
    entries = Math.max(entries, index + 1);
    db.run('INSERT OR REPLACE INTO entries (id, size, text, json) VALUES (?, ?, ?, ?)', [id, size, k.text, k.json]);
    if ((str(old?.text) ?? '') !== k.text) chunks.add(chunkOf(index));
    for (const p of k.paths) {
      const abs = absoluteIn(cwd, p);
      db.run(
        `INSERT INTO paths (pathKey, sid, path, idx) VALUES (?, ?, ?, ?)
         ON CONFLICT (pathKey, sid) DO UPDATE SET idx = min(idx, excluded.idx),
           path = CASE WHEN excluded.idx < idx THEN excluded.path ELSE path END`,
        [pathKey(abs), sid, abs, index],
      );
    }
  }
  for (const c of chunks) indexChunk(db, sid, c);
  db.run('UPDATE sessions SET entries = ?, bytes = ? WHERE sid = ?', [entries, bytes, sid]);
}

/**
 * Re-indexes one chunk of a session's entries (the unchanged ones are read back from the file),
 * folded as typed words are, so that both sides meet whatever form their text came in.
 */
function indexChunk(db: Writer, sid: number, chunk: number): void {
  const rowid = chunkRowid(sid, chunk);
  const [from, to] = chunkRange(chunk);
  db.run('DELETE FROM search WHERE rowid = ?', [rowid]);
  const texts = db
    .all("SELECT text FROM entries WHERE id BETWEEN ? AND ? AND text != '' ORDER BY id", [
      entryId(sid, from),
      entryId(sid, to),
    ])
    .map((r) => fold(str(r.text) ?? ''));
  if (texts.length) db.run('INSERT INTO search (rowid, body) VALUES (?, ?)', [rowid, texts.join('\n')]);
}
