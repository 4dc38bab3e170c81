/** How a turn's changes read, the same in the chat, its Markdown export and its search. */
import type { ChangesEntry } from './entries';

/** "1 file changed +3 −2", "4 files changed +120 −0". */
export function changesLabel(entry: Pick<ChangesEntry, 'files' | 'added' | 'deleted'>): string {
  return `${entry.files} ${entry.files === 1 ? 'file' : 'files'} changed +${entry.added} −${entry.deleted}`;
}

/** What the row says of files no tool call named: "2 not from a tool call", or nothing. */
export function unnamedLabel(entry: Pick<ChangesEntry, 'unnamedCount'>): string {
  return entry.unnamedCount ? `${entry.unnamedCount} not from a tool call` : '';
}
