import { hideReason, type HideRules } from './hide';
import type { SessionRow } from './rows';

/** What a view asks of a list's rows before showing them. */
export interface RowFilter {
  readonly rules: HideRules;
  /** Show the rows the rules hide (the "N hidden — Show" row, Resume Session's toggle). */
  readonly showHidden: boolean;
  /** Archived on this side (the agent cannot archive): left out. */
  isArchived(sessionId: string): boolean;
  /** Never hidden by the rules: named by the user, created in this window, or open in a chat. */
  keep(sessionId: string): boolean;
}

export interface VisibleRows {
  /** The rows to show, in the list's order. */
  readonly rows: readonly SessionRow[];
  /** How many rows the rules hide (shown or not, as `showHidden` says). */
  readonly hidden: number;
}

/**
 * The rows a view shows of a list: archived sessions never (an agent's own archive leaves
 * them out of the list already; ones it reports archived anyway, and ones archived on this
 * side, go here), rows the hide rules match only when asked. One pass over the rows.
 */
export function visibleRows(items: readonly SessionRow[], filter: RowFilter): VisibleRows {
  // A missing title says "nobody wrote here" only of an agent that titles its sessions.
  const agentTitles = items.some((r) => !r.untitled);
  const rows: SessionRow[] = [];
  let hidden = 0;
  const folded = aliasesOf(items);
  for (const row of items) {
    if (row.archived === true || filter.isArchived(row.sessionId)) continue;
    // Another row is the same conversation under its present id: it is listed once, there.
    if (folded?.has(row.sessionId)) continue;
    const reason = hideReason(row, filter.rules, { keep: filter.keep(row.sessionId), agentTitles });
    if (reason !== undefined) {
      hidden++;
      if (!filter.showHidden) continue;
    }
    rows.push(row);
  }
  return { rows, hidden };
}

/** The ids other rows name as their aliases (none, mostly: then nothing is built). */
function aliasesOf(items: readonly SessionRow[]): Set<string> | undefined {
  let out: Set<string> | undefined;
  for (const row of items) {
    if (!row.aliases) continue;
    out ??= new Set();
    for (const id of row.aliases) out.add(id);
  }
  return out;
}
