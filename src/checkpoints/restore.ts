import { randomBytes } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { readBlobs } from './blobs';
import type { ShadowRepo } from './shadowRepo';
import type { FileChange, FileSide } from './treeDiff';

/** One file a restore changes: written back as it was, or deleted because it did not exist then. */
export interface RestoreStep {
  path: string;
  action: 'write' | 'delete';
  /** What is written (for `write`). */
  to?: FileSide;
}

/** A file a restore did not change, and why; nothing of it was lost. */
export interface RestoreSkip {
  path: string;
  reason: string;
}

export interface RestoreOutcome {
  written: string[];
  deleted: string[];
  /** Left as they are on purpose: changing them would lose what no checkpoint holds. */
  kept: RestoreSkip[];
  /** Could not be changed (permissions, a folder in the way…); the undo checkpoint holds them. */
  failed: RestoreSkip[];
}

const GITLINK = '160000';
const LINK = '120000';
const EXECUTABLE = '100755';

/**
 * What restoring `changes` does: each file that differs from the checkpoint is written back, or
 * deleted when the checkpoint has none. `changes` runs from the present (`before`) to the
 * checkpoint (`after`). A nested repository's commit link is never a file to write.
 */
export function restoreSteps(changes: readonly FileChange[]): RestoreStep[] {
  const steps: RestoreStep[] = [];
  for (const c of changes) {
    if (c.after) {
      if (c.after.mode !== GITLINK) steps.push({ path: c.path, action: 'write', to: c.after });
    } else if (c.before && c.before.mode !== GITLINK) {
      steps.push({ path: c.path, action: 'delete' });
    }
  }
  return steps;
}

function errorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EBUSY':
      return 'the file is in use';
    default:
      return err.message ?? String(e);
  }
}

/**
 * Applies the steps to the folder. `captured` holds the paths the checkpoint taken just before
 * holds: a path about to be overwritten that it does not hold (ignored, too large, unreadable)
 * is kept as it is. Deletions go first, deepest first, so a folder can take a file's place and
 * the reverse. No link is ever followed: a folder on the way that is a link stops that file.
 * Each file is written beside itself and renamed into place, so a reader never sees half of it
 * and a read-only file is replaced rather than refused.
 */
export async function applyRestore(
  repo: ShadowRepo,
  steps: readonly RestoreStep[],
  captured: ReadonlySet<string>,
): Promise<RestoreOutcome> {
  const root = repo.folder;
  const outcome: RestoreOutcome = { written: [], deleted: [], kept: [], failed: [] };
  const abs = (rel: string) => path.join(root, ...rel.split('/'));
  const emptied = new Set<string>();

  const deletes = steps.filter((s) => s.action === 'delete').sort((a, b) => depth(b.path) - depth(a.path));
  for (const s of deletes) {
    try {
      const blocked = await parents(root, s.path, false);
      if (blocked) {
        outcome.failed.push({ path: s.path, reason: blocked });
        continue;
      }
      const st = await fs.lstat(abs(s.path)).catch(() => undefined);
      if (!st) {
        outcome.deleted.push(s.path);
        continue;
      }
      if (st.isDirectory()) {
        outcome.failed.push({ path: s.path, reason: 'it became a folder since; left as it is' });
        continue;
      }
      await fs.unlink(abs(s.path));
      outcome.deleted.push(s.path);
      emptied.add(path.posix.dirname(s.path));
    } catch (e) {
      outcome.failed.push({ path: s.path, reason: errorText(e) });
    }
  }
  await removeEmptied(root, emptied);

  const writes = steps.filter((s) => s.action === 'write' && s.to).sort((a, b) => depth(a.path) - depth(b.path));
  const byBlob = new Map<string, RestoreStep[]>();
  for (const s of writes) byBlob.set(s.to!.blob, [...(byBlob.get(s.to!.blob) ?? []), s]);
  const umask = process.umask();
  await readBlobs(repo.runner, [...byBlob.keys()], async (blob, bytes) => {
    for (const s of byBlob.get(blob) ?? []) {
      const reason = await writeOne(root, s, bytes, captured.has(s.path), umask);
      if (reason === undefined) outcome.written.push(s.path);
      else if (reason.kept) outcome.kept.push({ path: s.path, reason: reason.text });
      else outcome.failed.push({ path: s.path, reason: reason.text });
    }
    byBlob.delete(blob);
  });
  for (const missing of byBlob.values()) {
    for (const s of missing) outcome.failed.push({ path: s.path, reason: 'its content is no longer kept' });
  }
  return outcome;
}

