/**
 * The session library's store: kept transcripts, the paths their tool calls touched, and the
 * full-text index, in one SQLite file in the extension's global storage (every window of the
 * machine shares it). Synchronous, so it runs in the library's worker thread, off the
 * extension host's event loop. Each write is one transaction: a process killed in the middle
 * loses that write and nothing else.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Redactor } from '../agent/redact';
import type { ThreadEntry } from '../protocol/entries';
import { entryFrom, keepEntry } from './keep';
import { pathKey } from '../platform/pathKey';
import { DROP, FILE_NAME, FILE_SETTINGS, FORMAT_VERSION, HANDOFFS, MAX_ENTRY, SCHEMA, entryId } from './schema';
import { linksOf, putLink } from './handoffs';
import { searchSessions, touchedBy } from './searchIndex';
import type { EngineName, Row, SqlValue } from './engine';
import { enforceCap } from './evict';
import { boundWrite } from './limits';
import { removeDamagedCopies, removeFormerFile, removeOldCopies } from './files';
import { keptFrom, num, str, type Queries, type RankRow } from './rows';
import { SearchCache } from './searchCache';
import { ensureDir, isCorrupt, SqliteFile } from './sqlite';
import { dropEntries, putEntries, upsertSession } from './writes';
import type {
  KeptSession,
  LibraryStats,
  LinkedSession,
  Scope,
  SearchFilter,
  SearchHit,
  SessionKey,
  SessionLink,
  SessionWrite,
  TouchedHit,
} from './types';

/** The file was written by a newer extension: this one leaves it alone. */
export class LibraryTooNew extends Error {
  constructor(readonly version: number) {
    super(`The session library was written by a newer version of the extension (format ${version}).`);
  }
}

export interface StoreOptions {
  /** The extension's global storage directory (not synced). */
  dir: string;
  maxBytes: number;
  /** The clock for kept and opened times. */
  now?: () => number;
  /** How long to wait for another window's transaction (tests shorten it). */
  busyWaitMs?: number;
  /** After waiting this long for a live owner of the file, the log says who holds it (tests shorten it). */
  longLockMs?: number;
  /** The SQLite to run on (tests run both); by default the host's own where it can. */
  engine?: EngineName;
  log?: (message: string) => void;
}

/** An entry that redaction could not keep as JSON stays a placeholder, so indexes stay aligned. */
const PLACEHOLDER: ThreadEntry = { type: 'notice', severity: 'info', title: 'An entry that could not be kept safely.' };

/** A kept entry as the chat shows it again: nothing is still streaming or waiting for an answer. */
function restored(entry: ThreadEntry): ThreadEntry {
  switch (entry.type) {
    case 'user':
    case 'agent':
    case 'thought':
      return entry.done ? entry : { ...entry, done: true };
    case 'permission':
      return entry.outcome === undefined ? { ...entry, outcome: 'cancelled' } : entry;
    case 'elicitation':
      return entry.outcome === undefined ? { ...entry, outcome: 'cancel' } : entry;
    default:
      return entry;
  }
}

