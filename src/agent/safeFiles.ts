/**
 * Opening a file the roots check allowed, so that what is read or written is what was checked.
 * Between the check and the open, an agent that can write inside a root can swap a folder of the
 * path for a symbolic link to anywhere. So the last name is opened without following a link, the
 * file must be a regular file with one link (a hard link inside a root to a file outside would
 * pass any path check), and the open file is compared with what the path names after the open.
 *
 * On Linux the folder is opened first and checked through `/proc/self/fd` (where the kernel says
 * the open folder is), and the file is opened and created relative to that open folder: no swap
 * of a folder can redirect it, and nothing is created outside the roots. Elsewhere the open
 * happens by path and is checked after it.
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { FOLDER_HANDLES, openFolderAt } from '../platform/folderFiles';
import { ErrorCodes } from './errors';
import type { Located } from './roots';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
// A FIFO or device must not hold an open: it is refused once it is seen not to be a file.
const NONBLOCK = constants.O_NONBLOCK ?? 0;

const changed = (shown: string) =>
  new RequestError(ErrorCodes.InvalidParams, `"${shown}" changed while it was being opened; refused.`);

/** Opens a file the roots check located (it exists), for reading. */
export async function openToRead(loc: Located, shown: string): Promise<FileHandle> {
  return openChecked(loc.real, constants.O_RDONLY | NONBLOCK, shown);
}

/**
 * Opens a file for writing, creating it and any missing folders inside the root; the file is not
 * truncated until it is known to be the one checked (the caller truncates).
 */
export async function openToWrite(loc: Located, shown: string): Promise<FileHandle> {
  if (loc.rest.length === 0) return openChecked(loc.real, constants.O_WRONLY | NONBLOCK, shown);
  if (!FOLDER_HANDLES) {
    let dir = loc.base;
    for (const name of loc.rest.slice(0, -1)) {
      dir = join(dir, name);
      await fs.mkdir(dir).catch(existsAlready);
      if ((await fs.realpath(dir)) !== dir) throw changed(shown);
    }
    return openChecked(loc.real, constants.O_WRONLY | constants.O_CREAT | NONBLOCK, shown);
  }
  let dir = await openFolder(loc.base, shown);
  try {
    for (const name of loc.rest.slice(0, -1)) {
      await fs.mkdir(`/proc/self/fd/${dir.fd}/${name}`).catch(existsAlready);
      const next = await fs.open(`/proc/self/fd/${dir.fd}/${name}`, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
      await dir.close();
      dir = next;
    }
    const file = await fs.open(
      `/proc/self/fd/${dir.fd}/${loc.rest.at(-1)!}`,
      constants.O_WRONLY | constants.O_CREAT | NOFOLLOW | NONBLOCK,
    );
    return await checkedFile(file, shown);
  } catch (e) {
    // The folders were there when checked: one gone now (removed under the open folder) is a swap.
    throw (e as NodeJS.ErrnoException).code === 'ENOENT' ? changed(shown) : refusal(e, shown);
  } finally {
    await dir.close().catch(() => undefined);
  }
}

/** Opens an existing file by the name it has in its folder, without following a link. */
async function openChecked(real: string, flags: number, shown: string): Promise<FileHandle> {
  try {
    if (FOLDER_HANDLES) {
      const dir = await openFolder(dirname(real), shown);
      try {
        return await checkedFile(await fs.open(`/proc/self/fd/${dir.fd}/${basename(real)}`, flags | NOFOLLOW), shown);
      } finally {
        await dir.close().catch(() => undefined);
      }
    }
    return await openByPath(real, flags, shown);
  } catch (e) {
    throw refusal(e, shown);
  }
}

/**
 * Opened by path (where `/proc/self/fd` is missing: macOS, Windows), then checked: what the path
 * names now must be the file opened, by its real path and identity. A file that fails any check
 * is closed before the refusal: an open handle keeps it locked on Windows. `afterOpen` lets tests
 * change the file between the open and the check.
 */
export async function openByPath(
  real: string,
  flags: number,
  shown: string,
  afterOpen?: (file: FileHandle) => Promise<void>,
): Promise<FileHandle> {
  const file = await checkedFile(await fs.open(real, flags | NOFOLLOW), shown);
  try {
    await afterOpen?.(file);
    const [opened, now, where] = await Promise.all([file.stat(), fs.lstat(real), fs.realpath(real)]);
    if (where !== real || now.dev !== opened.dev || now.ino !== opened.ino) throw changed(shown);
    return file;
  } catch (e) {
    await file.close().catch(() => undefined);
    // Gone between the open and the check: it was swapped, as far as the agent can tell.
    throw (e as NodeJS.ErrnoException).code === 'ENOENT' ? changed(shown) : e;
  }
}

/** A folder opened and found, by the kernel's account of the open folder, where it was expected. */
async function openFolder(expected: string, shown: string): Promise<FileHandle> {
  const dir = await openFolderAt(expected);
  if (!dir) throw changed(shown);
  return dir;
}

/** Only a regular file with one link is read or written. */
async function checkedFile(file: FileHandle, shown: string): Promise<FileHandle> {
  const stat = await file.stat().catch(async (e: unknown) => {
    await file.close().catch(() => undefined);
    throw e;
  });
  let problem: string | undefined;
  if (!stat.isFile()) problem = `"${shown}" is not a regular file.`;
  else if (stat.nlink > 1) problem = `"${shown}" has more than one link (a hard link); it is refused.`;
  if (problem === undefined) return file;
  await file.close();
  throw new RequestError(ErrorCodes.InvalidParams, problem);
}

function existsAlready(e: NodeJS.ErrnoException): void {
  if (e.code !== 'EEXIST') throw e;
}

/** A system error in words the agent can act on, naming the path only as the agent gave it. */
function refusal(e: unknown, shown: string): unknown {
  if (e instanceof RequestError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  // A link where a file or folder was checked: it was swapped in after the check.
  if (code === 'ELOOP' || code === 'ENOTDIR') return changed(shown);
  if (code === 'EISDIR' || code === 'ENXIO')
    return new RequestError(ErrorCodes.InvalidParams, `"${shown}" is not a regular file.`);
  if (code === 'ENOENT')
    return new RequestError(ErrorCodes.ResourceNotFound, `The file "${shown}" does not exist.`, { uri: shown });
  if (code === 'EACCES' || code === 'EPERM')
    return new RequestError(ErrorCodes.InvalidParams, `"${shown}" cannot be opened: permission denied.`);
  return new RequestError(ErrorCodes.InternalError, `"${shown}" cannot be opened (${code ?? 'error'}).`);
}
