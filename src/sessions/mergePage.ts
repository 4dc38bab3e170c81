import type { ListedSession } from '../agent/types';
import { toRow, type SessionRow } from './rows';

/** What a fresh first page changed in the rows shown. */
export interface PageMerge {
  /** The rows: new sessions on top in the agent's order, then every row shown before, in place. */
  readonly rows: readonly SessionRow[];
  /** How many new rows are on top. */
  readonly added: number;
  /** Ids of rows already shown whose data changed (their place did not). */
  readonly changed: readonly string[];
}

/**
 * Folds a re-read first page into the rows already shown, as a list that stays fresh must:
 * sessions not shown yet go on top, sessions shown already change in place (title, time,
 * `_meta`), and no row leaves (a row missing from the fresh page may simply have moved past
 * it; the user's Refresh starts the list over). `undefined` when nothing changed, so no event
 * fires and no view redraws. `fresh` must hold only this folder's sessions.
 */
export function mergeFirstPage(current: readonly SessionRow[], fresh: readonly ListedSession[]): PageMerge | undefined {
  const byId = new Map<string, number>();
  current.forEach((row, i) => byId.set(row.sessionId, i));
  const top: SessionRow[] = [];
  const topIds = new Set<string>();
  const replaced = new Map<number, SessionRow>();
  for (const info of fresh) {
    const at = byId.get(info.sessionId);
    if (at === undefined) {
      if (topIds.has(info.sessionId)) continue;
      topIds.add(info.sessionId);
      top.push(toRow(info));
    } else if (!replaced.has(at) && differs(current[at]!, info)) {
      replaced.set(at, toRow(info));
    }
  }
  if (top.length === 0 && replaced.size === 0) return undefined;
  const rows = top.concat(current.map((row, i) => replaced.get(i) ?? row));
  return { rows, added: top.length, changed: [...replaced.values()].map((r) => r.sessionId) };
}

function differs(row: SessionRow, info: ListedSession): boolean {
  return (
    (row.title ?? null) !== (info.title ?? null) ||
    (row.updatedAt ?? null) !== (info.updatedAt ?? null) ||
    row.archived !== info.archived ||
    row.forkedFrom !== info.forkedFrom ||
    !sameJson(row.aliases, info.aliases) ||
    !sameJson(row.additionalDirectories, info.additionalDirectories) ||
    !sameJson(row._meta, info._meta)
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}
