/**
 * Writing inside one of the user's folders without ever following a link out of it: a restore
 * of checkpointed files, the changes a fork carries into a new worktree. A process left running
 * by an agent can swap a folder on the way for a link to anywhere while the write runs, so a
 * check of the path followed by a write by path is not enough.
 *
 * On Linux each folder on the way is opened without following a link, relative to the folder
 * opened before it (through `/proc/self/fd`, where the kernel names the open folder), starting
 * from the root, itself checked to be where it was expected; the file is then created under a
 * new name in the open folder and renamed into place there. A swap of any folder on the way
 * after it was opened cannot redirect the write: it goes to the folder that was checked.
 * Elsewhere (macOS, Windows: Node offers no `openat`) each folder is looked at without following
 * links and its real path checked just before the write, which leaves a moment between the
 * check and the write.
 */
import { randomBytes } from 'node:crypto';
import { constants, existsSync, promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/** Whether folders can be opened and used by handle (`/proc/self/fd`): Linux. */
export const FOLDER_HANDLES = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Something on a path stops the write: a link or a file where a folder was expected, a folder moved. */
export class NotInFolder extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotInFolder';
  }
}

/** A folder opened without following links, found by the kernel where it was expected (Linux). */
export async function openFolderAt(expected: string): Promise<FileHandle | undefined> {
  const dir = await fs.open(expected, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  if ((await fs.readlink(`/proc/self/fd/${dir.fd}`)) !== expected) {
    await dir.close();
    return undefined;
  }
  return dir;
}

/** An open folder of the walk: by handle on Linux, by its checked path elsewhere. */
interface Dir {
  /** The folder's real path as expected (the root's joined with the names walked). */
  readonly real: string;
  readonly handle?: FileHandle;
}

/** Where a name in an open folder is reached: through the handle, so a swap cannot redirect it. */
function at(dir: Dir, name: string): string {
  return dir.handle ? `/proc/self/fd/${dir.handle.fd}/${name}` : path.join(dir.real, name);
}

/** Writes all of `chunk` at the file's position (a write may take less than it is given). */
async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let done = 0; done < chunk.length;) done += (await file.write(chunk, done)).bytesWritten;
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Writes inside one root folder, by paths relative to it (`/`-separated). Every call walks the
 * path from the root again; nothing is cached between calls, so what is checked is what is
 * there at that moment.
 */
export class FolderWrites {
  private constructor(
    /** The root's real path. */
    readonly root: string,
  ) {}

  /** Opens `root` for writes inside it; its real path is taken once, here. */
  static async open(root: string): Promise<FolderWrites> {
    const real = await fs.realpath(root);
    if (!(await fs.stat(real)).isDirectory()) throw new NotInFolder(`${root} is not a folder`);
    return new FolderWrites(real);
  }

  private async openRoot(): Promise<Dir> {
    if (!FOLDER_HANDLES) return { real: this.root };
    const handle = await openFolderAt(this.root).catch(() => undefined);
    if (!handle) throw new NotInFolder(`${this.root} was moved or replaced by a link`);
    return { real: this.root, handle };
  }

  /**
   * Opens the folder that holds `rel`'s last name, walking from the root without following a
   * link; creates the missing folders when `make` is set (else undefined: nothing lies beyond).
   * Throws {@link NotInFolder} naming what stands on the way.
   */
  private async parentOf(rel: string, make: boolean): Promise<{ dir: Dir; name: string } | undefined> {
    const parts = rel.split('/');
    const name = parts.pop()!;
    if (!name || parts.some((p) => !p || p === '.' || p === '..') || name === '.' || name === '..')
      throw new NotInFolder(`${rel} is not a path inside the folder`);
    let dir = await this.openRoot();
    try {
      for (const p of parts) {
        const next = await this.child(dir, p, make);
        await dir.handle?.close();
        if (!next) return undefined;
        dir = next;
      }
      if (!FOLDER_HANDLES && (await fs.realpath(dir.real)) !== dir.real)
        throw new NotInFolder(`a folder of ${rel} was replaced by a link; it was not followed`);
      return { dir, name };
    } catch (e) {
      await dir.handle?.close().catch(() => undefined);
      throw e;
    }
  }

