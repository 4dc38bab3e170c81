/** Messages between the checkpoints and their watch thread (see watchWorker). */

/** A root with more folders than this is not watched: each snapshot of it looks at every file. */
export const MAX_DIRS = 20_000;
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
