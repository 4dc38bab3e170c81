import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathKey } from '../platform/pathKey';

/** How long a pending open waits for the window of its folder. */
export const PENDING_OPEN_MS = 2 * 60_000;

/**
 * A session to open in the window that opens its folder: kept by the window where the user
 * picked it (a folder that window does not have), taken by the new window's activation.
 */
export interface PendingOpen {
  agentId: string;
  sessionId: string;
  cwd: string;
  title?: string;
  /** The message to scroll to, and the words to highlight in it. */
  index?: number;
  words: string[];
  /** When it was kept (ms since the epoch). */
  at: number;
}

/** Whether `cwd` is one of `folders`, as the platform compares paths (case, separators, a trailing one). */
export function folderOf(
  cwd: string,
  folders: readonly string[],
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const key = pathKey(cwd, platform);
  return folders.find((f) => pathKey(f, platform) === key);
}

/** Reads a kept file's text, dropping anything malformed. */
export function readPendingOpen(text: string): PendingOpen | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const o = raw as Record<string, unknown>;
  const strings = ['agentId', 'sessionId', 'cwd'] as const;
  if (!strings.every((k) => typeof o[k] === 'string' && o[k] !== '') || typeof o.at !== 'number') return undefined;
  const index = typeof o.index === 'number' && Number.isInteger(o.index) && o.index >= 0 ? o.index : undefined;
  const words = Array.isArray(o.words) ? o.words.filter((w): w is string => typeof w === 'string').slice(0, 32) : [];
  return {
    agentId: o.agentId as string,
    sessionId: o.sessionId as string,
    cwd: o.cwd as string,
    ...(typeof o.title === 'string' ? { title: o.title } : {}),
    ...(index !== undefined ? { index } : {}),
    words,
    at: o.at,
  };
}

/**
 * Pending opens, one file each in a folder every window of the profile shares. A window takes
 * one by renaming its file, which only one window can do: two windows of the same folder
 * starting at once open the session once.
 */
export class PendingOpens {
  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  /** Keeps `open` for the window of its folder (written whole before it can be seen). */
  async keep(open: Omit<PendingOpen, 'at'>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const name = randomUUID();
    const text = JSON.stringify({ ...open, at: this.now() });
    await writeFile(join(this.dir, `${name}.tmp`), text);
    await rename(join(this.dir, `${name}.tmp`), join(this.dir, `${name}.json`));
  }

  /**
   * Takes the pending open, newest first, of a session in one of `folders`, if any; drops
   * those that waited too long. Undefined when there is none (or another window took it).
   */
  async take(folders: readonly string[]): Promise<PendingOpen | undefined> {
    const names = await readdir(this.dir).catch((): string[] => []);
    const found: { file: string; open: PendingOpen }[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const file = join(this.dir, name);
      const open = readPendingOpen(await readFile(file, 'utf8').catch(() => ''));
      const age = open ? this.now() - open.at : Infinity;
      if (!(age >= 0 && age <= PENDING_OPEN_MS)) {
        await rm(file, { force: true });
        continue;
      }
      if (folderOf(open!.cwd, folders, this.platform)) found.push({ file, open: open! });
    }
    found.sort((a, b) => b.open.at - a.open.at);
    for (const { file, open } of found) {
      const taken = `${file}.${randomUUID()}.taken`;
      // Another window renamed it first: that window opens it.
      if (
        !(await rename(file, taken).then(
          () => true,
          () => false,
        ))
      )
        continue;
      await rm(taken, { force: true });
      return open;
    }
    return undefined;
  }
}
