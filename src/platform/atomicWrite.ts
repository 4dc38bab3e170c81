/**
 * The one atomic write, for the extension's own files (stores, journals, markers): the bytes go
 * to a temporary file beside the target, created new (never opened through a link left at its
 * name), then renamed into place, so a reader sees the old file or the new one whole, and a
 * link at the target's name is replaced, not followed. A failed write leaves no temporary file.
 * Writes inside the user's folders go through `FolderWrites` instead, which also checks every
 * folder on the way.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, promises as fs, renameSync, rmSync, writeSync } from 'node:fs';
import * as path from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's permission bits (0o666 less the umask by default). */
  mode?: number;
  /** Flushed to the disk before the rename: a power cut then leaves the old or the new file whole. */
  durable?: boolean;
  /** The temporary file's name in the target's folder (git's `tmp_obj_…` for objects); a random one by default. */
  tempName?: string;
}

/** Created new, never through a link: O_EXCL fails on any name that exists, a link included. */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
/** Windows refuses a rename onto a file another process has open for a moment: tried again so long. */
const RENAME_TRIES = 20;
const BUSY = new Set(['EPERM', 'EACCES', 'EBUSY']);

function tempOf(file: string, options: AtomicWriteOptions): string {
  return path.join(
    path.dirname(file),
    options.tempName ?? `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
}

/** Writes `data` to `file` atomically (see the module's comment). */
export async function writeAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const tmp = tempOf(file, options);
  try {
    const handle = await fs.open(tmp, CREATE_NEW, options.mode ?? 0o666);
    try {
      await handle.writeFile(data);
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.rename(tmp, file);
        return;
      } catch (e) {
        if (process.platform !== 'win32' || attempt >= RENAME_TRIES || !BUSY.has(code(e))) throw e;
        await new Promise((r) => setTimeout(r, 10 * (attempt + 1)));
      }
    }
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** {@link writeAtomic} for callers that must not yield (a settings store read back at once). */
export function writeAtomicSync(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const tmp = tempOf(file, options);
  try {
    const fd = openSync(tmp, CREATE_NEW, options.mode ?? 0o666);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      if (options.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    for (let attempt = 0; ; attempt++) {
      try {
        renameSync(tmp, file);
        return;
      } catch (e) {
        if (process.platform !== 'win32' || attempt >= RENAME_TRIES || !BUSY.has(code(e))) throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 * (attempt + 1));
      }
    }
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException | undefined)?.code ?? '';
}
