/**
 * The SQLite the library runs on: the host's own (`node:sqlite`, native, where its Node has it
 * with FTS5) or SQLite compiled to WebAssembly (`node-sqlite3-wasm`, every other host: VS Code
 * before its Node 22). Both are used the same way (see `sqlite.ts`): a connection is opened for
 * each hold of the library's lock, in exclusive locking mode and WAL, so neither engine's own
 * locks decide anything and SQLite's WAL recovery is all a crash needs.
 *
 * The WebAssembly module is compiled only when it is chosen: about half a second of CPU that a
 * host with its own SQLite never spends.
 */

import type * as Wasm from 'node-sqlite3-wasm';

/** A value SQLite stores or returns. */
export type SqlValue = number | bigint | string | Uint8Array | null;
export type Row = Record<string, SqlValue>;

export interface SqlStatement {
  all(values: readonly SqlValue[]): Row[];
  run(values: readonly SqlValue[]): void;
  finalize(): void;
}

export interface SqlConnection {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

export type EngineName = 'native' | 'wasm';

export interface SqlEngine {
  readonly name: EngineName;
  open(path: string): SqlConnection;
}

/** What the library uses of `node:sqlite` (Node 22.13 and later; its types are not in @types/node 20). */
interface NodeSqlite {
  DatabaseSync: new (path: string) => {
    exec(sql: string): void;
    prepare(sql: string): {
      all(...values: SqlValue[]): Row[];
      run(...values: SqlValue[]): unknown;
    };
    close(): void;
  };
}

/** FTS5's `contentless_delete` needs SQLite 3.43. */
const MIN_VERSION = [3, 43, 0];

function recentEnough(version: string): boolean {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < MIN_VERSION.length; i++) {
    const a = parts[i] ?? 0;
    const b = MIN_VERSION[i]!;
    if (a !== b) return a > b;
  }
  return true;
}

function nativeModule(): NodeSqlite | undefined {
  try {
    // Undefined where the host's Node has no such module (Node 20, or 22 before 22.13 without a flag).
    return process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
  } catch {
    return undefined;
  }
}

/**
 * node:sqlite binds every JS number as REAL, so `(id - ?) / 8` divides as reals there and as
 * integers in the WebAssembly build: a whole number goes as a BigInt (INTEGER), as it does there.
 */
function bindable(v: SqlValue): SqlValue {
  return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : v;
}

function nativeEngine(sqlite: NodeSqlite): SqlEngine {
  return {
    name: 'native',
    open(path) {
      const db = new sqlite.DatabaseSync(path);
      return {
        exec: (sql) => db.exec(sql),
        prepare(sql) {
          const s = db.prepare(sql);
          return {
            all: (values) => s.all(...values.map(bindable)),
            run: (values) => void s.run(...values.map(bindable)),
            // node:sqlite finalizes a statement when it is collected or its database closes.
            finalize: () => {},
          };
        },
        close: () => db.close(),
      };
    },
  };
}

/** Whether this SQLite can hold the library: FTS5 and a recent enough version (an embedder may build it without). */
function fitForLibrary(engine: SqlEngine): boolean {
  let db: SqlConnection | undefined;
  try {
    db = engine.open(':memory:');
    const row = db.prepare("SELECT sqlite_version() AS v, sqlite_compileoption_used('ENABLE_FTS5') AS fts5").all([])[0];
    return row?.fts5 === 1 && typeof row.v === 'string' && recentEnough(row.v);
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

function wasmEngine(): SqlEngine {
  // Required here, not imported: its WebAssembly is compiled when the module loads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Database } = require('node-sqlite3-wasm') as typeof Wasm;
  return {
    name: 'wasm',
    open(path) {
      const db = new Database(path);
      return {
        exec: (sql) => db.exec(sql),
        prepare(sql) {
          const s = db.prepare(sql);
          return {
            all: (values) => s.all(values as SqlValue[]) as Row[],
            run: (values) => void s.run(values as SqlValue[]),
            finalize: () => {
              if (!s.isFinalized) s.finalize();
            },
          };
        },
        close: () => {
          if (db.isOpen) db.close();
        },
      };
    },
  };
}

const engines = new Map<EngineName, SqlEngine>();

/**
 * The engine to use: the one asked for (tests run both), else the host's own SQLite when it can
 * hold the library, else WebAssembly. Made once per thread.
 */
export function sqlEngine(wanted?: EngineName): SqlEngine {
  const name = wanted ?? (engines.get('native') || nativeFits() ? 'native' : 'wasm');
  let engine = engines.get(name);
  if (!engine) {
    if (name === 'native') {
      const sqlite = nativeModule();
      if (!sqlite) throw new Error("This host's Node has no node:sqlite.");
      engine = nativeEngine(sqlite);
    } else {
      engine = wasmEngine();
    }
    engines.set(name, engine);
  }
  return engine;
}

let nativeChecked: boolean | undefined;
function nativeFits(): boolean {
  if (nativeChecked === undefined) {
    const sqlite = nativeModule();
    nativeChecked = sqlite !== undefined && fitForLibrary(nativeEngine(sqlite));
  }
  return nativeChecked;
}
