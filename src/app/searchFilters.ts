import { timeOf } from '../library/query';

/**
 * What Resume Session's typed text asks of content search: the words, and a few plain filters
 * typed among them (`agent:codex`, `in:webshop`, `after:2026-11-01`, `before:2026-12-01`,
 * `file:src/cart.ts`, `is:archived`), none of them required. Everything else is words, searched as typed words
 * (quotes, `*`, `NEAR`, `-` are not search syntax).
 */
export interface SearchFilters {
  /** The typed text without the filters. */
  readonly text: string;
  /** Folded to lower case: part of the agent's id or name. */
  readonly agent?: string;
  /** Folded to lower case: part of the session's folder (its name or path). */
  readonly folder?: string;
  /** Milliseconds: updated on or after the start of that day (local time). */
  readonly after?: number;
  /** Milliseconds: updated before the start of that day (local time). */
  readonly before?: number;
  /**
   * Folded to lower case, `/` for `\\`: part of the path of a file the session changed (a turn's
   * checkpoints) or its tool calls named.
   */
  readonly file?: string;
  /** Archived sessions are found too (and marked so). */
  readonly archived: boolean;
  /** Filters that could not be read, each said as the user should fix it. */
  readonly problems: readonly string[];
}

/** Shown where the user types: the filters there are, as hints. */
export const FILTER_HINTS = 'agent:  in:  file:  after:YYYY-MM-DD  before:YYYY-MM-DD  is:archived';

const FILTER = /(^|\s)(agent|in|file|after|before|is):(\S*)/gi;

/** A `YYYY-MM-DD` day's first millisecond (local time), or undefined. */
function dayStart(value: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? date.getTime() : undefined;
}

export function parseFilters(typed: string): SearchFilters {
  const out: { -readonly [K in keyof SearchFilters]: SearchFilters[K] } = { text: '', archived: false, problems: [] };
  const problems: string[] = [];
  out.text = typed
    .replace(FILTER, (whole, space: string, name: string, value: string) => {
      const key = name.toLowerCase();
      // A filter still being typed ("agent:") filters nothing yet.
      if (!value) return space;
      if (key === 'agent') out.agent = value.toLowerCase();
      else if (key === 'in') out.folder = value.toLowerCase();
      else if (key === 'file') out.file = value.replaceAll('\\', '/').toLowerCase();
      else if (key === 'is') {
        if (value.toLowerCase() === 'archived') out.archived = true;
        else problems.push(`"${whole.trim()}": only is:archived is known`);
      } else {
        const day = dayStart(value);
        if (day === undefined) problems.push(`"${whole.trim()}": a date is written YYYY-MM-DD`);
        else if (key === 'after') out.after = day;
        else out.before = day;
      }
      return space;
    })
    .trim();
  out.problems = problems;
  return out;
}

/** Whether the text has any filter. */
export function hasFilters(f: SearchFilters): boolean {
  return (
    f.agent !== undefined ||
    f.folder !== undefined ||
    f.file !== undefined ||
    f.after !== undefined ||
    f.before !== undefined
  );
}

/** Whether a session passes the filters (its archive state aside). */
export function passes(
  f: SearchFilters,
  s: { agentId: string; agentName?: string; cwd: string; updatedAt?: string },
): boolean {
  if (f.agent !== undefined && !`${s.agentId}\n${s.agentName ?? ''}`.toLowerCase().includes(f.agent)) return false;
  if (f.folder !== undefined && !s.cwd.toLowerCase().includes(f.folder)) return false;
  if (f.after !== undefined || f.before !== undefined) {
    const t = timeOf(s.updatedAt);
    if (t === undefined) return false;
    if (f.after !== undefined && t < f.after) return false;
    if (f.before !== undefined && t >= f.before) return false;
  }
  return true;
}
