import type { ShadowGit } from './gitProcess';
import { splitZ } from '../platform/gitRun';

/** One side of a changed file: the blob git keeps and its mode (`100644`, `100755`, `120000` a link). */
export interface FileSide {
  blob: string;
  mode: string;
}

export type ChangeStatus = 'added' | 'deleted' | 'modified' | 'typeChanged';

/** A file that differs between two checkpoints. Contents are read on demand from the blobs. */
export interface FileChange {
  /** Relative to the folder, with `/` between names. */
  path: string;
  status: ChangeStatus;
  /** Lines added and deleted; undefined for a binary file (or when counts were not asked for). */
  added?: number;
  deleted?: number;
  binary: boolean;
  before?: FileSide;
  after?: FileSide;
}

const STATUS: Record<string, ChangeStatus> = { A: 'added', D: 'deleted', M: 'modified', T: 'typeChanged' };
const NULL_OID = /^0+$/;

/**
 * Parses `git diff-tree -r -z --no-renames --raw [--numstat]`: first one raw record per file
 * (`:modeA modeB blobA blobB S`, then the path), then, with counts, one `added\tdeleted\tpath`
 * per file in the same order (`-` for binary files).
 */
export function parseDiffTree(out: Buffer, counts: boolean): FileChange[] {
  const parts = splitZ(out).parts;
  const changes: FileChange[] = [];
  let i = 0;
  while (i < parts.length && parts[i]!.startsWith(':')) {
    const [modeA, modeB, blobA, blobB, status] = parts[i]!.slice(1).split(' ');
    const file = parts[i + 1] ?? '';
    i += 2;
    const change: FileChange = { path: file, status: STATUS[status?.[0] ?? 'M'] ?? 'modified', binary: false };
    if (blobA && modeA && !NULL_OID.test(blobA)) change.before = { blob: blobA, mode: modeA };
    if (blobB && modeB && !NULL_OID.test(blobB)) change.after = { blob: blobB, mode: modeB };
    changes.push(change);
  }
  if (counts) {
    for (let k = 0; i < parts.length && k < changes.length; i++, k++) {
      const [a, d] = parts[i]!.split('\t');
      const change = changes[k]!;
      if (a === '-' || d === '-') {
        change.binary = true;
      } else {
        change.added = Number(a);
        change.deleted = Number(d);
      }
    }
  }
  return changes;
}

/** The files that differ between two trees, with line counts unless `counts` is false. */
export async function diffTrees(git: ShadowGit, from: string, to: string, counts = true): Promise<FileChange[]> {
  const args = ['diff-tree', '-r', '-z', '--no-renames', '--raw', ...(counts ? ['--numstat'] : []), from, to];
  return parseDiffTree((await git.run({ args })).stdout, counts);
}

/** The tree of nothing: a diff from it lists every file of the other tree as added. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
