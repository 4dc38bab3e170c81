import type { SessionRow } from './rows';

/** The date headings of the Sessions view, newest first, as chat histories commonly group. */
export type DateGroup = 'today' | 'yesterday' | 'week' | 'older' | 'undated';

export const DATE_GROUP_LABELS: Record<DateGroup, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  week: 'Last 7 days',
  older: 'Older',
  undated: 'No date',
};

const DAY = 24 * 60 * 60 * 1000;

/** Midnight of the local day `ms` falls in: the date headings change only when it does. */
export function startOfDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/**
 * The heading a time goes under, by calendar day in local time (a session updated at 23:59
 * yesterday is "Yesterday" at 00:01). A time ahead of the clock is "Today".
 */
export function dateGroup(ms: number | undefined, now: number): DateGroup {
  if (ms === undefined) return 'undated';
  const today = startOfDay(now);
  if (ms >= today) return 'today';
  // Rounded: a daylight-saving change makes a day 23 or 25 hours long.
  const days = Math.round((today - startOfDay(ms)) / DAY);
  if (days <= 1) return 'yesterday';
  if (days <= 7) return 'week';
  return 'older';
}

/** A run of rows under one heading. */
export interface DatedRun {
  readonly group: DateGroup;
  readonly rows: readonly SessionRow[];
}

/**
 * Rows newest first (most recently updated on top, so a session just talked in leads), cut into
 * runs under their date headings; rows without a time last, in the agent's order.
 */
export function groupByDate(sorted: readonly SessionRow[], now: number): DatedRun[] {
  const runs: { group: DateGroup; rows: SessionRow[] }[] = [];
  for (const row of sorted) {
    const group = dateGroup(row.updatedAtMs, now);
    const last = runs.at(-1);
    if (last?.group === group) last.rows.push(row);
    else runs.push({ group, rows: [row] });
  }
  return runs;
}
