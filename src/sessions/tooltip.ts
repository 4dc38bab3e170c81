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

/**
 * The Markdown tooltip of a session row: title (or the name the user gave it), sentences of
 * ours (how the agent knows a named session, what an open chat is doing), id, folder and
 * cwd, updated time (absolute, locale and ISO), and up to five primitive `_meta` values.
 * Everything the agent sent is hostile input and is escaped.
 */
export function tooltipMarkdown(
  row: SessionRow,
  folderLabel: string,
  shown: { label?: string; notes?: readonly string[] } = {},
): string {
  const lines = [`**${escapeMarkdown(shown.label ?? row.label)}**`];
  for (const note of shown.notes ?? []) lines.push(safe(note, 2 * MAX_PATH));
  lines.push(`Session ID: ${safe(row.sessionId, MAX_PATH)}`);
  lines.push(`Folder: ${safe(folderLabel, MAX_PATH)}`);
  lines.push(`Working directory: ${safe(row.cwd, MAX_PATH)}`);
  if (row.updatedAtMs !== undefined) {
    const at = new Date(row.updatedAtMs);
    lines.push(`Updated: ${escapeMarkdown(at.toLocaleString())} (${escapeMarkdown(at.toISOString())})`);
  }
  const meta = metaHighlights(row._meta);
  if (meta.length > 0) lines.push('---', ...meta);
  return lines.join('\n\n');
}

function metaHighlights(meta: unknown): string[] {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(meta)) {
    if (out.length >= MAX_META) break;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    const k = safe(key, MAX_META_KEY);
    const v = safe(String(value), MAX_META_VALUE);
    if (k) out.push(`${k}: ${v}`);
  }
  return out;
}
