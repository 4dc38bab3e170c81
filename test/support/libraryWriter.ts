// A process that keeps sessions in a library as fast as it can, through the library's store
// (the code its worker thread runs), and prints "ack <n> <page writes>" once write n is stored.
// The crash test kills it inside a write's page writes:
// - on SQLite in WebAssembly, whose file writes are JavaScript calls, at its `killAt`-th write
//   to the database or its WAL, exactly;
// - on the host's own SQLite, whose writes are native, from a thread that watches the files:
//   once the WAL holds `walBytes` bytes (the commit's frames), or once the database file
//   changes while the WAL is there (the checkpoint's page writes).
// A companion writes other sessions beside it until a file named `stop` appears.
// Usage: node libraryWriter.js '<json of WriterArgs>'
import fs from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EngineName } from '../../src/library/engine';
import { FILE_NAME } from '../../src/library/schema';
import { LibraryStore } from '../../src/library/store';
import { crashWrite, type WriteSize, type WriterRole } from './crashWrites';

export interface WriterArgs {
  dir: string;
  engine: EngineName;
  role: WriterRole;
  size: WriteSize;
  first: number;
  /** WebAssembly: die at this write to the database or its WAL, counted from the first write. */
  killAt?: number;
  /** Native: die once the WAL holds this many bytes. */
  walBytes?: number;
  /** Native: die once the database file changes while the WAL is there. */
  inCheckpoint?: boolean;
}

const args = JSON.parse(process.argv[2] ?? '{}') as WriterArgs;
const db = join(args.dir, FILE_NAME);
const wal = `${db}-wal`;
const say = (line: string) => fs.writeSync(1, `${line}\n`);

/**
 * Counts the page writes to the library's files once `armed`, and dies at the chosen one. Made
 * before the store opens: a connection opened then (an earlier version kept one open) is counted too.
 */
function countWrites(): { armed: boolean; writes: () => number } {
  const files = new Map<number, string>();
  let writes = 0;
  const counter = { armed: false, writes: () => writes };
  const open = fs.openSync;
  const write = fs.writeSync;
  const close = fs.closeSync;
  const patched = fs as unknown as Record<string, unknown>;
  patched.openSync = (path: fs.PathLike, ...rest: unknown[]) => {
    const fd = (open as (...a: unknown[]) => number)(path, ...rest);
    if (path === db || path === wal || path === `${db}-journal`) files.set(fd, String(path));
    return fd;
  };
  patched.closeSync = (fd: number) => {
    files.delete(fd);
    close(fd);
  };
  patched.writeSync = (fd: number, ...rest: unknown[]) => {
    if (counter.armed && files.has(fd) && ++writes === args.killAt) {
      // A write to the WAL is the commit's; one to the database, the checkpoint's.
      say(`dying in ${files.get(fd) === db ? 'checkpoint' : 'commit'}`);
      process.kill(process.pid, 'SIGKILL');
    }
    return (write as (...a: unknown[]) => number)(fd, ...rest);
  };
  return counter;
}

/** A thread that watches the files and kills this process when the chosen moment comes. */
function watch(): Promise<void> {
  const code = `
    const { statSync, writeSync } = require('node:fs');
    const { parentPort, workerData: w } = require('node:worker_threads');
    const size = (p) => statSync(p, { throwIfNoEntry: false })?.size ?? -1;
    const changed = (p, t) => (statSync(p, { throwIfNoEntry: false, bigint: true })?.mtimeNs ?? 0n) !== t;
    let dbTime = statSync(w.db, { throwIfNoEntry: false, bigint: true })?.mtimeNs ?? 0n;
    parentPort.postMessage('watching');
    let where;
    while (!where) {
      const walSize = size(w.wal);
      if (w.walBytes !== undefined && walSize >= w.walBytes) where = 'commit';
      else if (w.inCheckpoint && walSize > 0 && changed(w.db, dbTime)) where = 'checkpoint';
      else if (walSize <= 0) dbTime = statSync(w.db, { throwIfNoEntry: false, bigint: true })?.mtimeNs ?? 0n;
    }
    writeSync(1, 'dying in ' + where + '\\n');
    process.kill(process.pid, 'SIGKILL');
  `;
  const worker = new Worker(code, {
    eval: true,
    workerData: { db, wal, walBytes: args.walBytes, inCheckpoint: args.inCheckpoint },
  });
  return new Promise((resolve) => worker.once('message', () => resolve()));
}

async function main(): Promise<void> {
  const counter = args.engine === 'wasm' ? countWrites() : undefined;
  const store = LibraryStore.open({ dir: args.dir, maxBytes: 1e10, engine: args.engine, busyWaitMs: 60_000 });
  const written = counter?.writes ?? (() => 0);
  if (counter) counter.armed = true;
  if (args.engine === 'native' && (args.walBytes !== undefined || args.inCheckpoint)) await watch();
  say('ready');
  const stop = join(args.dir, 'stop');
  for (let n = args.first; ; n++) {
    if (args.role === 'companion' && fs.existsSync(stop)) break;
    const before = written();
    store.write(crashWrite(args.role, args.size, n));
    say(`ack ${n} ${written() - before}`);
  }
  store.close();
}

if (process.argv[2]) void main();
