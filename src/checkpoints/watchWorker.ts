/**
 * The checkpoints' watch thread: one inotify watch per folder under each watched root, in a
 * thread of its own. A thread has an event loop of its own and so an inotify queue of its own:
 * in the extension host the queue would be shared with every other extension's watches, and
 * the events it drops when it overflows could not be counted (see {@link TOO_MANY}).
 */
import { type FSWatcher, promises as fs, readFileSync, watch } from 'node:fs';
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { skippedFolderNames } from './skipRules';
import { MAX_DIRTY, type WatchReply, type WatchRequest, watchBudget } from './watchProtocol';

const port = parentPort!;

/**
 * The kernel drops events beyond `max_queued_events` unread, and libuv drops the overflow
 * notice it gets instead. A queue holds that many only when at least that many were read since
 * the last look: past half of it, a look is at every file.
 */
const TOO_MANY = Math.floor((inotifyLimit('max_queued_events') ?? 16384) / 2);
let events = 0;
/** Folders watched, all roots together, and how many may be (see {@link watchBudget}). */
let watching = 0;
const BUDGET = watchBudget(inotifyLimit('max_user_watches'));

function inotifyLimit(name: string): number | undefined {
  try {
    const n = Number(readFileSync(`/proc/sys/fs/inotify/${name}`, 'utf8').trim());
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a name from the kernel survives decoding: a name that is not UTF-8 cannot be named again. */
function decoded(name: Buffer): string | undefined {
  const s = name.toString('utf8');
  return Buffer.from(s, 'utf8').equals(name) ? s : undefined;
}

/** What changed under one root since its last look. */
class WatchedRoot {
  private readonly watchers = new Map<string, FSWatcher>();
  private dirty = new Set<string>();
  /** The next look is at every file: at first, after a lost change, and for good once broken. */
  private whole = true;
  private broken = false;
  private eventsAtLook = events;
  private readonly ready: Promise<void>;
  /** Folders just made, being looked at and watched. */
  private readonly pending = new Set<Promise<void>>();
  private readonly skipNames: Set<string>;

  constructor(
    private readonly root: string,
    skip: readonly string[],
  ) {
    this.skipNames = skippedFolderNames(skip);
    this.ready = this.add('')
      .catch(() => this.close())
      .then(() => port.postMessage({ type: 'ready', root } satisfies WatchReply));
  }

  /**
   * What changed since the last look, every change made before the request was sent included:
   * inotify queues an event in the system call that makes the change, and after the request
   * arrived the loop polls (and reads the whole queue) before the second immediate runs.
   */
  async look(): Promise<string[] | 'all'> {
    await this.ready;
    do {
      // A new folder's watch is in place before the folder is looked at: a file written in it
      // later has an event of its own; one written before is found by looking at the folder.
      while (this.pending.size) await Promise.all(this.pending);
      await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
    } while (this.pending.size);
    const overflowed = events - this.eventsAtLook >= TOO_MANY;
    this.eventsAtLook = events;
    const paths = [...this.dirty];
    this.dirty = new Set();
    if (this.whole || this.broken || overflowed) {
      this.whole = false;
      return 'all';
    }
    return paths;
  }

  lost(): void {
    this.whole = true;
  }

  /** Every watch of the root ends (its looks answer 'all' from now on), freeing its share of the budget. */
  close(): void {
    this.broken = true;
    for (const w of this.watchers.values()) w.close();
    watching -= this.watchers.size;
    this.watchers.clear();
  }

  /** Watches the folder `rel` (relative to the root, '' for the root) and every folder below it. */
  private async add(rel: string): Promise<void> {
    if (this.broken || this.watchers.has(rel)) return;
    // Past the budget no watch can vouch for the root: it gives back what it took.
    if (watching >= BUDGET) return this.close();
    const abs = path.join(this.root, ...rel.split('/').filter(Boolean));
    let w: FSWatcher;
    try {
      w = watch(abs, { persistent: true, encoding: 'buffer' }, (_event, name) => this.changed(rel, name));
    } catch (e) {
      // The folder went before it was watched: its parent's event says so.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      // A watch limit reached: every look is at every file from now on.
      return this.close();
    }
    w.on('error', () => this.close());
    this.watchers.set(rel, w);
    watching++;
    const entries = await fs.readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.isDirectory() && !this.skipNames.has(e.name)) await this.add(rel ? `${rel}/${e.name}` : e.name);
    }
  }

  private changed(dir: string, raw: Buffer | null): void {
    events++;
    if (this.broken) return;
    const name = raw ? decoded(raw) : undefined;
    if (!name) return this.lost();
    // What git lists may change anywhere: every file is looked at.
    if (name === '.git' || name === '.gitignore') return this.lost();
    const rel = dir ? `${dir}/${name}` : name;
    this.dirty.add(rel);
    if (this.dirty.size > MAX_DIRTY) this.lost();
    if (this.skipNames.has(name)) return;
    // A folder made or moved in gets watches of its own; one that went loses them.
    const looked = fs
      .lstat(path.join(this.root, ...rel.split('/')))
      .then(
        (st) => (st.isDirectory() ? this.add(rel) : this.unwatch(rel)),
        () => this.unwatch(rel),
      )
      .catch(() => this.close())
      .finally(() => this.pending.delete(looked));
    this.pending.add(looked);
  }

  private unwatch(rel: string): void {
    for (const [k, w] of this.watchers) {
      if (k === rel || k.startsWith(`${rel}/`)) {
        w.close();
        this.watchers.delete(k);
        watching--;
      }
    }
  }
}

const roots = new Map<string, WatchedRoot>();

port.on('message', (m: WatchRequest) => {
  const root = roots.get(m.root);
  switch (m.type) {
    case 'watch':
      if (!root) roots.set(m.root, new WatchedRoot(m.root, m.skip));
      return;
    case 'unwatch':
      root?.close();
      roots.delete(m.root);
      return;
    case 'lost':
      root?.lost();
      return;
    case 'look':
      void (root ? root.look() : Promise.resolve<'all'>('all')).then((changed) =>
        port.postMessage({ type: 'looked', id: m.id, changed } satisfies WatchReply),
      );
  }
});
