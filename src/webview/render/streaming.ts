/**
 * A message while it streams: its finished blocks (see {@link StreamSplitter}) are parsed once
 * and appended; its open tail is rendered again on each update, as Markdown, so a paragraph
 * being written shows its emphasis and links as they arrive. The tail stays small (the splitter
 * cuts long blocks), and two kinds of tail never re-render: a code fence still open grows as
 * plain text in its code block, and a single line too long for Markdown grows as plain text.
 * Grown text is kept in blocks of whole lines, a few thousand characters each, and only the last
 * block changes, so a tail of a megabyte is not laid out again for every chunk.
 *
 * A long message that finishes is completed in place: what was rendered stays, only its tail is
 * parsed, and the result becomes the message's cached rendering. Parsing and laying out a
 * megabyte afresh would be one long task.
 */
import type { MessageEntry } from '../../protocol/entries';
import { el } from '../dom';
import { renderMarkdown } from '../markdown';
import { MAX_OPEN, type StreamSplitter } from '../streamSplit';
import { copyButton, decorateCodeBlocks } from './codeBlocks';

/** Longest open tail rendered as Markdown; past it (one line with no break yet) it grows as text. */
const MAX_TAIL_MARKDOWN = 2 * MAX_OPEN;
/** Longest run of grown text in one block before a new block starts at a line break. */
const TAIL_PART = 4096;
/** Characters of finished blocks a frame shows at least, when the view is behind the stream. */
const FRAME_SHARE = 16_384;
/** Finished text parsed at a time within a frame (at least one block). */
const STEP = 8192;
/**
 * Time a frame spends parsing finished blocks before it leaves the rest to the next one. Laying
 * out what it parsed takes about as long again.
 */
const STEP_BUDGET_MS = 6;
/** A finished message this long is completed in place rather than parsed whole. */
export const FINISH_IN_PLACE_CHARS = 32_768;

interface Shown {
  /** How far the finished blocks were rendered. */
  upTo: number;
  /** What the tail shows: Markdown, a growing fence, or growing text. */
  mode: 'markdown' | 'fence' | 'text';
  /** Characters of the tail shown, counted from `upTo`. */
  tail: number;
  /** In fence mode: where the fence's code starts and the marker that closes it. */
  fence?: { contentStart: number; marker: string };
}

const shown = new WeakMap<HTMLElement, Shown>();

export function streamingBody(stream: StreamSplitter): HTMLElement {
  const node = el('div', 'md md-streaming');
  node.append(el('div', 'md-done'), el('div', 'md-tail'));
  updateStreaming(node, stream);
  return node;
}

/**
 * Brings a streaming body (`.md-streaming`) up to date with its splitter, or as far as a frame's
 * share allows: false when it is still behind (the caller shows more next frame).
 */
export function updateStreaming(node: HTMLElement, stream: StreamSplitter, share = Infinity): boolean {
  let tail = node.lastElementChild as HTMLElement;
  let state = shown.get(node) ?? { upTo: 0, mode: 'markdown', tail: 0 };
  const stable = stream.stableEnd;
  let to = stable - state.upTo > share ? stream.stableWithin(state.upTo, share) : stable;
  if (to > state.upTo) {
    // A fence shown growing that closed keeps its code block (a megabyte of code is not parsed
    // and laid out again); anything else finished is parsed once.
    if (closeFence(tail, state, stream.value.slice(0, to))) tail = node.lastElementChild as HTMLElement;
    else {
      to = appendFinished(tail.previousElementSibling as HTMLElement, stream, state.upTo, to);
      // The finished blocks came out of the tail: what is left of it is shown afresh.
      tail.replaceChildren();
    }
    state = { upTo: to, mode: 'markdown', tail: 0 };
  }
  if (to < stable) {
    // Behind: the tail waits until the blocks before it are shown.
    shown.set(node, state);
    return false;
  }
  const text = stream.value.slice(to);
  const fence = stream.openFence;
  const mode = fence ? 'fence' : state.mode === 'text' || text.length > MAX_TAIL_MARKDOWN ? 'text' : 'markdown';
  if (mode !== state.mode) {
    tail.replaceChildren();
    state = { ...state, mode, tail: 0 };
  }
  if (mode === 'markdown') {
    if (text.length !== state.tail) tail.replaceChildren(blocks(text));
  } else if (mode === 'text') {
    appendLines(tail, text.slice(state.tail));
  } else {
    // What may be the fence's closing line waits for its line break: it is not code.
    const lastLine = text.slice(text.lastIndexOf('\n') + 1);
    const visible = CLOSING.test(lastLine) ? text.length - lastLine.length : text.length;
    const pre = tail.querySelector('pre') ?? fenceBlock(tail, fence!.language);
    appendLines(pre, text.slice(Math.max(fence!.contentStart - to, state.tail), visible));
    shown.set(node, {
      ...state,
      tail: Math.max(visible, state.tail),
      fence: { contentStart: fence!.contentStart, marker: fence!.marker },
    });
    return true;
  }
  shown.set(node, { ...state, tail: text.length });
  return true;
}

/**
 * Parses and appends the finished blocks from `from` to `to` a step at a time, while the frame
 * has time left ({@link STEP_BUDGET_MS}, at least one step); returns how far it got. On a busy
 * machine a frame shows less, so it stays short however far the view is behind.
 */
function appendFinished(done: HTMLElement, stream: StreamSplitter, from: number, to: number): number {
  const started = performance.now();
  let at = from;
  do {
    const next = Math.min(to, stream.stableWithin(at, STEP));
    done.append(blocks(stream.value.slice(at, next)));
    at = next;
  } while (at < to && performance.now() - started < STEP_BUDGET_MS);
  return at;
}

