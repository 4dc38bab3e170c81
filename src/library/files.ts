/**
 * The library's files beside its database: the copies of a damaged file set aside (each holds
 * everything the damaged file held, so they go with a Clear and after a week), and the file of
 * the earlier format, removed once no window of an earlier version has it open.
 */
import { readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { systemProbe, type ProcessProbe } from './fileLock';
import { FILE_NAME, FORMER_FILE_NAME } from './schema';

/** A copy set aside is removed once this old. */
export const KEEP_DAMAGED_MS = 7 * 24 * 60 * 60_000;

const DAMAGED = new RegExp(`^${FILE_NAME.replace('.', '\\.')}\\.damaged-(\\d+)(-wal)?$`);

/** The copies of damaged files set aside in `dir`, with when each was set aside. */
export function damagedCopies(dir: string): Array<{ name: string; at: number }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const m = DAMAGED.exec(name);
    return m ? [{ name, at: Number(m[1]) }] : [];
  });
}

/** Removes every copy set aside; returns how many copies went (a copy is its file and its WAL). */
export function removeDamagedCopies(dir: string): number {
  const copies = damagedCopies(dir);
  for (const c of copies) rmSync(join(dir, c.name), { force: true });
  return new Set(copies.map((c) => c.at)).size;
}

/** Removes the copies set aside a week ago or more. */
export function removeOldCopies(dir: string, now: number, log?: (message: string) => void): void {
  const old = damagedCopies(dir).filter((c) => now - c.at >= KEEP_DAMAGED_MS);
  for (const c of old) rmSync(join(dir, c.name), { force: true });
  const n = new Set(old.map((c) => c.at)).size;
  if (n)
    log?.(`Removed ${n === 1 ? 'the copy' : `${n} copies`} of a damaged session library set aside a week ago or more.`);
}

/**
 * Removes the earlier format's file and everything beside it (journal, lock, copies set aside),
 * unless a window of an earlier version still has it open: each marks its use with
 * `<file>.open-<host>-<pid>`.
 */
export function removeFormerFile(
  dir: string,
  log?: (message: string) => void,
  probe: ProcessProbe = systemProbe,
): void {
  const mine = (n: string) =>
    n === FORMER_FILE_NAME || n.startsWith(`${FORMER_FILE_NAME}.`) || n.startsWith(`${FORMER_FILE_NAME}-`);
  const names = readdirSync(dir).filter(mine);
  if (!names.length) return;
  const host = `${encodeURIComponent(hostname())}-`;
  for (const n of names) {
    const owner = n.startsWith(`${FORMER_FILE_NAME}.open-`) ? n.slice(`${FORMER_FILE_NAME}.open-`.length) : undefined;
    if (owner === undefined) continue;
    if (!owner.startsWith(host)) return;
    const pid = Number(owner.slice(host.length));
    if (Number.isInteger(pid) && pid > 0 && probe.alive(pid)) return;
  }
  for (const n of names) rmSync(join(dir, n), { recursive: true, force: true });
  log?.('The session library of an earlier version was removed: sessions are kept again as they are opened.');
}
