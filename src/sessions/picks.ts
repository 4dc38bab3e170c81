import type { SessionRow } from './rows';

/**
 * Rows newest first by `updatedAt` (the QuickPick, and the tree under its date headings); rows without a time come last, in the
 * agent's order (the sort is stable).
 */
export function sortByUpdatedAt(rows: readonly SessionRow[]): SessionRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const ta = a.row.updatedAtMs;
      const tb = b.row.updatedAtMs;
      if (ta === undefined || tb === undefined) {
        if (ta !== tb) return ta === undefined ? 1 : -1;
        return a.index - b.index;
      }
      return tb - ta || a.index - b.index;
    })
    .map((x) => x.row);
}

/** Shortest query taken as an id prefix: shorter ones match too much by chance. */
export const MIN_ID_PREFIX = 6;
// Session ids are opaque, but in practice UUIDs or `sess_…` tokens: no spaces, few symbols.
const ID_LIKE = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/**
 * Rows whose id starts with the query (case-insensitive), for a pasted or typed id. Queries
 * shorter than {@link MIN_ID_PREFIX} or that do not look like an id match nothing.
 */
export function matchIdPrefix<T extends { readonly sessionId: string }>(rows: readonly T[], query: string): T[] {
  const q = query.trim();
  if (q.length < MIN_ID_PREFIX || !ID_LIKE.test(q)) return [];
  const lower = q.toLowerCase();
  return rows.filter((r) => r.sessionId.toLowerCase().startsWith(lower));
}

/**
 * The session "Continue Last Session" opens: the one last opened in this window when it is
 * still among the rows (or `isKnown` vouches for it, e.g. its panel is open), else the most
 * recent by `updatedAt`, else — no row has a time — the first row in the agents' order (they
 * list newest first in practice, and the user asked to continue, not to start afresh), else none.
 */
export function pickLastSession(
  lastOpenedId: string | undefined,
  rows: readonly SessionRow[],
  isKnown?: (sessionId: string) => boolean,
): string | undefined {
  if (lastOpenedId !== undefined) {
    if (rows.some((r) => r.sessionId === lastOpenedId) || isKnown?.(lastOpenedId)) return lastOpenedId;
  }
  let best: SessionRow | undefined;
  for (const row of rows) {
    if (row.updatedAtMs !== undefined && (best === undefined || row.updatedAtMs > best.updatedAtMs!)) best = row;
  }
  return (best ?? rows[0])?.sessionId;
}
