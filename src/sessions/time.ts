// ISO 8601 as agents write it: a date, optionally a time with seconds, fraction and offset.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Milliseconds since the epoch for an ISO 8601 `updatedAt`, or `undefined` when it is missing
 * or not a real date (a row is then shown without a time, never dropped).
 */
export function parseUpdatedAt(raw: unknown): number | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = ISO.exec(raw.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  const month = Number(mo);
  const day = Number(d);
  // Date.parse rolls "02-30" over into March instead of refusing it.
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offset = '';
  if (zone !== undefined) {
    if (zone === 'Z' || zone === 'z') offset = 'Z';
    else {
      const digits = zone.slice(1).replace(':', '');
      offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
    }
  }
  const ms = frac ? `.${frac.slice(0, 3).padEnd(3, '0')}` : '';
  // A date-time without an offset is local time, as ISO 8601 says; a bare date is read the same way.
  const value = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${offset}`);
  return Number.isFinite(value) ? value : undefined;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let sameYear: Intl.DateTimeFormat | undefined;
let otherYear: Intl.DateTimeFormat | undefined;

function startOfDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/**
 * A short relative time for a row's description: "just now", "5 min ago", "3 h ago",
 * "yesterday", "4 days ago", then a short date. A time in the future (a clock ahead of ours)
 * reads as "just now".
 */
export function relativeTime(ms: number, now: number): string {
  const diff = now - ms;
  if (diff < MINUTE) return 'just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} min ago`;
  if (diff < 24 * HOUR) return `${Math.floor(diff / HOUR)} h ago`;
  // Calendar days, rounded so a daylight-saving change does not make 23 or 25 hours a day off.
  const days = Math.round((startOfDay(now) - startOfDay(ms)) / (24 * HOUR));
  if (days <= 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  // Formatters are costly to build and this runs per row.
  if (new Date(ms).getFullYear() === new Date(now).getFullYear()) {
    sameYear ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
    return sameYear.format(ms);
  }
  otherYear ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return otherYear.format(ms);
}
