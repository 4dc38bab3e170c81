/**
 * Find in the whole thread. The thread is virtualised (most entries are not in the DOM), so the
 * search runs over the entries themselves: the text each one shows, lowercased once per entry
 * object and kept. Matches are addressed as (entry, occurrence in that entry), which the find
 * bar turns into a range in the entry's node once it is rendered.
 */
import type { PanelEntry } from '../protocol/entries';
import { changesLabel } from '../protocol/changes';

export interface Match {
  index: number;
  /** Which occurrence in the entry's text, from 0. */
  occurrence: number;
}

/** Enough to step through; a count past it shows as "10,000+". */
export const MAX_MATCHES = 10_000;

const lowered = new WeakMap<PanelEntry, string>();

/** What a reader can find in an entry: the words it shows, not its markup's attributes. */
export function searchableText(entry: PanelEntry): string {
  switch (entry.type) {
    case 'user':
    case 'agent':
    case 'thought':
      return entry.text;
    case 'tool': {
      const parts = [entry.title];
      for (const content of entry.content) {
        if (content.type === 'content' && content.content.type === 'text') parts.push(content.content.text);
        else if (content.type === 'terminal') parts.push(entry.terminalOutput?.[content.terminalId]?.output ?? '');
        else if (content.type === 'diff') parts.push(content.path);
      }
      return parts.join('\n');
    }
    case 'plan':
      return entry.entries.map((item) => item.content).join('\n');
    case 'notice':
      return `${entry.title}\n${entry.description ?? ''}`;
    case 'divider':
      return entry.text;
    case 'permission':
      return entry.title;
    case 'elicitation':
      return entry.message;
    case 'changes':
      return [changesLabel(entry), ...entry.unnamed].join('\n');
    default:
      return '';
  }
}

function lowerText(entry: PanelEntry): string {
  let text = lowered.get(entry);
  // A streaming message grows in place: its cached copy is only good while the length holds.
  if (text === undefined || ('text' in entry && text.length !== entry.text.length)) {
    text = searchableText(entry).toLowerCase();
    lowered.set(entry, text);
  }
  return text;
}

/** Every occurrence of `query` (case-insensitive) in the thread, in order, up to {@link MAX_MATCHES}. */
export function searchThread(entries: readonly PanelEntry[], query: string): Match[] {
  const needle = query.toLowerCase();
  const matches: Match[] = [];
  if (!needle) return matches;
  for (let index = 0; index < entries.length; index++) {
    const text = lowerText(entries[index]);
    let occurrence = 0;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
      matches.push({ index, occurrence: occurrence++ });
      if (matches.length >= MAX_MATCHES) return matches;
    }
  }
  return matches;
}

/** What the page adds around an entry's own text (labels, buttons, a diff's lines): not searched. */
const NOT_SEARCHED =
  '.code-header, .msg-who, .msg-actions, .tool-status, .tool-raw, .terminal-exit, .plan-header, .diff-body, .permission-options, .permission-outcome, .elicitation-actions, button, summary';

/** The ranges where `query` occurs in the text under `root` (case-insensitive), in document order. */
export function rangesIn(root: Node, query: string): Range[] {
  const needle = query.toLowerCase();
  const ranges: Range[] = [];
  if (!needle) return ranges;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest(NOT_SEARCHED) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const text = node.data.toLowerCase();
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
    }
  }
  return ranges;
}
