/**
 * What Resume Session reads of its lists as a whole (an agent's sessions in a folder each):
 * paging them on together, which sessions they hold, which they lack, and why any failed.
 */
import { sessionKey } from '../../agent/sessionKey';
import { describeError } from '../../app/errorText';
import { pathKey } from '../../platform/pathKey';
import type { SessionKey } from '../../library/types';
import { matchIdPrefix, MIN_ID_PREFIX } from '../../sessions/picks';
import { stateRows } from '../../sessions/stateRows';
import { folderPath } from '../sessionsView/sessionsTree';
import type { PickList } from './pickRows';

/** Every listed session's {@link sessionKey}. */
export function listedKeys(lists: readonly PickList[]): Set<string> {
  return new Set(lists.flatMap(({ host, list }) => list.items.map((r) => sessionKey(host.config.id, r.sessionId))));
}

/** A session of a folder of this window whose agent's list, read to its end, does not have it. */
export function unlistedIn(lists: readonly PickList[], hit: SessionKey & { cwd: string }): boolean {
  const key = pathKey(hit.cwd);
  const list = lists.find(
    ({ host, folder }) => host.config.id === hit.agentId && pathKey(folderPath(folder)) === key,
  )?.list;
  return !!list && list.state === 'idle' && list.nextCursor === undefined && list.get(hit.sessionId) === undefined;
}

/** A typed id prefix that matches no row yet. */
export function prefixUnmatched(lists: readonly PickList[], typed: string): boolean {
  const q = typed.trim();
  if (q.length < MIN_ID_PREFIX) return false;
  return (
    matchIdPrefix(
      lists.flatMap(({ list }) => list.items),
      q,
    ).length === 0
  );
}

/**
 * Loads every list's first page (then `firstRows`), and pages on up to `limit` rows in all;
 * past it only while `wantsMore` (a typed id prefix that matches no row yet).
 */
export async function pageLists(
  lists: readonly PickList[],
  opts: { limit: number; stopped(): boolean; wantsMore(): boolean; firstRows(): void },
): Promise<void> {
  await Promise.all(lists.map(({ list }) => list.ensureLoaded()));
  if (!opts.stopped()) opts.firstRows();
  for (;;) {
    if (opts.stopped()) return;
    const total = lists.reduce((n, { list }) => n + list.items.length, 0);
    const next = lists.filter(({ list }) => list.nextCursor !== undefined && list.state !== 'error');
    if (next.length === 0) return;
    if (total >= opts.limit && !opts.wantsMore()) return;
    await Promise.all(next.map(({ list }) => list.loadMore()));
  }
}

/** Why lists failed, in words. */
export function listErrors(lists: readonly PickList[]): string[] {
  return lists.flatMap(({ list }) =>
    stateRows(list).flatMap((r) => (r.kind === 'error' ? [describeError(r.error)] : [])),
  );
}
