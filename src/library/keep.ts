/**
 * What the library keeps of a chat entry: a copy with secrets masked (the log's redaction) and
 * bulky inline data capped, the text a search looks through, and the files its tool call read,
 * wrote or diffed. Pure: the store calls these and writes what they return.
 */
import type { ContentBlock, ToolCallContent } from '@agentclientprotocol/sdk';
import type { MessageEntry, ThreadEntry, ToolCallEntry } from '../protocol/entries';

/** Base64 characters of inline data (an image, audio, a blob) kept per block: about 192 KB decoded. */
export const MAX_INLINE_DATA = 256 * 1024;
/** JSON characters of a tool's raw input or output kept; past it the value becomes a short note. */
export const MAX_RAW_JSON = 64 * 1024;
/** Characters of each side of a diff kept. */
export const MAX_DIFF_TEXT = 512 * 1024;

/** Masks secrets in the JSON text of an entry (the log's redaction: see `Redactor.json`). */
export type RedactJson = (json: string) => string;

/**
 * An entry as the library stores it: the JSON to write and what search and the file query
 * need. A message's text is its searchable text, so it is stored once: the JSON leaves it out
 * and {@link entryFrom} puts it back.
 */
export interface KeptEntry {
  json: string;
  /** Searchable text: messages, tool call titles and paths (thoughts and tool output are not searched). */
  text: string;
  /** Paths the entry's tool call read, wrote or diffed, as the agent spelled them. */
  paths: string[];
}

/** What a dropped inline payload leaves behind, so the chat says why nothing is shown. */
const droppedMeta = (length: number) => ({ 'acp-client/notKept': `${length} characters of inline data` });

function capBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'image':
    case 'audio':
      return block.data.length > MAX_INLINE_DATA
        ? { ...block, data: '', _meta: droppedMeta(block.data.length) }
        : block;
    case 'resource': {
      const r = block.resource;
      if ('blob' in r && typeof r.blob === 'string' && r.blob.length > MAX_INLINE_DATA)
        return { ...block, resource: { ...r, blob: '' }, _meta: droppedMeta(r.blob.length) };
      return block;
    }
    default:
      return block;
  }
}

function capText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters not kept)` : text;
}

function capContent(c: ToolCallContent): ToolCallContent {
  if (c.type === 'content') return { ...c, content: capBlock(c.content) };
  if (c.type === 'diff') {
    const oldText = c.oldText == null ? c.oldText : capText(c.oldText, MAX_DIFF_TEXT);
    return { ...c, oldText, newText: capText(c.newText, MAX_DIFF_TEXT) };
  }
  return c;
}

function capRaw(value: unknown): unknown {
  if (value === undefined) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return '(not kept: not JSON)';
  }
  if (json === undefined) return undefined;
  return json.length > MAX_RAW_JSON ? `(not kept: ${json.length} characters)` : value;
}

/** A copy of the entry with inline data, raw values and diffs capped. */
export function capEntry(entry: ThreadEntry): ThreadEntry {
  switch (entry.type) {
    case 'user':
    case 'agent':
    case 'thought':
      return entry.attachments.length ? { ...entry, attachments: entry.attachments.map(capBlock) } : entry;
    case 'tool': {
      const copy: ToolCallEntry = { ...entry, content: entry.content.map(capContent) };
      const rawInput = capRaw(entry.rawInput);
      const rawOutput = capRaw(entry.rawOutput);
      if (rawInput === undefined) delete copy.rawInput;
      else copy.rawInput = rawInput;
      if (rawOutput === undefined) delete copy.rawOutput;
      else copy.rawOutput = rawOutput;
      return copy;
    }
    default:
      return entry;
  }
}

/** The paths a tool call read, wrote or diffed: its locations and its diffs, each once. */
export function toolPaths(entry: ToolCallEntry): string[] {
  const out = new Set<string>();
  for (const l of entry.locations) if (typeof l?.path === 'string' && l.path) out.add(l.path);
  for (const c of entry.content) if (c?.type === 'diff' && typeof c.path === 'string' && c.path) out.add(c.path);
  return [...out];
}

/** What search looks through in an entry (empty for entries that say nothing searchable). */
export function searchText(entry: ThreadEntry): string {
  switch (entry.type) {
    case 'user':
    case 'agent':
      return messageText(entry);
    case 'tool':
      return [entry.title, ...toolPaths(entry)].join('\n');
    case 'notice':
      return entry.description ? `${entry.title}\n${entry.description}` : entry.title;
    default:
      return '';
  }
}

function messageText(entry: MessageEntry): string {
  const links = entry.attachments.flatMap((a) =>
    a.type === 'resource_link' ? [a.title ?? a.name, a.uri] : a.type === 'resource' ? [a.resource.uri] : [],
  );
  return links.length ? [entry.text, ...links].join('\n') : entry.text;
}

/**
 * The entry as kept: capped, then its JSON redacted. Searchable text and paths come from the
 * redacted copy, so a masked secret is not searchable either. Undefined when redaction left
 * text that is no longer JSON (a secret that spans the syntax): such an entry is not kept.
 */
export function keepEntry(entry: ThreadEntry, redact: RedactJson): KeptEntry | undefined {
  const json = redact(JSON.stringify(capEntry(entry)));
  let kept: ThreadEntry;
  try {
    kept = JSON.parse(json) as ThreadEntry;
  } catch {
    return undefined;
  }
  const text = searchText(kept);
  const paths = kept.type === 'tool' ? toolPaths(kept) : [];
  if ((kept.type === 'user' || kept.type === 'agent') && kept.text === text) {
    const { text: _, ...rest } = kept;
    return { json: JSON.stringify(rest), text, paths };
  }
  return { json, text, paths };
}

/** The entry a stored row holds: its JSON, with a message's text put back from the searchable text. */
export function entryFrom(text: string, json: string): ThreadEntry {
  const entry = JSON.parse(json) as ThreadEntry;
  if ((entry.type === 'user' || entry.type === 'agent') && typeof entry.text !== 'string') entry.text = text;
  return entry;
}
