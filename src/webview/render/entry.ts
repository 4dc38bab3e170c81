/** Any thread entry to its DOM node. */
import type { ThreadEntry } from '../../protocol/entries';
import { el } from '../dom';
import type { StreamSplitter } from '../streamSplit';
import { renderElicitation, type ElicitationContext } from './elicitation';
import { renderMessage, type CodeShown } from './message';
import { renderDivider, renderNotice, renderPermission, renderPlan } from './misc';
import { renderToolCall } from './toolCall';

export interface EntryContext {
  stream(index: number): StreamSplitter | undefined;
  thoughtOpen(index: number): boolean;
  /** Whether the reader opened a tool call's raw input or output. */
  rawOpen(index: number, which: 'input' | 'output'): boolean;
  pendingAnswers: ReadonlySet<string>;
  elicitation: ElicitationContext;
  /** A cached rendering with code was shown for the entry at `index`: it may be highlighted. */
  codeShown(index: number, source: DocumentFragment): void;
}

export function renderEntry(entry: ThreadEntry, index: number, context: EntryContext): HTMLElement {
  const node = el('div', `entry entry-${entry.type}`);
  node.dataset.index = String(index);
  node.append(inner(entry, index, context));
  return node;
}

function inner(entry: ThreadEntry, index: number, context: EntryContext): HTMLElement {
  switch (entry.type) {
    case 'user':
    case 'agent':
    case 'thought':
      return renderMessage(entry, context.stream(index), context.thoughtOpen(index), codeShown(context, index));
    case 'tool':
      return renderToolCall(entry, (which) => context.rawOpen(index, which), codeShown(context, index));
    case 'plan':
      return renderPlan(entry);
    case 'notice':
      return renderNotice(entry);
    case 'divider':
      return renderDivider(entry);
    case 'permission':
      return renderPermission(entry, context.pendingAnswers);
    case 'elicitation':
      return renderElicitation(entry, context.elicitation);
    default:
      // An entry kind newer than this webview: show that something is there.
      return el('div', 'notice notice-info', `Unsupported entry: ${String((entry as { type?: unknown }).type)}`);
  }
}

function codeShown(context: EntryContext, index: number): CodeShown {
  return (source) => context.codeShown(index, source);
}

/** A rough height before the entry is measured, so the scrollbar is about right. */
export function estimateHeight(entry: ThreadEntry, charsPerLine: number): number {
  switch (entry.type) {
    case 'user':
    case 'agent':
      return 28 + 20 * Math.ceil(entry.text.length / charsPerLine) + (entry.type === 'user' ? 20 : 0);
    case 'thought':
      return 32;
    case 'tool':
      return (
        48 +
        Math.min(300, entry.content.length * 80) +
        (entry.locations.length ? 24 : 0) +
        (entry.rawInput !== undefined ? 28 : 0) +
        (entry.rawOutput !== undefined ? 28 : 0)
      );
    case 'plan':
      return 44 + 24 * entry.entries.length;
    case 'notice':
      return 52;
    case 'divider':
      return 36;
    case 'permission':
      return 96;
    case 'elicitation':
      return entry.mode === 'url' ? 150 : 110 + 62 * Object.keys(entry.schema?.properties ?? {}).length;
    default:
      return 40;
  }
}
