/** The longest label shown, in code points, "…" included. */
export const MAX_TITLE = 200;

// Line breaks of every kind (CR, LF, VT, FF, NEL, LS, PS) and tabs become spaces.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// C0 and C1 control characters (including DEL): invisible, and some move the cursor in terminals.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// Bidi embeddings, overrides, isolates and marks: they can make a title read differently from
// what it is ("Trojan Source").
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Zero-width and invisible characters, plus Unicode tag characters (used to hide text).
const INVISIBLE = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]|\udb40[\udc00-\udc7f]/g;
// A surrogate without its partner cannot be rendered and breaks JSON round-trips.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// Anything the replacements below would change (any surrogate sends a title the long way).
const NEEDS_WORK =
  /[^\S ]|[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff\ud800-\udfff]| {2}|^ | $/;

/**
 * Agent text made safe to show on one line: control, bidi and invisible characters removed,
 * line breaks and runs of white space turned into one space, trimmed, and cut at `max` code
 * points (never inside a surrogate pair) with "…" at the end.
 */
export function sanitizeText(raw: string, max = MAX_TITLE): string {
  // Most titles need nothing: no character below, no space but U+0020, no run of spaces, no
  // space at either end, and short enough. One test instead of six replacements.
  if (raw.length <= max && !NEEDS_WORK.test(raw)) return raw;
  const clean = raw
    .replace(BREAKS, ' ')
    .replace(CONTROLS, '')
    .replace(BIDI, '')
    .replace(INVISIBLE, '')
    .replace(LONE_SURROGATE, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Fast path: no more UTF-16 units than the cap means no more code points either.
  if (clean.length <= max) return clean;
  const points = Array.from(clean);
  if (points.length <= max) return clean;
  return `${points
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** What a session row shows as its name. */
export interface SanitizedTitle {
  readonly label: string;
  /** The agent gave no usable title: the label is the fallback built from the id. */
  readonly untitled: boolean;
}

/**
 * The label for a session. Titles are hostile input from the agent: absent, `null`, a 500
 * character prompt with line breaks, or text with control and bidi characters. A title that
 * is missing or sanitises to nothing becomes "Untitled session · " and the short id.
 */
export function sanitizeTitle(raw: unknown, sessionId: string): SanitizedTitle {
  if (typeof raw === 'string') {
    const label = sanitizeText(raw);
    if (label) return { label, untitled: false };
  }
  const short = shortId(sessionId);
  return { label: short ? `Untitled session · ${short}` : 'Untitled session', untitled: true };
}

/** The first 8 characters of a session id, cleaned like a title: ids come from the agent too. */
export function shortId(sessionId: string): string {
  return Array.from(sanitizeText(String(sessionId), 64))
    .slice(0, 8)
    .join('');
}
