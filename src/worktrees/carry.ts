import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FolderWrites, NotInFolder } from '../platform/folderFiles';
import { pathKey } from '../platform/pathKey';
import type { FileStatus } from './porcelain';

/** What a fork carried from the folder into its new worktree. */
export interface Carried {
  /** Files copied as the folder has them (changed, added, untracked), `/`-separated. */
  copied: string[];
  /** Files the folder deleted, deleted in the worktree too. */
  deleted: string[];
  /** Changes not carried, each with why (a nested repository, a link on the way, a file gone meanwhile…). */
  skipped: { path: string; reason: string }[];
}

const depth = (rel: string) => rel.split('/').length;

function reason(e: unknown): string {
  if (e instanceof NotInFolder) return e.message;
  return (e as NodeJS.ErrnoException).code ?? String(e);
}

/**
 * Reads the folder's files for a copy, never through a link: a folder on a path that is a link
 * (a checked-out one the index no longer knows as such) is not followed out of the folder.
 */
class Source {
  private constructor(readonly root: string) {}

  static async open(root: string): Promise<Source> {
    return new Source(await fs.realpath(root));
  }

  /** The path of `rel` when every folder on its way is a folder of the root (a reason otherwise). */
  async at(rel: string): Promise<{ abs: string } | { refused: string }> {
    const parts = rel.split('/');
    if (parts.some((p) => !p || p === '.' || p === '..')) return { refused: 'outside the folder' };
    const dir = path.join(this.root, ...parts.slice(0, -1));
    const real = await fs.realpath(dir).catch(() => dir);
    // Compared as the platform compares paths: case and Unicode forms aside on Windows and macOS.
    if (pathKey(real) !== pathKey(dir))
      return { refused: 'a folder on its path in the folder is a link; it was not followed' };
    return { abs: path.join(dir, parts[parts.length - 1]!) };
  }
}

/**
 * Copies `rel` from the folder into the worktree as the folder has it: a file's bytes and
 * permissions, a link as the link it is (never followed), a folder entry by entry when `folders`
 * is set. Every write goes through {@link FolderWrites}: no folder on the way in the worktree is
 * followed if it is a link, whatever the commit checked out there holds.
 */
async function copyEntry(
  source: Source,
  target: FolderWrites,
  rel: string,
  folders: boolean,
): Promise<{ copied: string[]; skipped: Carried['skipped']; missing?: boolean }> {
  const where = await source.at(rel);
  if ('refused' in where) return { copied: [], skipped: [{ path: rel, reason: where.refused }] };
  const st = await fs.lstat(where.abs).catch(() => undefined);
  if (!st) return { copied: [], skipped: [], missing: true };
  try {
    if (st.isSymbolicLink()) {
      await target.writeLink(rel, await fs.readlink(where.abs));
      return { copied: [rel], skipped: [] };
    }
    if (st.isFile()) {
      const file = await fs.open(where.abs, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        await target.writeFile(rel, file.createReadStream({ autoClose: false }), () => st.mode & 0o777);
      } finally {
        await file.close();
      }
      return { copied: [rel], skipped: [] };
    }
    if (st.isDirectory() && folders) {
      const out = { copied: [] as string[], skipped: [] as Carried['skipped'] };
      for (const name of (await fs.readdir(where.abs)).sort()) {
        const inner = await copyEntry(source, target, `${rel}/${name}`, true);
        out.copied.push(...inner.copied);
        out.skipped.push(...inner.skipped);
      }
      return out;
    }
    const why = st.isDirectory() ? 'a nested repository' : 'neither a file nor a link';
    return { copied: [], skipped: [{ path: rel, reason: why }] };
  } catch (e) {
    // Windows refuses links without the right to make them; a locked file refuses a copy.
    return { copied: [], skipped: [{ path: rel, reason: reason(e) }] };
  }
}

/**
 * Copies the folder's uncommitted changes into a worktree just made from the same commit: each
 * changed or untracked file (never an ignored one: `git status` does not list them) is copied
 * as the folder has it on disk, each deleted one is deleted, a rename is both. The folder keeps
 * its changes; in the worktree they are unstaged. Deletions go first, deepest first, then the
 * copies, so a file can take a folder's place and the reverse. Nothing is written or deleted
 * through a link on the way, in the worktree or in the folder: such a change is skipped and
 * said (the index can hide that the commit checked out in the worktree holds a link there).
 */
export async function carryChanges(from: string, to: string, changes: readonly FileStatus[]): Promise<Carried> {
  const out: Carried = { copied: [], deleted: [], skipped: [] };
  const [source, target] = await Promise.all([Source.open(from), FolderWrites.open(to)]);
  const deletes: string[] = [];
  const copies: string[] = [];
  for (const change of changes) {
    if (change.from && change.status === 'R') deletes.push(change.from);
    if (change.status === 'D') deletes.push(change.path);
    else copies.push(change.path);
  }
  const emptied = new Set<string>();
  const remove = async (rel: string) => {
    try {
      if ((await target.remove(rel)) === 'folder') return void out.skipped.push({ path: rel, reason: 'a folder' });
      out.deleted.push(rel);
      emptied.add(path.posix.dirname(rel));
    } catch (e) {
      out.skipped.push({ path: rel, reason: reason(e) });
    }
  };
  for (const rel of deletes.sort((a, b) => depth(b) - depth(a))) await remove(rel);
  // Folders left empty in the worktree, unless the folder still has them.
  for (let dir of [...emptied].sort((a, b) => depth(b) - depth(a))) {
    while (dir !== '.') {
      if (await fs.lstat(path.join(source.root, ...dir.split('/'))).catch(() => undefined)) break;
      if (!(await target.removeEmptyFolder(dir).catch(() => false))) break;
      dir = path.posix.dirname(dir);
    }
  }
  for (const rel of copies.sort((a, b) => depth(a) - depth(b))) {
    const done = await copyEntry(source, target, rel, false);
    // Staged, then deleted on disk ("AD"): the folder has no such file, nor will the worktree.
    if (done.missing) await remove(rel);
    out.copied.push(...done.copied);
    out.skipped.push(...done.skipped);
  }
  return out;
}

/**
 * Copies the listed untracked files (relative paths inside the repository, `.env`) that the
 * worktree lacks, folders entry by entry; a path the worktree has already (a file, or a link the
 * commit holds) is left as it is, and nothing is written through a link.
 */
export async function copyListed(from: string, to: string, files: readonly string[]): Promise<string[]> {
  const [source, target] = await Promise.all([Source.open(from), FolderWrites.open(to)]);
  const copied: string[] = [];
  for (const rel of files) {
    const clean = rel.trim().split('\\').join('/').replace(/\/+$/, '');
    if (!clean || path.isAbsolute(clean) || clean.split('/').some((p) => !p || p === '.' || p === '..')) continue;
    const there = await target.lstat(clean).catch(() => 'refused' as const);
    if (there) continue;
    const done = await copyEntry(source, target, clean, true);
    if (done.copied.length > 0) copied.push(clean);
  }
  return copied;
}