/**
 * How much of a message's finished text a frame lays out when the view is behind: a burst (a
 * slow frame, a fast agent) is shown over a few frames instead of in one long layout; a view a
 * megabyte behind shows 32 KiB a frame.
 */
export function frameShare(node: HTMLElement, stream: StreamSplitter): number {
  const behind = stream.stableEnd - (shown.get(node)?.upTo ?? 0);
  return Math.max(FRAME_SHARE, Math.ceil(behind / 32));
}

/** How far a streaming body has shown its message's finished blocks. */
export function shownUpTo(node: HTMLElement): number {
  return shown.get(node)?.upTo ?? 0;
}

const CLOSING = /^ {0,3}(`+|~+)$/;

/**
 * Completes a long streamed message in place (see above) and returns its rendering for the
 * cache; undefined when the node cannot be completed so (the text is not what was streamed).
 */
export function finishInPlace(
  node: HTMLElement,
  stream: StreamSplitter,
  entry: MessageEntry,
): DocumentFragment | undefined {
  const state = shown.get(node);
  if (!state || !entry.text.startsWith(stream.value.slice(0, state.upTo))) return undefined;
  const tail = node.lastElementChild as HTMLElement;
  const fence = stream.openFence;
  const block = tail.querySelector<HTMLElement>(':scope > .code-block');
  const pre = block?.querySelector('pre');
  if (state.mode === 'fence' && fence && block && pre && entry.text.startsWith(stream.value)) {
    // The code block written so far stays: only the rest of its code is added, and what
    // follows its closing line is parsed.
    const rest = entry.text.slice(fence.contentStart);
    const close = closingLine(rest, fence.marker);
    const shownCode = state.tail - (fence.contentStart - state.upTo);
    appendLines(pre, rest.slice(Math.max(0, shownCode), close?.start ?? rest.length));
    settleTail(tail, blocks(close ? rest.slice(close.end) : ''));
  } else if (!(entry.text.startsWith(stream.value) && closeFence(tail, state, entry.text))) {
    // (A fence that closed since the last frame keeps its block too.)
    (tail.previousElementSibling as HTMLElement).append(blocks(entry.text.slice(state.upTo)));
  }
  node.lastElementChild!.remove();
  node.classList.remove('md-streaming');
  shown.delete(node);
  const html = document.createDocumentFragment();
  for (const part of node.children) for (const child of part.childNodes) html.append(child.cloneNode(true));
  return html;
}

/**
 * The tail shows a fence growing and `text` (the message up to the end of its finished blocks)
 * closes it: the rest of its code goes into the block shown, which stays where it is (see
 * {@link settleTail}), and what follows the closing line is parsed. False when that is not the case.
 */
function closeFence(tail: HTMLElement, state: Shown, text: string): boolean {
  const block = state.mode === 'fence' ? tail.querySelector<HTMLElement>(':scope > .code-block') : null;
  const pre = block?.querySelector('pre');
  if (!state.fence || !block || !pre) return false;
  const code = text.slice(state.fence.contentStart);
  const close = closingLine(code, state.fence.marker);
  if (!close) return false;
  const shownCode = state.tail - (state.fence.contentStart - state.upTo);
  appendLines(pre, code.slice(Math.max(0, shownCode), close.start));
  settleTail(tail, blocks(code.slice(close.end)));
  return true;
}

/**
 * The tail, holding a code block whose fence just closed, becomes finished blocks where it is:
 * moving the block would lay its text out again (a megabyte of code, a long task). What follows
 * the fence goes after it, then a fresh tail. The finished blocks are in one or more `.md-done`.
 */
function settleTail(tail: HTMLElement, after: DocumentFragment): void {
  tail.className = 'md-done';
  const next = el('div', 'md-done');
  next.append(after);
  tail.after(next, el('div', 'md-tail'));
}

/** Where a fence opened with `marker` closes in `code`: the closing line's start and end. */
function closingLine(code: string, marker: string): { start: number; end: number } | undefined {
  for (let start = 0; start < code.length;) {
    const newline = code.indexOf('\n', start);
    const end = newline === -1 ? code.length : newline + 1;
    const line = code.slice(start, newline === -1 ? code.length : newline).trim();
    if (line.length >= marker.length && line[0] === marker[0] && /^(`+|~+)$/.test(line)) return { start, end };
    start = end;
  }
  return undefined;
}

function blocks(markdown: string): DocumentFragment {
  const html = renderMarkdown(markdown);
  decorateCodeBlocks(html);
  return html;
}

/** An open fence's code block in the tail: its language and Copy above, the code growing below. */
function fenceBlock(tail: HTMLElement, language: string): HTMLPreElement {
  const block = el('div', 'code-block copyable');
  const header = el('div', 'code-header');
  header.append(el('span', 'code-lang', language), copyButton('Copy code'));
  // Wrapped, not scrolled sideways: a scrolling block is laid out whole as it grows.
  const pre = el('pre', 'copy-source code-streamed');
  block.append(header, pre);
  tail.append(block);
  return pre;
}

function appendLines(box: HTMLElement, added: string): void {
  let text = (box.lastElementChild?.firstChild as Text | null | undefined) ?? undefined;
  for (let at = 0; at < added.length;) {
    if (!text) {
      const part = el('div', 'md-tail-part');
      text = document.createTextNode('');
      part.append(text);
      box.append(part);
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