function depth(rel: string): number {
  return rel.split('/').length;
}

/**
 * Checks the folders leading to `rel`, never through a link, and creates the missing ones when
 * `make` is set (else a missing one ends the walk: nothing lies beyond it). A reason when a
 * link or a file stands on the way.
 */
async function parents(root: string, rel: string, make: boolean): Promise<string | undefined> {
  const parts = rel.split('/');
  parts.pop();
  let at = root;
  for (const p of parts) {
    at = path.join(at, p);
    const st = await fs.lstat(at).catch(() => undefined);
    if (!st) {
      if (!make) return undefined;
      await fs.mkdir(at);
      continue;
    }
    if (st.isSymbolicLink()) return `${p} on its path is a link; it was not followed`;
    if (!st.isDirectory()) return `${p} on its path is a file now`;
  }
  return undefined;
}

/** Folders left empty by the deletions, up to (not including) the root, are removed. */
async function removeEmptied(root: string, dirs: Set<string>): Promise<void> {
  const sorted = [...dirs].sort((a, b) => depth(b) - depth(a));
  const tried = new Set<string>();
  for (let d of sorted) {
    while (d !== '.' && d !== '' && !tried.has(d)) {
      tried.add(d);
      try {
        await fs.rmdir(path.join(root, ...d.split('/')));
      } catch {
        break;
      }
      d = path.posix.dirname(d);
    }
  }
}

function modeFor(side: FileSide, existing: Stats | undefined, umask: number): number {
  const exec = side.mode === EXECUTABLE;
  if (existing?.isFile()) {
    // Checkpoints keep only the executable bit: other permissions stay as the file has them.
    const bits = existing.mode & 0o777;
    const readable = bits & 0o444;
    return exec ? bits | (readable >> 2) : bits & ~0o111;
  }
  return (exec ? 0o777 : 0o666) & ~umask;
}

async function writeOne(
  root: string,
  step: RestoreStep,
  bytes: Buffer,
  wasCaptured: boolean,
  umask: number,
): Promise<{ kept: boolean; text: string } | undefined> {
  const target = path.join(root, ...step.path.split('/'));
  try {
    const blocked = await parents(root, step.path, true);
    if (blocked) return { kept: false, text: blocked };
    const existing = await fs.lstat(target).catch(() => undefined);
    if (existing?.isDirectory()) return { kept: false, text: 'a folder is in its place now; left as it is' };
    if (existing && !wasCaptured) {
      return {
        kept: true,
        text: 'it exists now but is not in the checkpoint taken before restoring (ignored, too large or unreadable): left as it is so nothing is lost',
      };
    }
    const tmp = path.join(
      path.dirname(target),
      `.${path.basename(target)}.acp-restore-${randomBytes(4).toString('hex')}`,
    );
    try {
      if (step.to!.mode === LINK) {
        // A link is restored as the link it was; what it points to is never read or written.
        await fs.symlink(bytes.toString('utf8'), tmp);
      } else {
        await fs.writeFile(tmp, bytes, { mode: modeFor(step.to!, existing, umask), flag: 'wx' });
        if (existing?.isFile()) await fs.chmod(tmp, modeFor(step.to!, existing, umask));
      }
      await fs.rename(tmp, target);
    } catch (e) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
    return undefined;
  } catch (e) {
    return { kept: false, text: errorText(e) };
  }
}
