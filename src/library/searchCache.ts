/**
 * What a search remembers between keystrokes: the typed value changes by a letter, so the next
 * search mostly asks for the same sessions, chunks and words. Everything here is dropped when
 * the file changed (its generation moved: a write in this window or another).
 */
import { timeOf, wordQuery } from './query';
import { num, str, type RankRow, type Row } from './rows';
import { chunkRange, entryId } from './schema';
import type { SqlValue } from './engine';

/** Chunks whose texts stay in memory for snippets (about 16 KB each). */
const CACHED_CHUNKS = 256;
/** Words whose chunks stay in memory (a word matching every chunk of 2,000 sessions: 16,000 numbers). */
const CACHED_WORDS = 32;

interface Reads {
  all(sql: string, values?: SqlValue[]): Row[];
  get(sql: string, values?: SqlValue[]): Row | undefined;
}

export class SearchCache {
  /** Chunks' texts read for snippets, most recent last. */
  private readonly texts = new Map<string, Array<{ index: number; text: string }>>();
  private readonly words = new Map<string, Float64Array>();
  private rows: Map<number, RankRow> | undefined;
  private generation = -1;

  constructor(private readonly db: Reads) {}

  /** Within a read: drops what was remembered when the file changed since. */
  check(): void {
    const generation = num(this.db.get('SELECT generation FROM meta')?.generation);
    if (generation !== this.generation) this.forget();
    this.generation = generation;
  }

  forget(): void {
    this.texts.clear();
    this.words.clear();
    this.rows = undefined;
  }

  wordChunks(word: string): Float64Array {
    let ids = this.words.get(word);
    if (ids) {
      this.words.delete(word);
    } else {
      const list = this.db.get('SELECT group_concat(rowid) AS ids FROM search WHERE search MATCH ?', [
        wordQuery(word),
      ])?.ids;
      ids = typeof list === 'string' ? numbers(list) : new Float64Array(0);
      if (this.words.size >= CACHED_WORDS) this.words.delete(this.words.keys().next().value!);
    }
    this.words.set(word, ids);
    return ids;
  }

  /**
   * Every kept session with what ranking reads of it: only those columns (a session's stats and
   * names are read for the hits alone), so the first keystroke after a write reads 10,000
   * sessions in tens of milliseconds, not hundreds.
   */
  rankRows(): ReadonlyMap<number, RankRow> {
    this.rows ??= new Map(
      this.db.all('SELECT sid, agent, cwd, cwdKey, updatedAt, keptAt FROM sessions').map((row) => {
        const updatedAt = str(row.updatedAt);
        const agent = str(row.agent)!;
        const cwd = str(row.cwd)!;
        const r: RankRow = {
          agent,
          cwd,
          agentLower: agent.toLowerCase(),
          cwdLower: cwd.toLowerCase(),
          cwdKey: str(row.cwdKey)!,
          time: timeOf(updatedAt) ?? num(row.keptAt),
        };
        if (updatedAt !== undefined) r.updatedAt = updatedAt;
        return [num(row.sid), r];
      }),
    );
    return this.rows;
  }

  chunkTexts(sid: number, chunk: number): ReadonlyArray<{ index: number; text: string }> {
    const key = `${sid}:${chunk}`;
    let texts = this.texts.get(key);
    if (texts) {
      this.texts.delete(key);
    } else {
      const [from, to] = chunkRange(chunk);
      const base = entryId(sid, 0);
      texts = this.db
        .all("SELECT id, text FROM entries WHERE id BETWEEN ? AND ? AND text != '' ORDER BY id", [
          base + from,
          entryId(sid, to),
        ])
        .map((r) => ({ index: num(r.id) - base, text: str(r.text)! }));
      if (this.texts.size >= CACHED_CHUNKS) this.texts.delete(this.texts.keys().next().value!);
    }
    this.texts.set(key, texts);
    return texts;
  }
}

/**
 * The numbers of a comma-separated list of non-negative integers (SQLite's `group_concat` of
 * rowids). A common word's list holds 80,000 of them: read in one pass, without a string each,
 * it takes a fifth of what `split` and `Number` take.
 */
export function numbers(list: string): Float64Array {
  if (!list) return new Float64Array(0);
  let n = 1;
  for (let i = 0; i < list.length; i++) if (list.charCodeAt(i) === 44) n++;
  const out = new Float64Array(n);
  let at = 0;
  let value = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list.charCodeAt(i);
    if (c === 44) {
      out[at++] = value;
      value = 0;
    } else value = value * 10 + (c - 48);
  }
  out[at] = value;
  return out;
}
