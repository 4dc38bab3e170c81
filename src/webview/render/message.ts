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

export function renderMessage(entry: MessageEntry, stream: StreamSplitter | undefined, thoughtOpen: boolean): HTMLElement {
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
export function fillThought(details: HTMLDetailsElement, entry: MessageEntry, stream: StreamSplitter | undefined): void {
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

/** Brings a streaming body (`.md-streaming`) up to date with its splitter. */
export function updateStreaming(node: HTMLElement, stream: StreamSplitter): void {
  const done = node.firstElementChild as HTMLElement;
  const tail = node.lastElementChild as HTMLElement;
  const from = renderedUpTo.get(node) ?? 0;
  const to = stream.stableEnd;
  if (to > from) {
    done.append(renderMarkdown(stream.value.slice(from, to)));
    renderedUpTo.set(node, to);
  }
  tail.textContent = stream.value.slice(to);
}
