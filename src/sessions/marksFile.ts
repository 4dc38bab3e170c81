import { mkdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { IDisposable } from '../base/lifecycle';
import { writeAtomicSync } from '../platform/atomicWrite';
import type { MarksStore } from './marks';

/** What a file's stat says of its content: a rename over it makes a new inode. */
const stampOf = (file: string): string | undefined => {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
};

interface Read {
  stamp: string;
  value: unknown;
}

/** No file for the key (yet): the global state's value stands. */
const NO_FILE: Read = { stamp: '', value: undefined };

/** A value read from a file that is not JSON: `SessionMarks` says it is unreadable and starts empty. */
const UNREADABLE = 'unreadable';

/**
 * Names and archives kept in files of the extension's global storage, one per key, each
 * written whole (a temporary file synced, then renamed over the old one) before `set`
 * returns. VS Code's global state is flushed to disk later (in a browser window, to the
 * browser's storage): a window ended right after a rename or an archive lost it. The global
 * state still gets every value, and is read for a key whose file was never written (what
 * earlier versions kept there).
 *
 * Other windows write the same files: a watch on the folder says when to read them again, and
 * a read returns the same object while the file is unchanged (`SessionMarks` parses a value
 * again only when it is another object).
 */
export class FileMarksStore implements MarksStore, IDisposable {
  private readonly read = new Map<string, Read>();
  /** Keys whose file may have changed since read (every key when there is no watch). */
  private readonly stale = new Set<string>();
  private watcher: FSWatcher | undefined;
  private watched = false;

  constructor(
    private readonly dir: string,
    private readonly legacy: MarksStore,
  ) {}

  get(key: string): unknown {
    this.watchDir();
    let cached = this.read.get(key);
    if (!cached || !this.watcher || this.stale.has(key)) {
      this.stale.delete(key);
      cached = this.readFile(key, cached);
    }
    return cached === NO_FILE ? this.legacy.get(key) : cached.value;
  }

  private readFile(key: string, cached: Read | undefined): Read {
    const file = this.fileOf(key);
    const stamp = stampOf(file);
    if (stamp === undefined) {
      this.read.set(key, NO_FILE);
      return NO_FILE;
    }
    if (cached?.stamp === stamp) return cached;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      value = UNREADABLE;
    }
    const read = { stamp, value };
    this.read.set(key, read);
    return read;
  }

  set(key: string, value: unknown): Promise<void> | void {
    const file = this.fileOf(key);
    this.watchDir();
    let failed: unknown;
    try {
      writeAtomicSync(file, JSON.stringify(value), { durable: true });
    } catch (e) {
      failed = e;
    }
    // Read back as given (the file as it is now stands for it): a failed write still holds
    // in this window, and in the global state.
    this.read.set(key, { stamp: stampOf(file) ?? '', value });
    const done = this.legacy.set(key, value);
    if (failed !== undefined) throw failed;
    return done;
  }

  dispose(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private fileOf(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** Makes the folder and watches it, once; without a watch every read checks the file. */
  private watchDir(): void {
    if (this.watched) return;
    this.watched = true;
    try {
      mkdirSync(this.dir, { recursive: true });
      this.watcher = watch(this.dir, (_event, name) => {
        const file = typeof name === 'string' ? name : undefined;
        if (file === undefined) for (const key of this.read.keys()) this.stale.add(key);
        else if (file.endsWith('.json')) this.stale.add(file.slice(0, -'.json'.length));
      });
      this.watcher.on('error', () => this.dispose());
      // Reading again when told is all it is for: it keeps no process alive.
      this.watcher.unref();
    } catch {
      // No watch (a file system without one): every read checks the file.
    }
  }
}
