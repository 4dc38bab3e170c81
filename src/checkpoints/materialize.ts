import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { splitZ } from '../platform/gitRun';
import type { ShadowRepo } from './shadowRepo';

/** What writing a checkpoint into another folder did. */
export interface Materialized {
  /** Files of the checkpoint written. */
  written: number;
  /** Files the folder had that the checkpoint did not (and would have kept): deleted, `/`-separated. */
  deleted: string[];
  /** Files the checkpoint would not have kept (over the size limit): left as the folder has them. */
  kept: string[];
}

/**
 * Writes checkpoint `id` of `repo`'s folder into `target`, another folder (a new worktree of
 * the same repository): every file the checkpoint holds is written as it was, and every file of
 * `target` the checkpoint would have kept but does not hold is deleted, so `target` has the
 * files as they were then. What the checkpoint never keeps (ignored by the folder's
 * `.gitignore` or the skip patterns, over the size limit, nested repositories) is left as
 * `target` has it. Runs on an index of its own: the folder's snapshots are not disturbed, and
 * nothing is written under the folder itself.
 */
export async function materialize(
  repo: ShadowRepo,
  id: string,
  target: string,
  maxFileBytes: number,
): Promise<Materialized> {
  const index = repo.tempPath('materialize');
  try {
    const git = repo.runner;
    await git.run({ args: ['read-tree', id], index, workTree: target });
    await git.run({ args: ['checkout-index', '-a', '-f', '-q'], index, workTree: target });
    const files = splitZ((await git.run({ args: ['ls-files', '-z'], index, workTree: target })).stdout).parts;
    const extra = splitZ(
      (await git.run({ args: ['ls-files', '-z', '--others', '--exclude-standard'], index, workTree: target })).stdout,
    ).parts;
    const out: Materialized = { written: files.length, deleted: [], kept: [] };
    for (const rel of extra) {
      // A nested repository is listed as its folder: the checkpoint lists its files on their own.
      if (rel.endsWith('/')) continue;
      const abs = path.join(target, ...rel.split('/'));
      const st = await fs.lstat(abs).catch(() => undefined);
      if (!st) continue;
      if (st.isFile() && st.size > maxFileBytes) {
        out.kept.push(rel);
        continue;
      }
      await fs.rm(abs, { force: true });
      out.deleted.push(rel);
    }
    return out;
  } finally {
    await fs.rm(index, { force: true });
  }
}
