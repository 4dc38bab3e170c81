/** Any thread entry to its DOM node. */
import type { PanelEntry, ThreadEntry } from '../../protocol/entries';
import { el } from '../dom';
import type { StreamSplitter } from '../streamSplit';
import { renderElicitation, type ElicitationContext } from './elicitation';
import { renderMessage, type CodeShown } from './message';
import { renderChanges, renderDivider, renderNotice, renderPermission, renderPlan } from './misc';
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
  /** The height an entry not yet measured is given. */
  estimate(entry: PanelEntry): number;
}

export function renderEntry(entry: PanelEntry, index: number, context: EntryContext): HTMLElement {
  const node = el('div', `entry entry-${entry.type}`);
  node.dataset.index = String(index);
  // A stub holds its place at the estimated height until the host sends the entry.
  if (entry.type === 'stub') {
    node.setAttribute('aria-busy', 'true');
    node.style.height = `${context.estimate(entry)}px`;
  } else node.append(inner(entry, index, context));
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
    case 'changes':
      return renderChanges(entry);
    default:
      // An entry kind newer than this webview: show that something is there.
      return el('div', 'notice notice-info', `Unsupported entry: ${String((entry as { type?: unknown }).type)}`);
  }
}

function codeShown(context: EntryContext, index: number): CodeShown {
  return (source) => context.codeShown(index, source);
}
