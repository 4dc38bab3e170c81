/** Rows as the library's SQLite file returns them, and the kept sessions they describe. */
import type { Row, SqlValue } from './engine';
import { parseStats } from './stats';
import type { KeptSession } from './types';

export type { Row };

/** What the queries need of the store: statements run to their end. */
export interface Queries {
  all(sql: string, values?: SqlValue[]): Row[];
  get(sql: string, values?: SqlValue[]): Row | undefined;
  /** The searchable texts of one chunk of a session's entries, by entry index (cached). */
  chunkTexts(sid: number, chunk: number): ReadonlyArray<{ index: number; text: string }>;
  /** The rowids of the index chunks that hold a word (cached: typing changes the last word only). */
  wordChunks(word: string): Float64Array;
  /** Every kept session by its id, with what ranking reads of it (cached). */
  rankRows(): ReadonlyMap<number, RankRow>;
}

/** What a search reads of a session on every keystroke, worked out once. */
export interface RankRow {
  agent: string;
  cwd: string;
  cwdKey: string;
  /** Lower case, as `agent:` and `in:` compare them (worked out once, not per keystroke). */
  agentLower: string;
  cwdLower: string;
  updatedAt?: string;
  /** The agent's `updatedAt` in milliseconds, else when it was first kept. */
  time: number;
}

export const str = (v: SqlValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: SqlValue | undefined): number => (typeof v === 'number' ? v : Number(v ?? 0));

export function keptFrom(r: Row): KeptSession {
  const s: KeptSession = {
    agentId: str(r.agent)!,
    sessionId: str(r.session)!,
    cwd: str(r.cwd)!,
    complete: num(r.complete) === 1,
    entries: num(r.entries),
    bytes: num(r.bytes),
    keptAt: num(r.keptAt),
    openedAt: num(r.openedAt),
  };
  const title = str(r.title);
  const updatedAt = str(r.updatedAt);
  if (title !== undefined) s.title = title;
  if (updatedAt !== undefined) s.updatedAt = updatedAt;
  const stats = parseStats(str(r.stats));
  if (stats) s.stats = stats;
  return s;
}
