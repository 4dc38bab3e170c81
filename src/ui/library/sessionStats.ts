/**
 * What the library keeps of a session's use, in the Sessions view's tooltips: a row's tokens,
 * cost and active time, and its folder's totals for today and this week. Read on hover, from
 * the library only (nothing is asked of an agent); without the library, nothing is added.
 */
import type { LibraryService } from '../../library/service';
import { dayOf, money, statsLine, totals, weekDays, type Totals } from '../../library/stats';
import { duration } from '../../protocol/duration';

/** The tooltip's line on a session's use, or undefined when the library keeps none. */
export async function sessionStatsNote(
  library: LibraryService,
  agentId: string,
  sessionId: string,
): Promise<string | undefined> {
  const kept = await library.get()?.session({ agentId, sessionId });
  return statsLine(kept?.stats);
}

function totalWords(t: Totals): string {
  const parts = [`${duration(t.activeMs)} active`];
  if (t.cost > 0) parts.push(t.currency === '' ? 'costs in several currencies' : money(t.cost, t.currency));
  return `${parts.join(', ')} in ${t.sessions} ${t.sessions === 1 ? 'session' : 'sessions'}`;
}

/** "Today: 1 h 5 min active, USD 1.20 in 3 sessions · This week: …" for a folder, or undefined. */
export async function folderStatsNote(
  library: LibraryService,
  cwd: string,
  now = Date.now(),
): Promise<string | undefined> {
  const kept = await library.get()?.sessions({ cwd });
  if (!kept?.length) return undefined;
  const stats = kept.map((k) => k.stats);
  const today = totals(stats, [dayOf(now)]);
  const week = totals(stats, weekDays(now));
  if (week.sessions === 0) return undefined;
  return `Today: ${today.sessions ? totalWords(today) : 'nothing'} · This week: ${totalWords(week)}`;
}