  private async child(dir: Dir, name: string, make: boolean): Promise<Dir | undefined> {
    const real = path.join(dir.real, name);
    const st = await fs.lstat(at(dir, name)).catch(() => undefined);
    if (!st) {
      if (!make) return undefined;
      await fs.mkdir(at(dir, name)).catch((e: unknown) => {
        if (code(e) !== 'EEXIST') throw e;
      });
    } else if (st.isSymbolicLink()) {
      throw new NotInFolder(`${name} on its path is a link; it was not followed`);
    } else if (!st.isDirectory()) {
      throw new NotInFolder(`${name} on its path is a file now`);
    }
    if (!FOLDER_HANDLES) return { real };
    try {
      const handle = await fs.open(at(dir, name), constants.O_RDONLY | DIRECTORY | NOFOLLOW);
      return { real, handle };
    } catch (e) {
      // Swapped for a link or a file between the look and the open.
      if (code(e) === 'ELOOP' || code(e) === 'ENOTDIR')
        throw new NotInFolder(`${name} on its path was replaced; it was not followed`);
      throw e;
    }
  }

  private async within<T>(
    rel: string,
    make: boolean,
    fn: (dir: Dir, name: string) => Promise<T>,
  ): Promise<T | undefined> {
    const found = await this.parentOf(rel, make);
    if (!found) return undefined;
    try {
      return await fn(found.dir, found.name);
    } finally {
      await found.dir.handle?.close().catch(() => undefined);
    }
  }

  /** What `rel` is now, never through a link (undefined: it does not exist, or a folder on its way does not). */
  lstat(rel: string): Promise<Stats | undefined> {
    return this.within(rel, false, (dir, name) => fs.lstat(at(dir, name)).catch(() => undefined));
  }

  /**
   * Writes `bytes` as the file `rel`: under a new name in its folder, then renamed into place
   * (a reader never sees half of it; a read-only file or a link at its name is replaced, never
   * written through). Missing folders are created. `mode` gets what is there now. The bytes may
   * come in chunks (a file copied as it is read).
   */
  async writeFile(
    rel: string,
    bytes: Uint8Array | AsyncIterable<Uint8Array>,
    mode: (existing: Stats | undefined) => number,
  ): Promise<void> {
    await this.within(rel, true, async (dir, name) => {
      const existing = await fs.lstat(at(dir, name)).catch(() => undefined);
      if (existing?.isDirectory()) throw new NotInFolder('a folder is in its place now; left as it is');
      const tmp = `.${name}.acp-${randomBytes(4).toString('hex')}`;
      try {
        const wanted = mode(existing);
        const file = await fs.open(at(dir, tmp), CREATE_NEW, wanted);
        try {
          if (bytes instanceof Uint8Array) await file.writeFile(bytes);
          else for await (const chunk of bytes) await writeAll(file, chunk);
          await file.chmod(wanted);
        } finally {
          await file.close();
        }
        await fs.rename(at(dir, tmp), at(dir, name));
      } catch (e) {
        await fs.rm(at(dir, tmp), { force: true }).catch(() => undefined);
        throw e;
      }
    });
  }

  /** Makes `rel` the link `target` (what it points to is never read or written), replacing what is there. */
  async writeLink(rel: string, target: string): Promise<void> {
    await this.within(rel, true, async (dir, name) => {
      const existing = await fs.lstat(at(dir, name)).catch(() => undefined);
      if (existing?.isDirectory()) throw new NotInFolder('a folder is in its place now; left as it is');
      const tmp = `.${name}.acp-${randomBytes(4).toString('hex')}`;
      try {
        await fs.symlink(target, at(dir, tmp));
        await fs.rename(at(dir, tmp), at(dir, name));
      } catch (e) {
        await fs.rm(at(dir, tmp), { force: true }).catch(() => undefined);
        throw e;
      }
    });
  }

  /** Removes the file or link `rel`: `missing` when nothing is there, `folder` when a folder is (left as it is). */
  async remove(rel: string): Promise<'removed' | 'missing' | 'folder'> {
    const done = await this.within(rel, false, async (dir, name) => {
      const st = await fs.lstat(at(dir, name)).catch(() => undefined);
      if (!st) return 'missing' as const;
      if (st.isDirectory()) return 'folder' as const;
      await fs.unlink(at(dir, name));
      return 'removed' as const;
    });
    return done ?? 'missing';
  }

  /** Removes the folder `rel` when it is empty; false when it is not (or is not there). */
  async removeEmptyFolder(rel: string): Promise<boolean> {
    const done = await this.within(rel, false, async (dir, name) => {
      const st = await fs.lstat(at(dir, name)).catch(() => undefined);
      if (!st?.isDirectory()) return false;
      return fs.rmdir(at(dir, name)).then(
        () => true,
        () => false,
      );
    });
    return done ?? false;
  }
}
