import type { SessionRow } from './rows';
import { sanitizeText } from './title';

const MAX_META = 5;
const MAX_META_KEY = 40;
const MAX_META_VALUE = 120;
const MAX_PATH = 500;

/**
 * Escapes text for Markdown: every ASCII punctuation character CommonMark lets a backslash
 * escape, so agent text cannot open a link, an image, HTML, emphasis or a heading.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~&"':;=/?$%^@,]/g, '\\$&');
}

/** Agent text for one line of the tooltip: sanitised, capped, escaped. */
function safe(raw: string, max: number): string {
  return escapeMarkdown(sanitizeText(raw, max));
}

let timeFormat: Intl.DateTimeFormat | undefined;

/** The tooltip's one time format: the user's locale, date and time of day. */
export function tooltipTime(ms: number): string {
  timeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return timeFormat.format(ms);
}

/** A `_meta` key as words: "messageCount" and "message_count" read "Message count". */
export function metaLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : '';
}

/**
 * The Markdown tooltip of a session row, in what a user reads: the title (or the name the user
 * gave it), sentences of ours (how the agent knows a named session, what an open chat is doing),
 * when it was updated (one format, the user's locale), the folder and its path, up to five
 * primitive `_meta` values with their keys as words, and the session id last. Everything the
 * agent sent is hostile input and is escaped.
 */
export function tooltipMarkdown(
  row: SessionRow,
  folderLabel: string,
  /** `forkedFrom`: the title of the session it was forked from, where it is listed. */
  shown: { label?: string; notes?: readonly string[]; forkedFrom?: string } = {},
): string {
  const lines = [`**${escapeMarkdown(shown.label ?? row.label)}**`];
  for (const note of shown.notes ?? []) lines.push(safe(note, 2 * MAX_PATH));
  if (row.updatedAtMs !== undefined) lines.push(`Updated ${escapeMarkdown(tooltipTime(row.updatedAtMs))}`);
  lines.push(`Folder: ${safe(folderLabel, MAX_PATH)} — ${safe(row.cwd, MAX_PATH)}`);
  if (row.aliases?.length)
    lines.push(
      `Also known as: ${row.aliases
        .slice(0, 5)
        .map((a) => safe(a, MAX_PATH))
        .join(', ')}${row.aliases.length > 5 ? ` and ${row.aliases.length - 5} more` : ''}`,
    );
  if (row.forkedFrom) lines.push(`Forked from: ${safe(shown.forkedFrom ?? row.forkedFrom, MAX_PATH)}`);
  const meta = metaHighlights(row._meta);
  if (meta.length > 0) lines.push(...meta);
  lines.push(`Session ID: ${safe(row.sessionId, MAX_PATH)}`);
  return lines.join('\n\n');
}

function metaHighlights(meta: unknown): string[] {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(meta)) {
    if (out.length >= MAX_META) break;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    if (key === 'forkedFrom') continue; // said as lineage
    const k = safe(metaLabel(key), MAX_META_KEY);
    const v = safe(typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value), MAX_META_VALUE);
    if (k) out.push(`${k}: ${v}`);
  }
  return out;
}
