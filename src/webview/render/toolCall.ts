/**
 * A tool call as a card: kind, title, status, then its content (text as Markdown, diffs as line
 * diffs with an "Open diff" button, terminal output) and its locations as links. Long output
 * is cut so one card never costs a long layout.
 */
import type { ToolCallContent, ToolKind } from '@agentclientprotocol/sdk';
import type { ToolCallEntry } from '../../protocol/entries';
import { bindAction } from '../actions';
import { actionButton, contentBlock, el, icon } from '../dom';
import { diffLines, withContext, type DiffRow } from '../lineDiff';
import { renderMarkdown } from '../markdown';
import { link, renderAttachments } from './attachments';
import { copyButton, decorateCodeBlocks } from './codeBlocks';
import type { CodeShown } from './message';
import { renderRaw } from './rich';
import { visible } from './visible';

const KIND_ICON: Record<ToolKind, string> = {
  read: 'eye',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'cloud-download',
  switch_mode: 'arrow-both',
  other: 'tools',
};
const STATUS_LABEL = { pending: 'Pending', in_progress: 'Running', completed: 'Done', failed: 'Failed' } as const;
const STATUS_ICON = {
  pending: 'circle-large-outline',
  in_progress: 'loading',
  completed: 'check',
  failed: 'error',
} as const;

const MAX_OUTPUT_CHARS = 20_000;
const MAX_DIFF_ROWS = 400;

const textCache = new WeakMap<object, DocumentFragment>();
const diffCache = new WeakMap<object, DiffRow[]>();

/** `rawOpen` says whether the reader left a raw section open (it survives re-renders). */
export function renderToolCall(
  entry: ToolCallEntry,
  rawOpen: (which: 'input' | 'output') => boolean = () => false,
  codeShown: CodeShown = () => {},
): HTMLElement {
  const card = el('div', `tool tool-${entry.status}`);
  const header = el('div', 'tool-header');
  const status = el('span', `tool-status status-${entry.status}`);
  status.append(
    icon(
      STATUS_ICON[entry.status] ?? 'circle-large-outline',
      entry.status === 'in_progress' ? 'codicon-modifier-spin' : '',
    ),
    STATUS_LABEL[entry.status] ?? entry.status,
  );
  const kind = el('span', 'tool-kind');
  kind.title = entry.kind;
  kind.append(icon(KIND_ICON[entry.kind] ?? KIND_ICON.other));
  header.append(kind, el('span', 'tool-title', visible(entry.title || entry.kind)), status);
  card.append(header);
  entry.content.forEach((content, index) => {
    const node = renderContent(entry, content, index, codeShown);
    if (node) card.append(node);
  });
  // Some tools report only here (a result only in rawOutput): without these the card is empty.
  // Without content or output yet, the input is what says what the tool will do (a command, a
  // URL): it opens, so a permission card's user sees it before approving.
  const inputSaysAll = entry.content.length === 0 && entry.rawOutput == null;
  if (entry.rawInput != null)
    card.append(renderRaw('Input', entry.rawInput, 'input', rawOpen('input') || inputSaysAll));
  if (entry.rawOutput != null) card.append(renderRaw('Output', entry.rawOutput, 'output', rawOpen('output')));
  if (entry.locations.length) {
    const locations = el('div', 'tool-locations');
    for (const location of entry.locations) {
      const label = location.line ? `${location.path}:${location.line}` : location.path;
      const anchor = bindAction(
        el('a', 'location', visible(label)),
        location.line
          ? { kind: 'openLocation', path: location.path, line: location.line }
          : { kind: 'openLocation', path: location.path },
      );
      anchor.setAttribute('href', '#');
      locations.append(anchor);
    }
    card.append(locations);
  }
  return card;
}

function renderContent(
  entry: ToolCallEntry,
  content: ToolCallContent,
  index: number,
  codeShown: CodeShown,
): HTMLElement | undefined {
  switch (content.type) {
    case 'content': {
      if (content.content.type !== 'text') return renderAttachments([content.content]);
      const source = cachedText(content.content, content.content.text);
      const node = contentBlock('md tool-text', source);
      decorateCodeBlocks(node);
      codeShown(source);
      return node;
    }
    case 'diff':
      return renderDiff(content, index);
    case 'terminal': {
      const output = entry.terminalOutput?.[content.terminalId];
      const box = el('div', 'terminal copyable');
      const text = output?.output ?? '';
      const cut = text.length > MAX_OUTPUT_CHARS;
      box.append(
        el(
          'pre',
          'terminal-output copy-source',
          (output?.truncated || cut ? '…\n' : '') + text.slice(-MAX_OUTPUT_CHARS),
        ),
      );
      if (text) box.append(copyButton('Copy output'));
      // A command ends with a code or, killed, by a signal (then the code is null).
      const exit = output?.signal
        ? `killed by ${output.signal}`
        : typeof output?.exitCode === 'number'
          ? `exit code ${output.exitCode}`
          : '';
      if (exit) box.append(el('div', 'terminal-exit', exit));
      return box;
    }
    default:
      return undefined;
  }
}

function cachedText(key: object, text: string): DocumentFragment {
  let html = textCache.get(key);
  if (html === undefined) {
    html = renderMarkdown(text.length > MAX_OUTPUT_CHARS ? text.slice(0, MAX_OUTPUT_CHARS) + '\n\n…' : text);
    textCache.set(key, html);
  }
  return html;
}

function renderDiff(content: ToolCallContent & { type: 'diff' }, contentIndex: number): HTMLElement {
  const { path } = content;
  let rows = diffCache.get(content);
  if (!rows) {
    rows = withContext(diffLines(content.oldText ?? '', content.newText));
    diffCache.set(content, rows);
  }
  const box = el('div', 'diff');
  const header = el('div', 'diff-header');
  header.append(
    link(path, visible(path)),
    actionButton('Open diff', { kind: 'openDiff', contentIndex }, 'button secondary small'),
  );
  box.append(header);
  const body = el('pre', 'diff-body');
  for (const row of rows.slice(0, MAX_DIFF_ROWS)) {
    if (row.op === 'skip') {
      body.append(el('div', 'diff-skip', `⋯ ${row.count} unchanged line${row.count === 1 ? '' : 's'}`));
    } else {
      body.append(
        el(
          'div',
          row.op === '+' ? 'diff-add' : row.op === '-' ? 'diff-del' : 'diff-ctx',
          visible(`${row.op} ${row.text}`),
        ),
      );
    }
  }
  if (rows.length > MAX_DIFF_ROWS)
    body.append(el('div', 'diff-skip', `⋯ ${rows.length - MAX_DIFF_ROWS} more rows — open the diff`));
  box.append(body);
  return box;
}
