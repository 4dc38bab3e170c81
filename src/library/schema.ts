/**
 * The library file's format. `PRAGMA user_version` holds {@link FORMAT_VERSION}: a newer
 * extension reads an older file (or rebuilds it: everything in it can be loaded again from the
 * agents), and an older extension leaves a newer file alone.
 *
 * - `sessions`: one row per kept session, with what the agent last reported of it (`trimmed`:
 *   only its newest part is kept, see `evict.ts`).
 * - `entries`: the transcript, one row per chat entry: the text search looks through, then the
 *   entry's JSON (a message's text is stored once, as its searchable text). The row's id is
 *   the session's id shifted left by {@link ENTRY_BITS} plus the entry's index, so a session's
 *   entries lie together in the file in order: reading a chunk or a transcript reads
 *   neighbouring pages. A change to an entry rewrites that row only.
 * - `paths`: per session, each file its tool calls touched and the first entry that did.
 * - `handoffs`: which session was continued in which ("Continue in Another Agent…"), by agent
 *   and session id (not `sid`: the link outlives the kept copy of either, which the agent keeps).
 * - `meta`: the file's generation, moved on by every write (what another window's searches
 *   remember is dropped when it moved).
 * - `search`: an FTS5 index (contentless, rowids only: small on disk) of the entries' text in
 *   chunks of {@link CHUNK} entries, folded as typed words are (`query.ts`, `fold`); a chunk's rowid is the session's id shifted left by
 *   {@link CHUNK_BITS} plus the chunk's number, so one match names its session.
 */
export const FORMAT_VERSION = 2;
/**
 * Format 2 is in WAL mode and used under a lock of its own (`sqlite.ts`): a new name, so that a
 * window still running an earlier version keeps to the earlier file (`FORMER_FILE_NAME`).
 */
export const FILE_NAME = 'library2.sqlite';
export const FORMER_FILE_NAME = 'library.sqlite';

/** Entries per indexed chunk: a change re-indexes one chunk, and a session has few rows. */
export const CHUNK = 32;
export const ENTRY_BITS = 20;
/** Entries past this index share the last row of their session (a session of a million entries). */
export const MAX_ENTRY = 2 ** ENTRY_BITS - 1;
export const CHUNK_BITS = 16;
export const MAX_CHUNK = 2 ** CHUNK_BITS - 1;

export function entryId(sid: number, index: number): number {
  return sid * 2 ** ENTRY_BITS + Math.min(index, MAX_ENTRY);
}

export function chunkOf(index: number): number {
  return Math.min(Math.floor(index / CHUNK), MAX_CHUNK);
}

export function chunkRowid(sid: number, chunk: number): number {
  return sid * 2 ** CHUNK_BITS + chunk;
}

/** The entry indexes a chunk covers (the last chunk takes every entry past it). */
export function chunkRange(chunk: number): [number, number] {
  return [chunk * CHUNK, chunk === MAX_CHUNK ? Number.MAX_SAFE_INTEGER : chunk * CHUNK + CHUNK - 1];
}

/** Set before the first table exists (and outside a transaction): they shape the file. */
export const FILE_SETTINGS = 'PRAGMA page_size = 8192; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL';

/** A table added within format 2: created where missing (older extensions leave it alone). */
export const HANDOFFS = `CREATE TABLE IF NOT EXISTS handoffs (
  fromAgent TEXT NOT NULL,
  fromSession TEXT NOT NULL,
  toAgent TEXT NOT NULL,
  toSession TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (fromAgent, fromSession, toAgent, toSession)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS handoffs_to ON handoffs (toAgent, toSession);`;

export const SCHEMA = `
CREATE TABLE sessions (
  sid INTEGER PRIMARY KEY,
  agent TEXT NOT NULL,
  session TEXT NOT NULL,
  cwd TEXT NOT NULL,
  cwdKey TEXT NOT NULL,
  title TEXT,
  updatedAt TEXT,
  complete INTEGER NOT NULL DEFAULT 0,
  trimmed INTEGER NOT NULL DEFAULT 0,
  entries INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  keptAt INTEGER NOT NULL,
  openedAt INTEGER NOT NULL,
  stats TEXT,
  UNIQUE (agent, session)
);
CREATE INDEX sessions_cwd ON sessions (cwdKey);
CREATE INDEX sessions_opened ON sessions (openedAt);
CREATE TABLE entries (
  id INTEGER PRIMARY KEY,
  size INTEGER NOT NULL,
  text TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE paths (
  pathKey TEXT NOT NULL,
  sid INTEGER NOT NULL,
  path TEXT NOT NULL,
  idx INTEGER NOT NULL,
  PRIMARY KEY (pathKey, sid)
) WITHOUT ROWID;
CREATE INDEX paths_sid ON paths (sid);
${HANDOFFS}
CREATE TABLE meta (generation INTEGER NOT NULL);
INSERT INTO meta (generation) VALUES (0);
CREATE VIRTUAL TABLE search USING fts5(
  body, content = '', contentless_delete = 1, detail = none, prefix = '3 4 5 6',
  tokenize = "unicode61 remove_diacritics 0 tokenchars '_'"
);
PRAGMA user_version = ${FORMAT_VERSION};
`;

/** Every table, for a rebuild from scratch. */
export const DROP = `
DROP TABLE IF EXISTS search;
DROP TABLE IF EXISTS handoffs;
DROP TABLE IF EXISTS meta;
DROP TABLE IF EXISTS paths;
DROP TABLE IF EXISTS entries;
DROP TABLE IF EXISTS sessions;
`;