export class LibraryStore implements Queries {
  private readonly redactors = new Map<string, Redactor>();
  /** What searches remember between keystrokes. */
  private readonly cache = new SearchCache(this);
  /** Sessions (agent and id) a write of which failed: their kept copy is not whole (see `upsertSession`). */
  private readonly missed = new Set<string>();
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  private constructor(
    private readonly file: SqliteFile,
    private maxBytes: number,
    opts: StoreOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => {});
  }

  /**
   * Opens (or creates) the library. A damaged file is set aside and a new one started; an
   * older format is rebuilt empty (its sessions are kept again as they are opened); a newer
   * one throws {@link LibraryTooNew}.
   */
  static open(opts: StoreOptions): LibraryStore {
    ensureDir(opts.dir);
    const now = (opts.now ?? Date.now)();
    removeFormerFile(opts.dir, opts.log);
    removeOldCopies(opts.dir, now, opts.log);
    const path = join(opts.dir, FILE_NAME);
    try {
      return LibraryStore.openFile(path, opts);
    } catch (e) {
      if (!isCorrupt(e) || !existsSync(path)) throw e;
      const aside = new SqliteFile(path, opts).setAside(now);
      opts.log?.(`The session library was damaged; it was moved to ${aside} and a new one started.`);
      return LibraryStore.openFile(path, opts);
    }
  }

  /**
   * Opens the library a writer opened already, for reading only (searches beside the writer):
   * it changes nothing of the file, and fails rather than repair or rebuild it.
   */
  static openReader(opts: StoreOptions): LibraryStore {
    const store = new LibraryStore(new SqliteFile(join(opts.dir, FILE_NAME), opts), opts.maxBytes, opts);
    const version = num(store.read(() => store.get('PRAGMA user_version'))?.user_version);
    if (version !== FORMAT_VERSION)
      throw new Error(`The session library's format is ${version}, not ${FORMAT_VERSION}.`);
    return store;
  }

  private static openFile(path: string, opts: StoreOptions): LibraryStore {
    const file = new SqliteFile(path, opts);
    const store = new LibraryStore(file, opts.maxBytes, opts);
    store.prepare();
    file.tidy();
    return store;
  }

  /** Which SQLite the store runs on. */
  get engine(): EngineName {
    return this.file.engine.name;
  }

  /** Checks the file's format and makes it when it is new, in one hold (two windows may open it at once). */
  private prepare(): void {
    this.file.hold('none', () => {
      const version = num(this.get('PRAGMA user_version')?.user_version);
      if (version > FORMAT_VERSION) throw new LibraryTooNew(version);
      if (version === FORMAT_VERSION) {
        // A column added within the format (older extensions read and write the file as before).
        if (!this.all('PRAGMA table_info(sessions)').some((c) => c.name === 'stats'))
          this.file.exec('ALTER TABLE sessions ADD COLUMN stats TEXT');
        this.file.exec(HANDOFFS);
        return;
      }
      if (version !== 0)
        this.log(`The session library's format ${version} is older than ${FORMAT_VERSION}: it starts anew.`);
      this.file.exec(FILE_SETTINGS);
      this.file.exec(`BEGIN IMMEDIATE; ${DROP} ${SCHEMA} COMMIT;`);
      if (version !== 0) this.file.exec('VACUUM');
    });
  }

  all(sql: string, values: SqlValue[] = []): Row[] {
    return this.file.stmt(sql).all(values);
  }

  /** The first row. Read to the end, so the statement is done with when it returns. */
  get(sql: string, values: SqlValue[] = []): Row | undefined {
    return this.all(sql, values)[0];
  }

  run(sql: string, values: SqlValue[] = []): void {
    this.file.stmt(sql).run(values);
  }

  /** Runs several statements as one read (one hold of the file, one state). */
  read<T>(fn: () => T): T {
    return this.file.hold('read', fn);
  }

  /** Runs `fn` as one write: all of it reaches the file or none; the file's generation moves on. */
  private transaction<T>(fn: () => T): T {
    return this.file.hold('write', () => {
      const out = fn();
      this.run('UPDATE meta SET generation = generation + 1');
      return out;
    });
  }

  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.enforceCap();
  }

  /**
   * Applies one write: the session's row, then its changed entries, their paths and index
   * chunks, each within its size (see `limits.ts`, `keep.ts`).
   */
  write(write: SessionWrite): void {
    const w = boundWrite(write);
    if (typeof w === 'string') return this.log(w);
    const redact = this.redactor(w.secrets ?? []);
    const kept = (w.entries ?? []).map(({ index, entry }) => ({
      index,
      kept: keepEntry(entry, (json) => redact.json(json)) ?? keepEntry(PLACEHOLDER, (json) => json)!,
    }));
    this.forget();
    const key = `${w.agentId}\u0000${w.sessionId}`;
    let sid: number;
    try {
      const row = this.transaction(() => {
        const row = upsertSession(this, w, this.now(), this.missed.has(key));
        if (w.reset) dropEntries(this, row.sid);
        if (kept.length) putEntries(this, row.sid, w.cwd, kept);
        return row;
      });
      sid = row.sid;
      if (row.whole) this.missed.delete(key);
      else this.missed.add(key);
    } catch (e) {
      // What this write carried is not kept: the copy lacks it until a write starts it over.
      this.missed.add(key);
      throw e;
    }
    if (kept.length || w.reset) this.enforceCap(sid);
  }

  private redactor(secrets: readonly string[]): Redactor {
    const key = secrets.join('\0');
    let r = this.redactors.get(key);
    if (!r) {
      if (this.redactors.size > 16) this.redactors.clear();
      this.redactors.set(key, (r = new Redactor(secrets)));
    }
    return r;
  }

  /** What the library knows of one session. */
  session(key: SessionKey): KeptSession | undefined {
    const r = this.read(() =>
      this.get('SELECT * FROM sessions WHERE agent = ? AND session = ?', [key.agentId, key.sessionId]),
    );
    return r ? keptFrom(r) : undefined;
  }

  /** The kept sessions in a scope, most recently opened first. */
  sessions(scope: Scope = {}): KeptSession[] {
    const rows = this.read(() =>
      this.all(
        `SELECT * FROM sessions WHERE (?1 IS NULL OR agent = ?1) AND (?2 IS NULL OR cwdKey = ?2) ORDER BY openedAt DESC`,
        [scope.agentId ?? null, scope.cwd === undefined ? null : pathKey(scope.cwd)],
      ),
    );
    return rows.map(keptFrom);
  }

  /** The kept entries of a session in order, as the chat shows them; undefined when none are kept. */
  transcript(key: SessionKey): ThreadEntry[] | undefined {
    const rows = this.read(() => {
      const sid = this.get('SELECT sid FROM sessions WHERE agent = ? AND session = ?', [key.agentId, key.sessionId]);
      if (!sid) return [];
      const from = entryId(num(sid.sid), 0);
      return this.all('SELECT text, json FROM entries WHERE id BETWEEN ? AND ? ORDER BY id', [
        from,
        entryId(num(sid.sid), MAX_ENTRY),
      ]);
    });
    if (!rows.length) return undefined;
    return rows.map((r) => restored(entryFrom(str(r.text) ?? '', str(r.json)!)));
  }

  /**
   * One kept entry, by its index in the transcript (the message a search hit is in: the chat
   * paints it before the whole transcript is read); undefined when it is not kept.
   */
  entry(key: SessionKey & { index: number }): ThreadEntry | undefined {
    const { index } = key;
    if (!Number.isSafeInteger(index) || index < 0 || index > MAX_ENTRY) return undefined;
    const row = this.read(() => {
      const sid = this.get('SELECT sid FROM sessions WHERE agent = ? AND session = ?', [key.agentId, key.sessionId]);
      return sid ? this.get('SELECT text, json FROM entries WHERE id = ?', [entryId(num(sid.sid), index)]) : undefined;
    });
    return row ? restored(entryFrom(str(row.text) ?? '', str(row.json)!)) : undefined;
  }

  search(typed: string, scope: Scope = {}, limit = 50, filter: SearchFilter = {}): SearchHit[] {
    return this.read(() => {
      this.cache.check();
      return searchSessions(this, typed, scope, limit, filter);
    });
  }

  /** Reads ahead what the first search reads (a search box just opened): every session's ranking row. */
  warm(): void {
    this.read(() => {
      this.cache.check();
      this.cache.rankRows();
    });
  }

  private forget(): void {
    this.cache.forget();
  }

  wordChunks(word: string): Float64Array {
    return this.cache.wordChunks(word);
  }

  rankRows(): ReadonlyMap<number, RankRow> {
    return this.cache.rankRows();
  }

  chunkTexts(sid: number, chunk: number): ReadonlyArray<{ index: number; text: string }> {
    return this.cache.chunkTexts(sid, chunk);
  }

  /**
   * Kept sessions whose tool calls touched any of `paths` (the same file, spelled several ways),
   * or, given `like`, any file whose path holds it.
   */
  touched(paths: readonly string[], scope: Scope = {}, like?: string): TouchedHit[] {
    return this.read(() =>
      touchedBy(this, like !== undefined ? { like } : { keys: paths.map((p) => pathKey(p)) }, scope),
    );
  }

  /** Keeps that `link.from` was continued in `link.to`. */
  link(link: SessionLink): void {
    this.transaction(() => putLink(this, link, this.now()));
  }

  /** The sessions linked to `key`, either way, oldest link first. */
  links(key: SessionKey): LinkedSession[] {
    return this.read(() => linksOf(this, key));
  }

  remove(key: SessionKey): void {
    this.transaction(() => {
      const sid = this.get('SELECT sid FROM sessions WHERE agent = ? AND session = ?', [key.agentId, key.sessionId]);
      if (sid) this.removeSid(num(sid.sid));
    });
  }

  private removeSid(sid: number): void {
    this.forget();
    dropEntries(this, sid);
    this.run('DELETE FROM sessions WHERE sid = ?', [sid]);
  }

  /**
   * Forgets every kept session and gives the space back; removes the copies of damaged files
   * set aside too (each holds what its file held). Answers how many of those went.
   */
  clear(): { damagedCopies: number } {
    this.forget();
    this.transaction(() => {
      this.file.exec(`DELETE FROM entries; DELETE FROM paths; DELETE FROM sessions; DELETE FROM handoffs;
        INSERT INTO search (search) VALUES ('delete-all');`);
    });
    this.file.hold('none', () => this.file.exec('VACUUM'));
    return { damagedCopies: removeDamagedCopies(dirname(this.file.path)) };
  }

  stats(): LibraryStats {
    return this.read(() => {
      const totals = this.get('SELECT count(*) AS n, coalesce(sum(entries), 0) AS e FROM sessions');
      const { used, file } = this.usedBytes();
      return {
        sessions: num(totals?.n),
        entries: num(totals?.e),
        bytes: used,
        fileBytes: file,
        maxBytes: this.maxBytes,
      };
    });
  }

  private usedBytes(): { used: number; file: number } {
    const size = num(this.get('PRAGMA page_size')?.page_size);
    const pages = num(this.get('PRAGMA page_count')?.page_count);
    const free = num(this.get('PRAGMA freelist_count')?.freelist_count);
    return { used: (pages - free) * size, file: pages * size };
  }

  /** Keeps the file under the cap (see `evict.ts`); `keep` is the session just written. */
  enforceCap(keep?: number): void {
    enforceCap(
      {
        read: (fn) => this.read(fn),
        transaction: (fn) => this.transaction(fn),
        vacuum: () => this.file.hold('none', () => this.file.exec('PRAGMA incremental_vacuum')),
        get: (sql, values) => this.get(sql, values),
        all: (sql, values) => this.all(sql, values),
        run: (sql, values) => this.run(sql, values),
        removeSid: (sid) => this.removeSid(sid),
        usedBytes: () => this.usedBytes(),
        log: (m) => this.log(m),
      },
      this.maxBytes,
      keep,
    );
  }

  close(): void {
    this.file.close();
  }
}
