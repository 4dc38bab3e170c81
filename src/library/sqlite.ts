/**
 * The library's SQLite file, shared by the windows of one machine. Synchronous: only the
 * library's worker thread uses it.
 *
 * Every use of the file is a hold: the window takes the file's lock (`fileLock.ts`), opens a
 * connection in exclusive locking mode, runs one transaction, and closes the connection before
 * letting the lock go. The file is in WAL mode; with exclusive locking SQLite keeps the WAL's
 * index in the connection's own memory, so it needs no shared memory between processes (the
 * WebAssembly build has none) and no lock of the engine's own decides anything. A process killed
 * at any moment leaves a WAL whose committed transactions the next hold's connection replays
 * (SQLite's own recovery) and whose unfinished one it drops: whatever was acknowledged is there.
 *
 * The WebAssembly build's VFS also takes a lock directory of its own (`<file>.lock`) for a
 * connection's life. Within the file's lock nobody else can hold it: one found is a killed
 * process's, and goes.
 */
import { mkdirSync, renameSync, rmdirSync, existsSync } from 'node:fs';
import { sqlEngine, type EngineName, type SqlConnection, type SqlEngine, type SqlStatement } from './engine';
import { FileLock, pause, type LockOwner, type ProcessProbe } from './fileLock';

/** How long a use of the file waits for another window's before it gives up (this once). */
export const BUSY_WAIT_MS = 5_000;
/** Waiting longer than this for a live owner, a window says in the log who holds the lock. */
export const LONG_LOCK_MS = 30_000;

export class LibraryBusy extends Error {
  constructor(readonly owner?: LockOwner) {
    super(
      owner
        ? `The session library is busy in another window (process ${owner.pid}${owner.host ? ` on ${owner.host}` : ''}).`
        : 'The session library is busy in another window.',
    );
  }
}

function isBusy(e: unknown): boolean {
  return e instanceof Error && /database is locked|database table is locked|SQLITE_BUSY/i.test(e.message);
}

/** The file is not a database, or SQLite found it damaged. */
export function isCorrupt(e: unknown): boolean {
  return e instanceof Error && /malformed|not a database|corrupt/i.test(e.message);
}

export interface SqliteFileOptions {
  busyWaitMs?: number;
  /** After waiting this long for a live owner, say who holds the lock (tests shorten it). */
  longLockMs?: number;
  engine?: EngineName;
  probe?: ProcessProbe;
  log?: (message: string) => void;
}

export type HoldKind = 'read' | 'write' | 'none';

export class SqliteFile {
  readonly engine: SqlEngine;
  private readonly lock: FileLock;
  private db: SqlConnection | undefined;
  private readonly statements = new Map<string, SqlStatement>();
  private readonly busyWaitMs: number;
  private readonly longLockMs: number;
  private readonly log: (message: string) => void;
  /** When this window last said who holds the lock (said once per long wait). */
  private toldLong = false;

  constructor(
    readonly path: string,
    opts: SqliteFileOptions = {},
  ) {
    this.engine = sqlEngine(opts.engine);
    this.busyWaitMs = opts.busyWaitMs ?? BUSY_WAIT_MS;
    this.longLockMs = opts.longLockMs ?? LONG_LOCK_MS;
    this.log = opts.log ?? (() => {});
    this.lock = new FileLock(`${path}.owner`, opts.probe, this.log);
  }

  /**
   * Runs `fn` holding the file: one connection, and one transaction unless `kind` is `none`
   * (VACUUM and journal settings run outside one). All of a write reaches the file or none of
   * it. A hold inside a hold runs in it.
   */
  hold<T>(kind: HoldKind, fn: () => T): T {
    if (this.db) return fn();
    const deadline = Date.now() + this.busyWaitMs;
    for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
      this.take(deadline);
      try {
        return this.within(kind, fn);
      } catch (e) {
        // Held by something that is not a window of this extension (the sqlite3 shell, say).
        if (!isBusy(e) || Date.now() > deadline) throw e;
      } finally {
        this.letGo();
      }
      pause(wait);
    }
  }

  /** The connection of the hold under way. */
  get connection(): SqlConnection {
    if (!this.db) throw new Error('The session library was used outside a hold.');
    return this.db;
  }

  /** A prepared statement, made once per hold. */
  stmt(sql: string): SqlStatement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.connection.prepare(sql)));
    return s;
  }

  exec(sql: string): void {
    this.connection.exec(sql);
  }

  /** Moves the file aside (kept for a bug report, never read again), holding it; returns where it went. */
  setAside(now = Date.now()): string {
    const to = `${this.path}.damaged-${now}`;
    this.take(Date.now() + this.busyWaitMs);
    try {
      renameSync(this.path, to);
      if (existsSync(`${this.path}-wal`)) renameSync(`${this.path}-wal`, `${to}-wal`);
    } finally {
      this.lock.release();
    }
    return to;
  }

  /** Removes leftovers of other windows' holds that are an hour old. */
  tidy(): void {
    this.lock.removeLeftovers();
  }

  /** Nothing is held between holds: closing lets go of a hold cut short. */
  close(): void {
    this.letGo();
  }

  /** Takes the lock, waiting while a live owner holds it and breaking it when its owner is gone. */
  private take(deadline: number): void {
    const started = Date.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
      if (this.lock.tryTake()) return;
      const state = this.lock.breakIfGone();
      if (state !== 'held') continue;
      const owner = this.lock.holder();
      if (!this.toldLong && owner && Date.now() - started >= this.longLockMs) {
        this.toldLong = true;
        this.log(
          `The session library has been held by process ${owner.pid} (${owner.host}) for ${Math.round((Date.now() - owner.at) / 1000)} s; waiting for it.`,
        );
      }
      if (Date.now() > deadline) throw new LibraryBusy(owner);
      pause(wait);
    }
  }

  private within<T>(kind: HoldKind, fn: () => T): T {
    // The WebAssembly VFS's own lock: nobody else can hold it while this window holds the file.
    try {
      rmdirSync(`${this.path}.lock`);
    } catch {
      // Absent: as it should be.
    }
    this.db = this.engine.open(this.path);
    // NORMAL: a commit does not wait for its own sync; every hold ends with a checkpoint, which syncs.
    this.db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8192');
    if (kind === 'none') return fn();
    this.db.exec(kind === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN');
    try {
      const out = fn();
      this.db.exec('COMMIT');
      return out;
    } catch (e) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // No transaction left to roll back (SQLite ended it with the error).
      }
      throw e;
    }
  }

  private letGo(): void {
    // A statement whose last step failed reports that failure again from finalize, finalized all
    // the same; one left unfinalized keeps the file open after the close (on Windows, locked).
    for (const s of this.statements.values()) {
      try {
        s.finalize();
      } catch {
        // Finalized all the same.
      }
    }
    this.statements.clear();
    const db = this.db;
    this.db = undefined;
    try {
      db?.close();
    } finally {
      if (this.lock.isHeld) this.lock.release();
      this.toldLong = false;
    }
  }
}

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}
