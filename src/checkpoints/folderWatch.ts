import { Worker } from 'node:worker_threads';
import type { WatchReply, WatchRequest } from './watchProtocol';

/**
 * Whether a watch can vouch for every change up to the moment it is asked. On Linux, inotify
 * queues an event in the same system call that changes a file, and its queue is read whole on
 * every turn of the event loop. macOS's FSEvents delivers after a latency and Windows' buffer
 * can overflow without a word: there every snapshot looks at every file.
 */
export function canWatch(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'linux';
}

/**
 * The folders' watches, kept in a thread of their own (`dist/checkpointsWatch.js`). Asked what
 * changed under a folder since it was last asked, it answers the paths, or 'all' (look at every
 * file): at first, after {@link lost}, after a change to a `.gitignore` or a `.git`, after a
 * burst of changes, and for good once a watch failed (a limit reached) or the thread died.
 */
export class FolderWatch {
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 1;
  private readonly waiting = new Map<number, (changed: string[] | 'all') => void>();
  private readonly roots = new Set<string>();
  /** Roots whose watches are all in place, and those waiting for theirs. */
  private readonly ready = new Set<string>();
  private readonly readyWaiters = new Map<string, (() => void)[]>();

  constructor(private readonly workerPath: string) {}

  /** Starts watching `root` (a real path) unless it is watched already. */
  watch(root: string, skip: readonly string[]): void {
    if (this.broken || this.roots.has(root)) return;
    this.roots.add(root);
    this.post({ type: 'watch', root, skip });
  }

  watching(root: string): boolean {
    return !this.broken && this.roots.has(root);
  }

  /** Resolves once the root's watches are all in place (or the watch failed). */
  whenReady(root: string): Promise<void> {
    if (this.broken || this.ready.has(root)) return Promise.resolve();
    return new Promise((resolve) => {
      this.readyWaiters.set(root, [...(this.readyWaiters.get(root) ?? []), resolve]);
      this.holdOn();
    });
  }

  /**
   * What changed under `root` since the last call: every change made before this call included.
   * 'all' at once while its watches are still being put in place (a snapshot then must not wait
   * for them), and at the first call after.
   */
  look(root: string): Promise<string[] | 'all'> {
    if (!this.watching(root) || !this.ready.has(root)) return Promise.resolve('all');
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.holdOn();
      this.post({ type: 'look', root, id });
    });
  }

  /** The snapshot after the last look failed: the next look is at every file. */
  lost(root: string): void {
    if (this.roots.has(root)) this.post({ type: 'lost', root });
  }

  unwatch(root?: string): void {
    for (const r of root === undefined ? [...this.roots] : [root]) {
      this.ready.delete(r);
      if (this.roots.delete(r)) this.post({ type: 'unwatch', root: r });
    }
  }

  close(): void {
    this.roots.clear();
    void this.worker?.terminate();
    this.worker = undefined;
    this.fail();
  }

  private post(m: WatchRequest): void {
    if (this.broken) return;
    try {
      this.start().postMessage(m);
    } catch {
      this.fail();
    }
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath);
    worker.on('message', (m: WatchReply) => {
      if (m.type === 'ready') {
        this.ready.add(m.root);
        for (const resolve of this.readyWaiters.get(m.root) ?? []) resolve();
        this.readyWaiters.delete(m.root);
        this.holdOn();
        return;
      }
      const resolve = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      this.holdOn();
      resolve?.(m.changed);
    });
    worker.on('error', () => this.fail());
    worker.on('exit', () => this.fail());
    this.worker = worker;
    this.holdOn();
    return worker;
  }

  /**
   * The watches never keep a process alive that has nothing else to do, but an answer awaited
   * from the thread does (a process waiting on nothing else would end before it came).
   */
  private holdOn(): void {
    if (this.waiting.size || this.readyWaiters.size) this.worker?.ref();
    else this.worker?.unref();
  }

  /** No watch can vouch for anything any more: every look, waiting or to come, is at every file. */
  private fail(): void {
    this.broken = true;
    for (const resolve of this.waiting.values()) resolve('all');
    this.waiting.clear();
    for (const waiters of this.readyWaiters.values()) for (const resolve of waiters) resolve();
    this.readyWaiters.clear();
  }
}
