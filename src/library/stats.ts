import { duration } from '../protocol/duration';
/**
 * What a session used and cost, and how long its turns ran: the agent's last `usage_update`
 * (tokens in the context window, its size, the cumulative cost) and the time its turns took in
 * this client, with what each day added, kept in the library beside the session. Pure: the
 * store reads and writes it as one JSON column.
 */

/** A cost as the agent reports it (ACP's `Cost`): a cumulative amount in one currency. */
export interface Cost {
  amount: number;
  currency: string;
}

/** What one day added to a session: the time its turns ran and what it cost. */
export interface DayStats {
  activeMs: number;
  /** In the session's currency (that of its last cost). */
  cost?: number;
}

export interface SessionStats {
  /** Tokens in the context window and its size, as the agent last reported them. */
  used?: number;
  size?: number;
  /** The session's cost so far, as the agent last reported it. */
  cost?: Cost;
  /** Milliseconds the session's turns ran in this client, in total. */
  activeMs?: number;
  /** What each local day (YYYY-MM-DD) added; only the last `MAX_DAYS` are kept. */
  days?: Record<string, DayStats>;
}

/** What a write adds: the last usage report, and what was added since the last write. */
export interface StatsChange {
  usage?: { used: number; size: number; cost?: Cost };
  /** Time turns ran since the last write. */
  activeMs?: number;
  /** Cost that turns added since the last write (in the usage's currency). */
  cost?: number;
}

/** Days kept per session: enough for "this week" and a month's look back. */
export const MAX_DAYS = 40;

/** A kept column as read back: anything malformed is read as nothing (never a thrown error). */
export function parseStats(json: string | undefined): SessionStats | undefined {
  if (!json) return undefined;
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? sane(v as SessionStats) : undefined;
  } catch {
    return undefined;
  }
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** Only numbers that can be shown, a currency of a few letters. */
function sane(s: SessionStats): SessionStats {
  const out: SessionStats = {};
  if (finite(s.used)) out.used = s.used;
  if (finite(s.size)) out.size = s.size;
  if (s.cost && finite(s.cost.amount) && typeof s.cost.currency === 'string' && s.cost.currency.length <= 8)
    out.cost = { amount: s.cost.amount, currency: s.cost.currency };
  if (finite(s.activeMs)) out.activeMs = s.activeMs;
  if (s.days && typeof s.days === 'object') {
    const days: Record<string, DayStats> = {};
    for (const [day, d] of Object.entries(s.days)) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !d || !finite(d.activeMs)) continue;
      days[day] = finite(d.cost) ? { activeMs: d.activeMs, cost: d.cost } : { activeMs: d.activeMs };
    }
    out.days = days;
  }
  return out;
}

/** The local day of a time, as the days are keyed. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The stats after a write: the last usage replaces the one before, time and cost add to `day`'s. */
export function mergeStats(old: SessionStats | undefined, change: StatsChange, day: string): SessionStats {
  const s: SessionStats = { ...old, days: { ...old?.days } };
  const u = change.usage;
  if (u && finite(u.used) && finite(u.size)) {
    s.used = u.used;
    s.size = u.size;
    if (u.cost && finite(u.cost.amount))
      s.cost = { amount: u.cost.amount, currency: String(u.cost.currency).slice(0, 8) };
  }
  const active = finite(change.activeMs) ? change.activeMs : 0;
  const cost = finite(change.cost) ? change.cost : 0;
  if (active > 0 || cost > 0) {
    s.activeMs = (s.activeMs ?? 0) + active;
    const d = s.days![day] ?? { activeMs: 0 };
    d.activeMs += active;
    if (cost > 0) d.cost = (d.cost ?? 0) + cost;
    s.days![day] = d;
  }
  const days = Object.keys(s.days!).sort();
  for (const old of days.slice(0, Math.max(0, days.length - MAX_DAYS))) delete s.days![old];
  if (Object.keys(s.days!).length === 0) delete s.days;
  return s;
}

/** Time and cost summed over sessions for the days given (their currency, when they share one). */
export interface Totals {
  activeMs: number;
  cost: number;
  /** The currency of the costs, or undefined when there were none, '' when they differ. */
  currency?: string;
  sessions: number;
}

export function totals(sessions: ReadonlyArray<SessionStats | undefined>, days: readonly string[]): Totals {
  const t: Totals = { activeMs: 0, cost: 0, sessions: 0 };
  for (const s of sessions) {
    let counted = false;
    for (const day of days) {
      const d = s?.days?.[day];
      if (!d) continue;
      counted = true;
      t.activeMs += d.activeMs;
      if (d.cost) {
        t.cost += d.cost;
        const c = s?.cost?.currency ?? '';
        t.currency = t.currency === undefined || t.currency === c ? c : '';
      }
    }
    if (counted) t.sessions++;
  }
  return t;
}

/** The local days of the week that holds `now` (Monday first), up to today. */
export function weekDays(now: number): string[] {
  const d = new Date(now);
  const back = (d.getDay() + 6) % 7;
  return Array.from({ length: back + 1 }, (_, i) =>
    dayOf(new Date(d.getFullYear(), d.getMonth(), d.getDate() - i).getTime()),
  );
}

/** A cost as people read it: "USD 0.42" (two decimals, more for a fraction of a cent). */
export function money(amount: number, currency: string | undefined): string {
  const digits = amount > 0 && amount < 0.01 ? 4 : 2;
  const n = amount.toFixed(digits);
  return currency ? `${currency} ${n}` : n;
}

/** The tooltip's line on a session's use: "12,345 of 200,000 tokens · USD 0.42 · active 12 min". */
export function statsLine(s: SessionStats | undefined): string | undefined {
  if (!s) return undefined;
  const parts: string[] = [];
  if (s.used !== undefined && s.size !== undefined)
    parts.push(`${s.used.toLocaleString('en-US')} of ${s.size.toLocaleString('en-US')} tokens in context`);
  if (s.cost) parts.push(`cost ${money(s.cost.amount, s.cost.currency)}`);
  if (s.activeMs) parts.push(`active ${duration(s.activeMs)}`);
  return parts.length ? parts.join(' · ') : undefined;
}
