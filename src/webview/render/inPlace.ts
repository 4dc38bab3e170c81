/** A rendered message brought up to date without rendering it anew. */
import type { PanelEntry } from '../../protocol/entries';
import type { StreamSplitter } from '../streamSplit';
import { cacheMarkdown, type CodeShown } from './message';
import { FINISH_IN_PLACE_CHARS, finishInPlace, frameShare, shownUpTo, updateStreaming } from './streaming';

export interface InPlace {
  /** The message's splitter while it streams. */
  stream: StreamSplitter | undefined;
  /** The splitter it streamed through, when it finished since the last render. */
  finished: StreamSplitter | undefined;
  /** The host sent the entry anew (not only text appended). */
  replaced: boolean;
}

/**
 * A streaming message is brought up to date in place, and so is a long one that just finished;
 * false when the node must be rendered anew. A frame shows a share of what is new (see
 * `frameShare`); `behind` is called when more is left for the next frame.
 */
export function updateInPlace(
  node: HTMLElement,
  entry: PanelEntry,
  at: InPlace,
  codeShown: CodeShown,
  behind: () => void,
): boolean {
  const body = node.querySelector<HTMLElement>('.md-streaming');
  if (at.stream && !at.replaced) {
    if (body) {
      if (!updateStreaming(body, at.stream, frameShare(body, at.stream))) behind();
      return true;
    }
    const details = node.querySelector('details');
    return !!details && !details.open;
  }
  if (!at.finished || !body || (entry.type !== 'agent' && entry.type !== 'user')) return false;
  if (entry.text.length < FINISH_IN_PLACE_CHARS) return false;
  // It ended while the view was more than a frame's share behind: more of it this frame,
  // finished (the rest parsed in place) once the blocks left fit in one share.
  const finished = at.finished;
  const next = finished.stableWithin(shownUpTo(body), frameShare(body, finished));
  if (next < finished.stableEnd && entry.text.startsWith(finished.value)) {
    updateStreaming(body, finished, next - shownUpTo(body));
    behind();
    return true;
  }
  const html = finishInPlace(body, at.finished, entry);
  if (!html) return false;
  cacheMarkdown(entry, html);
  codeShown(html);
  return true;
}
