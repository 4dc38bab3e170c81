/**
 * The library's files beside its database: the file of the earlier format, removed once no
 * window of an earlier version has it open.
 */
import { readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { systemProbe, type ProcessProbe } from './fileLock';
import { FORMER_FILE_NAME } from './schema';

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
