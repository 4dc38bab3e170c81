/** Messages between the checkpoints and their watch thread (see watchWorker). */

/** Folders watched at most, all roots together: past this, snapshots look at every file. */
export const MAX_DIRS = 20_000;

/**
 * How many folders the watches may take of the user's inotify watches
 * (`/proc/sys/fs/inotify/max_user_watches`, shared by every process of the user): a quarter, so
 * that VS Code's own file watcher and other tools keep the rest, and never more than
 * {@link MAX_DIRS}. An unknown limit is taken as the oldest kernels' 8,192.
 */
export function watchBudget(maxUserWatches: number | undefined): number {
  const limit =
    maxUserWatches !== undefined && Number.isFinite(maxUserWatches) && maxUserWatches > 0 ? maxUserWatches : 8192;
  return Math.min(MAX_DIRS, Math.floor(limit / 4));
}
/** More changed paths than this since the last look: the next snapshot looks at every file. */
export const MAX_DIRTY = 500;

export type WatchRequest =
  | { type: 'watch'; root: string; skip: readonly string[] }
  | { type: 'unwatch'; root: string }
  /** The snapshot that followed the last look failed: the next look is at every file. */
  | { type: 'lost'; root: string }
  | { type: 'look'; root: string; id: number };

/**
 * The paths changed under the root since its last look, relative with `/`, or 'all'; or the
 * root's watches are all in place (or failed: its looks then answer 'all').
 */
export type WatchReply = { type: 'looked'; id: number; changed: string[] | 'all' } | { type: 'ready'; root: string };
