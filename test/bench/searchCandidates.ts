// One full-text library on the library's task, in a process of its own (so its memory is its
// own): index the searchable text of N corpus sessions (one document per session), then answer
// every keystroke of the typed queries with the sessions that hold each word as a prefix,
// ranked (every word first, then more words, then recency) and cut to 50. Prints one JSON line.
// Usage: node --expose-gc out/test/bench/searchCandidates.js <minisearch|flexsearch|orama|fts5> <sessions> <dir>
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { create, insert, load, save, search as oramaSearch, type AnyOrama, type RawData } from '@orama/orama';
import { Index } from 'flexsearch';
import MiniSearch from 'minisearch';
import { Database } from 'node-sqlite3-wasm';
import { PREFIX_FROM, compareRanked, fold, queryWords, wordQuery } from '../../src/library/query';
import { corpusSession, corpusText, typedQueries } from './libraryCorpus';
import { gc, median, percentile } from './lib';

export interface CandidateResult {
  name: string;
  sessions: number;
  indexMsPerSession: number;
  p50: number;
  p95: number;
  /**
   * Memory the index took with all sessions (the larger of heap + external growth and RSS
   * growth: WebAssembly memory shows in RSS only), and what each session added over the
   * second half (fixed costs left out), to estimate larger libraries.
   */
  memory: number;
  perSession: number;
  disk: number;
  startupMs: number;
  hits: number;
}

interface Candidate {
  add(id: number, text: string): void;
  /** Ids of the sessions that hold a word starting with `word`. */
  find(word: string): Iterable<number>;
  /** Writes the index to `dir`; returns its size on disk. */
  save(dir: string): number;
  /** Loads the index from `dir` (a new window starting). */
  load(dir: string): void;
}

const TOKEN = (text: string) => fold(text).match(/[\p{L}\p{N}_]+/gu) ?? [];

function minisearch(): Candidate {
  const options = { fields: ['text'], tokenize: TOKEN, processTerm: (t: string) => t };
  let ms = new MiniSearch<{ id: number; text: string }>(options);
  return {
    add: (id, text) => ms.add({ id, text }),
    find: (word) =>
      ms.search(word, { prefix: word.length >= PREFIX_FROM, fields: ['text'] }).map((r) => r.id as number),
    save(dir) {
      writeFileSync(join(dir, 'minisearch.json'), JSON.stringify(ms));
      return statSync(join(dir, 'minisearch.json')).size;
    },
    load(dir) {
      ms = MiniSearch.loadJSON(readFileSync(join(dir, 'minisearch.json'), 'utf8'), options);
    },
  };
}

function flexsearch(): Candidate {
  // "forward" indexes every prefix of each word: the only way FlexSearch matches while typing
  // (so a two-letter word matches as a prefix here, where the others match it whole).
  const make = () => new Index({ tokenize: 'forward', encode: TOKEN, resolution: 1 });
  let ix = make();
  return {
    add: (id, text) => void ix.add(id, text),
    find: (word) => ix.search(word, { limit: 1_000_000 }) as number[],
    save(dir) {
      const parts: Record<string, string> = {};
      void ix.export((key, data) => void (parts[key] = data));
      writeFileSync(join(dir, 'flexsearch.json'), JSON.stringify(parts));
      return statSync(join(dir, 'flexsearch.json')).size;
    },
    load(dir) {
      ix = make();
      const parts = JSON.parse(readFileSync(join(dir, 'flexsearch.json'), 'utf8')) as Record<string, string>;
      for (const [key, data] of Object.entries(parts)) ix.import(key, data);
    },
  };
}

