import { promises as fs } from 'node:fs';

/** A lock older than this was left by a process that died while holding it. */
const STALE_MS = 15_000;
const WAIT_MS = 10_000;

/**
 * Runs `fn` while holding a lock shared by every process (two windows on one folder): a folder
 * created with `mkdir`, which exists or not atomically on every platform. A lock left by a dead
 * process is taken over once it is stale; the holder refreshes nothing, so `fn` must be short.
 */
export async function withFileLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const end = Date.now() + WAIT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
    try {
      await fs.mkdir(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const st = await fs.stat(lock).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > STALE_MS) {
        await fs.rmdir(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() > end) throw new Error(`Another window has held ${lock} for too long.`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rmdir(lock).catch(() => undefined);
  }
}
