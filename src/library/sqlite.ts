/**
 * The library's SQLite file: opened through SQLite compiled to WebAssembly (no native module,
 * so every extension host runs it), shared by the windows of one machine. Synchronous: only the
 * library's worker thread uses it.
 *
 * The WebAssembly build locks the file by creating a `<file>.lock` directory for the length of
 * each transaction. Another window holding it makes a statement fail as busy: wait and try
 * again. A window killed inside a transaction leaves the directory behind (and perhaps a hot
 * journal, which SQLite rolls back on the next open), so each process that has the file open
 * says so in a `<file>.open-<host>-<pid>` marker: a lock while no other process on this host
 * is alive to hold it is stale, and so is one older than any transaction lasts.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Database, type Statement } from 'node-sqlite3-wasm';
import { processAlive } from '../agent/processTree';

/** No transaction of the library lasts this long: a lock this old was left by a killed process. */
export const STALE_LOCK_MS = 30_000;
/** How long a statement waits for another window's transaction before it gives up. */
export const BUSY_WAIT_MS = 5_000;

export class LibraryBusy extends Error {
  constructor() {
    super('The session library is busy in another window.');
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function isBusy(e: unknown): boolean {
  return e instanceof Error && /database is locked|database table is locked|SQLITE_BUSY/i.test(e.message);
}

/**
 * A prepared statement whose last step failed reports that failure again when it is reset for
 * its next use, though the reset is done: running it again works.
 */
function isStaleReset(e: unknown): boolean {
  return e instanceof Error && /Could not reset statement/.test(e.message);
}

/** The file is not a database, or SQLite found it damaged. */
export function isCorrupt(e: unknown): boolean {
  return e instanceof Error && /malformed|not a database|corrupt/i.test(e.message);
}

/**
 * Finalizes every statement: a statement whose last step failed reports that failure again from
 * `finalize`, though it is finalized all the same. One left unfinalized keeps the file open
 * after the connection closes (on Windows, locked).
 */
export function finalizeAll(statements: Iterable<Statement>): void {
  for (const s of statements) {
    try {
      if (!s.isFinalized) s.finalize();
    } catch {
      // Finalized all the same.
    }
  }
}

export class SqliteFile {
  readonly db: Database;
  private readonly marker: string;

  constructor(
    readonly path: string,
    private readonly busyWaitMs = BUSY_WAIT_MS,
  ) {
    this.marker = `${path}.open-${encodeURIComponent(hostname())}-${process.pid}`;
    writeFileSync(this.marker, '');
    this.db = new Database(path);
  }

  /** Runs `fn`, waiting while another window holds the lock and clearing a stale one. */
  retry<T>(fn: () => T): T {
    const deadline = Date.now() + this.busyWaitMs;
    for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
      try {
        return fn();
      } catch (e) {
        if (isStaleReset(e) && Date.now() <= deadline) continue;
        if (!isBusy(e)) throw e;
        if (this.clearStaleLock()) continue;
        if (Date.now() > deadline) throw new LibraryBusy();
        sleep(wait);
      }
    }
  }

  /** Runs `fn` in one transaction (all of it or none of it reaches the file). */
  transaction<T>(fn: () => T): T {
    return this.within('BEGIN IMMEDIATE', fn);
  }

  /**
   * Runs the statements of `fn` as one read: the lock (a directory made and removed, slow on
   * some file systems) is taken once for all of them, and they all see the same state.
   */
  read<T>(fn: () => T): T {
    return this.within('BEGIN', fn);
  }

  private within<T>(begin: string, fn: () => T): T {
    return this.retry(() => {
      this.db.exec(begin);
      try {
        const out = fn();
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    });
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
    rmSync(this.marker, { force: true });
  }

  /**
   * Removes the lock directory when no other process can be holding it (every other process
   * that opened the file on this host is gone, and none on another host did), or when it is
   * older than any transaction: true when it did.
   */
  private clearStaleLock(): boolean {
    const lock = `${this.path}.lock`;
    try {
      const old = Date.now() - statSync(lock).mtimeMs >= STALE_LOCK_MS;
      if (!old && this.othersAlive()) return false;
      rmdirSync(lock);
      return true;
    } catch {
      return false;
    }
  }

  /** Whether another process may have the file open; markers of dead processes are removed. */
  private othersAlive(): boolean {
    const prefix = `${basename(this.path)}.open-`;
    const host = `${encodeURIComponent(hostname())}-`;
    let others = false;
    for (const name of readdirSync(dirname(this.path))) {
      if (!name.startsWith(prefix)) continue;
      const owner = name.slice(prefix.length);
      if (!owner.startsWith(host)) {
        others = true;
        continue;
      }
      const pid = Number(owner.slice(host.length));
      if (pid === process.pid) continue;
      if (Number.isInteger(pid) && pid > 0 && !processAlive(pid))
        rmSync(join(dirname(this.path), name), { force: true });
      else others = true;
    }
    return others;
  }
}

/** Moves a damaged file aside (kept for a bug report, never read again); returns where it went. */
export function setAside(path: string, now = Date.now()): string {
  const to = `${path}.damaged-${now}`;
  renameSync(path, to);
  return to;
}

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}
