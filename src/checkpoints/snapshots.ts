import type { Logger } from '../agent/log';
import { canWatch, FolderWatch } from './folderWatch';
import { LiveTree } from './liveTree';
import { quickSnapshot, type SnapshotBase } from './quickSnapshot';
import type { ShadowRepo } from './shadowRepo';
import { type Snapshot, takeSnapshot } from './snapshot';

/**
 * A snapshot built on another (see quickSnapshot) names that one's unchanged trees and files
 * without writing them again: a base older than this is taken again by git, well within the hour
 * git's pruning spares objects that nothing names yet.
 */
const BASE_MAX_AGE_MS = 20 * 60_000;

/** What a folder's last snapshot in this window left for the next: its tree, once read into memory. */
interface Last {
  at: number;
  base?: SnapshotBase;
  loading?: Promise<void>;
}

/**
 * The snapshots of a window's folders. A watched folder's snapshot starts from the last one and
 * looks only at the paths changed since (see quickSnapshot): the watch has been handed every
 * change made before it was asked (see FolderWatch.look), and the last snapshot is held in
 * memory. Otherwise, or where only git can tell, git looks at every file, and the tree it took is
 * read into memory in the background for the next snapshot.
 */
export class Snapshots {
  /** The folders' watch, where there is one. */
  private readonly watch: FolderWatch | undefined;
  /** Per folder (its real path). */
  private readonly last = new Map<string, Last>();

  constructor(
    watchWorker: string | undefined,
    platform: NodeJS.Platform | undefined,
    private readonly logger: Logger,
  ) {
    if (watchWorker && canWatch(platform)) this.watch = new FolderWatch(watchWorker);
  }

  /** A snapshot of `repo`'s folder. Called one at a time per folder (the folder's queue). */
  async take(repo: ShadowRepo, limits: { maxFileBytes: number; skip: readonly string[] }): Promise<Snapshot> {
    const watch = this.watch;
    if (!watch) return takeSnapshot(repo, limits.maxFileBytes);
    const key = repo.folder;
    watch.watch(key, limits.skip);
    const changed = await watch.look(key);
    const last = this.last.get(key);
    try {
      await last?.loading;
      // Still this folder's (a prune or new settings drop them), and used once: whatever
      // happens below, the next snapshot starts from what this one leaves.
      const base = last && this.last.get(key) === last ? last.base : undefined;
      this.last.delete(key);
      if (changed !== 'all' && base && Date.now() - last!.at < BASE_MAX_AGE_MS) {
        const snap = await quickSnapshot(repo, base, changed, limits);
        if (snap) {
          this.last.set(key, { at: last!.at, base });
          return snap;
        }
      }
      const snap = await takeSnapshot(repo, limits.maxFileBytes);
      this.readBase(repo, snap);
      return snap;
    } catch (e) {
      watch.lost(key);
      throw e;
    }
  }

  /** Resolves once the folder's watch is in place (at once where there is none). */
  async ready(folder: string): Promise<void> {
    await this.watch?.whenReady(folder);
  }

  /**
   * The next snapshot of the folder (of every folder when none is given) looks at every file:
   * git's pruning may delete what a base held in memory names.
   */
  forget(folder?: string): void {
    if (folder === undefined) this.last.clear();
    else this.last.delete(folder);
  }

  /** New limits: what was left out before may belong in now, changed or not; the watches start again. */
  reset(): void {
    this.last.clear();
    this.watch?.unwatch();
  }

  /** Ends the watches for good. */
  dispose(): void {
    this.last.clear();
    this.watch?.close();
  }

  /** Reads the tree a full look took into memory, off the folder's queue, unless a later snapshot came first. */
  private readBase(repo: ShadowRepo, snap: Snapshot): void {
    const key = repo.folder;
    const state: Last = { at: Date.now() };
    state.loading = LiveTree.load(repo.runner, snap.id).then(
      (tree) => {
        if (!tree || this.last.get(key) !== state) return;
        state.base = {
          tree,
          skipped: new Map(snap.allSkipped.filter((s) => s.path).map((s) => [s.path, s])),
          notUtf8: snap.allSkipped.filter((s) => !s.path),
          nested: snap.nested,
        };
      },
      (e: unknown) =>
        this.logger.warn(`checkpoints: reading ${snap.id.slice(0, 8)} of ${repo.folder} failed: ${String(e)}`),
    );
    this.last.set(key, state);
  }
}
