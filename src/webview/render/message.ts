/**
 * User, agent and thought messages. A finished message is parsed once (cached by entry object);
 * a streaming one shows its finished blocks as Markdown, appended block by block, and its open
 * tail as plain text, so a chunk never re-parses the message.
 */
import type { MessageEntry } from '../../protocol/entries';
import { contentBlock, el } from '../dom';
import { renderMarkdown } from '../markdown';
import type { StreamSplitter } from '../streamSplit';
import { renderAttachments } from './attachments';

const htmlCache = new WeakMap<MessageEntry, DocumentFragment>();

/** How far the finished blocks of a streaming node were rendered. */
const renderedUpTo = new WeakMap<HTMLElement, number>();

export function cachedMarkdown(entry: MessageEntry): DocumentFragment {
  let html = htmlCache.get(entry);
  if (html === undefined) {
    html = renderMarkdown(entry.text);
    htmlCache.set(entry, html);
  }
  return html;
}

export function renderMessage(
  entry: MessageEntry,
  stream: StreamSplitter | undefined,
  thoughtOpen: boolean,
): HTMLElement {
  if (entry.type === 'thought') return renderThought(entry, stream, thoughtOpen);
  const node = el('div', `msg msg-${entry.type}`);
  if (entry.type === 'user') node.append(el('div', 'msg-who', 'You'));
  node.append(body(entry, stream));
  if (entry.attachments.length) node.append(renderAttachments(entry.attachments));
  return node;
}

function renderThought(entry: MessageEntry, stream: StreamSplitter | undefined, open: boolean): HTMLElement {
  const details = el('details', 'msg msg-thought');
  const summary = el('summary', 'thought-summary', stream ? 'Thinking…' : 'Thought');
  details.append(summary);
  details.open = open;
  // A closed thought is not parsed until it is opened (see `fillThought`).
  if (open) details.append(body(entry, stream));
  return details;
}

/** Renders a thought's body the first time it is opened. */
export function fillThought(
  details: HTMLDetailsElement,
  entry: MessageEntry,
  stream: StreamSplitter | undefined,
): void {
  if (!details.querySelector(':scope > .md')) details.append(body(entry, stream));
}

function body(entry: MessageEntry, stream: StreamSplitter | undefined): HTMLElement {
  if (!stream) return contentBlock('md', cachedMarkdown(entry));
  const node = el('div', 'md md-streaming');
  const done = el('div', 'md-done');
  const tail = el('div', 'md-tail');
  node.append(done, tail);
  updateStreaming(node, stream);
  return node;
}

/** Longest run of tail text in one block before a new block starts at a line break. */
const TAIL_PART = 4096;

/** How much of the open tail a streaming node shows, from `renderedUpTo`. */
const tailShown = new WeakMap<HTMLElement, number>();

/**
 * Brings a streaming body (`.md-streaming`) up to date with its splitter: finished blocks are
 * parsed once and appended; the open tail (a paragraph or a code block still being written) is
 * plain text that only grows. It is kept in blocks of whole lines, a few thousand characters
 * each, and only the last block changes, so a tail of a megabyte is not laid out again for
 * every chunk.
 */
export function updateStreaming(node: HTMLElement, stream: StreamSplitter): void {
  const done = node.firstElementChild as HTMLElement;
  const tail = node.lastElementChild as HTMLElement;
  const from = renderedUpTo.get(node) ?? 0;
  const to = stream.stableEnd;
  let shown = tailShown.get(node) ?? 0;
  if (to > from) {
    done.append(renderMarkdown(stream.value.slice(from, to)));
    renderedUpTo.set(node, to);
    // The finished blocks came out of the tail: what is left of it is shown afresh.
    tail.replaceChildren();
    shown = 0;
  }
  const added = stream.value.slice(to + shown);
  if (added) appendTail(tail, added);
  tailShown.set(node, stream.value.length - to);
}

function appendTail(tail: HTMLElement, added: string): void {
  let text = (tail.lastElementChild?.firstChild as Text | null | undefined) ?? undefined;
  for (let at = 0; at < added.length;) {
    if (!text) {
      const part = el('div', 'md-tail-part');
      text = document.createTextNode('');
      part.append(text);
      tail.append(part);
    }
    const room = TAIL_PART - text.length;
    if (added.length - at <= room) {
      text.appendData(at === 0 ? added : added.slice(at));
      return;
    }
    // The block ends at a line break: the last one that fits, else the first one after.
    let cut = room > 0 ? added.lastIndexOf('\n', at + room - 1) : -1;
    if (cut < at) cut = added.indexOf('\n', at);
    if (cut < 0) {
      // One line with no break yet: it stays in this block.
      text.appendData(added.slice(at));
      return;
    }
    text.appendData(added.slice(at, cut + 1));
    at = cut + 1;
    text = undefined;
  }
}
