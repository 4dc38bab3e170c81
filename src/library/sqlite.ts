/**
 * The library's SQLite file: opened through SQLite compiled to WebAssembly (no native module,
 * so every extension host runs it), shared by the windows of one machine. Synchronous: only the
 * library's worker thread uses it.
 *
 * The WebAssembly build locks the file by creating a `<file>.lock` directory for the length of
 * each transaction. Another window holding it makes a statement fail as busy: wait and try
 * again. A window killed inside a transaction leaves the directory behind (and perhaps a hot
 * journal, which SQLite rolls back on the next open): a lock older than any transaction lasts
 * is stale, so it is removed.
 */
import { mkdirSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { Database } from 'node-sqlite3-wasm';

/** No transaction of the library lasts this long: a lock this old was left by a killed process. */
export const STALE_LOCK_MS = 30_000;
/** How long a statement waits for another window's transaction before it gives up. */
const BUSY_WAIT_MS = 5_000;

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

/** The file is not a database, or SQLite found it damaged. */
export function isCorrupt(e: unknown): boolean {
  return e instanceof Error && /malformed|not a database|corrupt/i.test(e.message);
}

export class SqliteFile {
  readonly db: Database;

  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = new Database(path);
  }

  /** Runs `fn`, waiting while another window holds the lock and clearing a stale one. */
  retry<T>(fn: () => T): T {
    const deadline = this.now() + BUSY_WAIT_MS;
    for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
      try {
        return fn();
      } catch (e) {
        if (!isBusy(e)) throw e;
        if (this.clearStaleLock()) continue;
        if (this.now() > deadline) throw new LibraryBusy();
        sleep(wait);
      }
    }
  }

  /** Runs `fn` in one transaction (all of it or none of it reaches the file). */
  transaction<T>(fn: () => T): T {
    return this.retry(() => {
      this.db.exec('BEGIN IMMEDIATE');
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
  }

  /** Removes the lock directory when it is older than any transaction: true when it did. */
  private clearStaleLock(): boolean {
    const lock = `${this.path}.lock`;
    try {
      if (this.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return false;
      rmdirSync(lock);
      return true;
    } catch {
      return false;
    }
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
