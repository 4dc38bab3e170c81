// ISO 8601 as agents write it: a date, optionally a time with seconds, fraction and offset.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const MINUTE = 60_000;

/**
 * Milliseconds since the epoch for an ISO 8601 `updatedAt`, or `undefined` when it is missing
 * or not a real date (a row is then shown without a time, never dropped).
 */
export function parseUpdatedAt(raw: unknown): number | undefined {
  if (typeof raw !== 'string') return undefined;
  const fast = parseCanonicalUtc(raw);
  if (fast !== undefined) return fast;
  const m = ISO.exec(raw.trim());
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = m;
  const y = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  const h = hs === undefined ? 0 : Number(hs);
  const mi = mis === undefined ? 0 : Number(mis);
  const sec = ss === undefined ? 0 : Number(ss);
  // Date.parse rolls "02-30" over into March instead of refusing it: checked here.
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(y, month)) return undefined;
  if (h > 23 || mi > 59 || sec > 59) return undefined;
  const offset = offsetMinutes(zone);
  if (offset === undefined) return undefined;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  // The usual case, a UTC or offset time after the year 99, with no Date object made: a page of
  // a thousand rows parses a thousand of these.
  if (zone !== undefined && y >= 100) return Date.UTC(y, month - 1, day, h, mi, sec, ms) - offset * MINUTE;
  // A date-time without an offset is local time, as ISO 8601 says; a bare date is read the same way.
  const at = zone === undefined ? new Date(0) : new Date(Date.UTC(2000, 0, 1));
  if (zone === undefined) {
    at.setFullYear(y, month - 1, day);
    at.setHours(h, mi, sec, ms);
  } else {
    // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
    at.setUTCFullYear(y, month - 1, day);
    at.setUTCHours(h, mi, sec, ms);
  }
  const value = at.getTime() - offset * MINUTE;
  return Number.isFinite(value) ? value : undefined;
}

/** Digits at `at`..`at + n` as a number, or -1 when any is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * `YYYY-MM-DDTHH:MM:SSZ` and `YYYY-MM-DDTHH:MM:SS.sssZ`, what `toISOString()` writes and most
 * agents send, read without a regular expression or a string made; anything else (or an
 * impossible date) is left to the general parser.
 */
function parseCanonicalUtc(s: string): number | undefined {
  const n = s.length;
  if ((n !== 20 && n !== 24) || s.charCodeAt(n - 1) !== 90 /* Z */) return undefined;
  if (s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':') return undefined;
  if (n === 24 && s[19] !== '.') return undefined;
  const y = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  const ms = n === 24 ? digits(s, 20, 3) : 0;
  if (y < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(y, month)) return undefined;
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0) return undefined;
  return Date.UTC(y, month - 1, day, h, mi, sec, ms);
}

/** Minutes east of UTC in an ISO 8601 zone ("Z", "+02", "-0530", "+05:30"); none is 0; out of range is undefined. */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || '0');
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

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