function orama(): Candidate {
  const schema = { text: 'string' } as const;
  // Its own tokenizer (lower case, split at non-word characters): a custom one made it far slower.
  const make = () => create({ schema }) as AnyOrama;
  let db = make();
  return {
    add: (id, text) => void insert(db, { id: String(id), text }),
    find: (word) =>
      (
        oramaSearch(db, {
          term: word,
          properties: ['text'],
          limit: 1_000_000,
          threshold: 1,
          exact: word.length < PREFIX_FROM,
        }) as {
          hits: Array<{ id: string }>;
        }
      ).hits.map((h) => Number(h.id)),
    save(dir) {
      writeFileSync(join(dir, 'orama.json'), JSON.stringify(save(db)));
      return statSync(join(dir, 'orama.json')).size;
    },
    load(dir) {
      db = make();
      load(db, JSON.parse(readFileSync(join(dir, 'orama.json'), 'utf8')) as RawData);
    },
  };
}

function fts5(dir: string): Candidate {
  const file = join(dir, 'fts5.sqlite');
  let db = new Database(file);
  db.exec(`CREATE VIRTUAL TABLE s USING fts5(body, content = '', contentless_delete = 1, detail = none,
    prefix = '2 3', tokenize = "unicode61 tokenchars '_'")`);
  const statement = () => db.prepare('SELECT rowid FROM s WHERE s MATCH ?');
  let find = statement();
  return {
    add: (id, text) => void db.run('INSERT INTO s (rowid, body) VALUES (?, ?)', [id, text]),
    find: (word) => find.all([wordQuery(word)]).map((r) => Number(r.rowid)),
    save: () => statSync(file).size,
    load() {
      find.finalize();
      db.close();
      db = new Database(file);
      find = statement();
    },
  };
}

const MAKERS: Record<string, (dir: string) => Candidate> = { minisearch, flexsearch, orama, fts5 };

/** One keystroke: each word looked up, sessions ranked, the first 50 kept. */
function keystroke(c: Candidate, typed: string, times: number[]): number {
  const words = queryWords(typed);
  const held = new Map<number, number>();
  for (const w of words) for (const id of c.find(w)) held.set(id, (held.get(id) ?? 0) + 1);
  return [...held]
    .map(([id, matched]) => ({ id, matched, time: times[id] }))
    .sort(compareRanked)
    .slice(0, 50).length;
}

function memoryNow(): { total: number; rss: number } {
  gc();
  const m = process.memoryUsage();
  return { total: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
}

const grown = (a: { total: number; rss: number }, b: { total: number; rss: number }) =>
  Math.max(b.total - a.total, b.rss - a.rss);

function run(name: string, sessions: number, dir: string): CandidateResult {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const corpus = Array.from({ length: sessions }, (_, i) => corpusSession(i));
  const texts = corpus.map(corpusText);
  const times = corpus.map((s) => Date.parse(s.updatedAt));
  const before = memoryNow();
  const c = MAKERS[name]!(dir);
  const half = Math.floor(sessions / 2);
  const t0 = performance.now();
  texts.slice(0, half).forEach((t, i) => c.add(i, t));
  let indexMs = performance.now() - t0;
  const middle = memoryNow();
  const t1 = performance.now();
  texts.slice(half).forEach((t, i) => c.add(half + i, t));
  indexMs += performance.now() - t1;
  const after = memoryNow();
  const queries = typedQueries(sessions);
  for (const q of queries.slice(0, 20)) keystroke(c, q, times);
  const took: number[] = [];
  let hits = 0;
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const s = performance.now();
      hits += keystroke(c, q, times);
      took.push(performance.now() - s);
    }
  }
  const disk = c.save(dir);
  const s0 = performance.now();
  c.load(dir);
  keystroke(c, queries[queries.length - 1]!, times);
  const startupMs = performance.now() - s0;
  return {
    name,
    sessions,
    indexMsPerSession: indexMs / sessions,
    p50: median(took),
    p95: percentile(took, 95),
    memory: grown(before, after),
    perSession: Math.max(0, grown(middle, after) / (sessions - half)),
    disk,
    startupMs,
    hits,
  };
}

if (require.main === module) {
  const [name, sessions, dir] = process.argv.slice(2);
  const result = run(name!, Number(sessions), dir!);
  rmSync(dir!, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
