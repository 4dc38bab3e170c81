/**
 * User, agent and thought messages. A finished message is parsed once (cached by entry object);
 * a streaming one is rendered block by block (see streaming.ts), so a chunk never re-parses the
 * message.
 */
import type { MessageEntry } from '../../protocol/entries';
import { bindAction } from '../actions';
import { contentBlock, el, icon } from '../dom';
import { renderMarkdown } from '../markdown';
import type { StreamSplitter } from '../streamSplit';
import { renderAttachments } from './attachments';
import { decorateCodeBlocks } from './codeBlocks';
import { streamingBody } from './streaming';

/** Told of each cached rendering shown, so its code can be highlighted (finished messages only). */
export type CodeShown = (source: DocumentFragment) => void;

const htmlCache = new WeakMap<MessageEntry, DocumentFragment>();

/** Keeps a rendering made another way (a long message finished in place) as the message's. */
export function cacheMarkdown(entry: MessageEntry, html: DocumentFragment): void {
  htmlCache.set(entry, html);
}

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
  codeShown: CodeShown,
): HTMLElement {
  if (entry.type === 'thought') return renderThought(entry, stream, thoughtOpen, codeShown);
  const node = el('div', `msg msg-${entry.type}`);
  if (entry.type === 'user') node.append(el('div', 'msg-who', 'You'));
  node.append(body(entry, stream, codeShown));
  if (entry.attachments.length) node.append(renderAttachments(entry.attachments));
  if (entry.text) node.append(messageActions(entry.type === 'user'));
  return node;
}

/**
 * The message's own buttons, shown on hover and focus: Copy (its Markdown); on the user's, Restore
 * Files to Before This Message (shown while the chat's checkpoints are on: `body.can-restore`) and
 * Fork From Here (shown while the agent forks sessions: `body.can-fork`).
 */
function messageActions(user: boolean): HTMLElement {
  const bar = el('div', 'msg-actions');
  const copy = bindAction(el('button', 'icon-button msg-copy'), { kind: 'copyMessage' });
  copy.type = 'button';
  copy.title = 'Copy (Markdown)';
  copy.setAttribute('aria-label', 'Copy message');
  copy.append(icon('copy'));
  bar.append(copy);
  if (user) {
    const restore = bindAction(el('button', 'icon-button msg-restore'), { kind: 'restoreFiles' });
    restore.type = 'button';
    restore.title = 'Restore Files to Before This Message';
    restore.setAttribute('aria-label', 'Restore files to before this message');
    restore.append(icon('discard'));
    const fork = bindAction(el('button', 'icon-button msg-fork'), { kind: 'forkHere' });
    fork.type = 'button';
    fork.title = 'Fork From Here';
    fork.setAttribute('aria-label', 'Fork the conversation from here into a worktree');
    fork.append(icon('repo-forked'));
    bar.append(restore, fork);
  }
  return bar;
}

function renderThought(
  entry: MessageEntry,
  stream: StreamSplitter | undefined,
  open: boolean,
  codeShown: CodeShown,
): HTMLElement {
  const details = el('details', 'msg msg-thought');
  const summary = el('summary', 'thought-summary', stream ? 'Thinking…' : 'Thought');
  details.append(summary);
  details.open = open;
  // A closed thought is not parsed until it is opened (see `fillThought`).
  if (open) details.append(body(entry, stream, codeShown));
  return details;
}

/** Renders a thought's body the first time it is opened. */
export function fillThought(
  details: HTMLDetailsElement,
  entry: MessageEntry,
  stream: StreamSplitter | undefined,
  codeShown: CodeShown,
): void {
  if (!details.querySelector(':scope > .md')) details.append(body(entry, stream, codeShown));
}

function body(entry: MessageEntry, stream: StreamSplitter | undefined, codeShown: CodeShown): HTMLElement {
  if (!stream) {
    const source = cachedMarkdown(entry);
    const node = contentBlock('md', source);
    decorateCodeBlocks(node);
    codeShown(source);
    return node;
  }
  return streamingBody(stream);
}
