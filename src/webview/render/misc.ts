/** Plans, notices, dividers and permission cards: text only, no Markdown. */
import { changesLabel, unnamedLabel } from '../../protocol/changes';
import type { ChangesEntry, DividerEntry, NoticeEntry, PermissionEntry, PlanEntryView } from '../../protocol/entries';
import { actionButton, el, icon } from '../dom';
import { visible } from './visible';

const PLAN_ICON = { pending: 'circle-large-outline', in_progress: 'circle-large-filled', completed: 'pass' } as const;

export function renderPlan(entry: PlanEntryView): HTMLElement {
  const box = el('div', 'plan');
  const done = entry.entries.filter((item) => item.status === 'completed').length;
  box.append(el('div', 'plan-header', `Plan · ${done}/${entry.entries.length}`));
  const list = el('ul', 'plan-list');
  for (const item of entry.entries) {
    const row = el('li', `plan-item plan-${item.status} priority-${item.priority}`);
    const check = el('span', 'plan-check');
    check.append(icon(PLAN_ICON[item.status] ?? PLAN_ICON.pending));
    row.append(check, el('span', 'plan-text', item.content));
    list.append(row);
  }
  box.append(list);
  return box;
}

const NOTICE_ICON = { info: 'info', warning: 'warning', error: 'error' } as const;

export function renderNotice(entry: NoticeEntry): HTMLElement {
  const box = el('div', `notice notice-${entry.severity}`);
  const glyph = el('span', 'notice-glyph');
  glyph.append(icon(NOTICE_ICON[entry.severity] ?? 'info'));
  box.append(glyph);
  const text = el('div', 'notice-text');
  text.append(el('div', 'notice-title', entry.title));
  if (entry.description) text.append(el('div', 'notice-description', entry.description));
  box.append(text);
  return box;
}

/** A turn's changes: one compact row that opens the turn's diff; files no tool call named are marked. */
export function renderChanges(entry: ChangesEntry): HTMLElement {
  const box = el('div', 'changes');
  const open = actionButton(changesLabel(entry), { kind: 'openChanges' }, 'button link small changes-open');
  open.title = 'Open what this turn changed in the diff editor';
  box.append(icon('diff'), open);
  const unnamed = unnamedLabel(entry);
  if (unnamed) {
    const mark = el('span', 'changes-unnamed', unnamed);
    mark.title = `Changed during the turn, named by no tool call (a command, the agent's own process, or you):\n${entry.unnamed.join('\n')}`;
    box.append(mark);
  }
  return box;
}

export function renderDivider(entry: DividerEntry): HTMLElement {
  const box = el('div', 'divider');
  box.setAttribute('role', 'separator');
  box.append(el('span', 'divider-text', entry.text));
  if (entry.retry) box.append(actionButton('Retry', { kind: 'retry' }, 'button link small'));
  return box;
}

/** `pending`: request ids the user answered whose answer the host has not confirmed yet. */
export function renderPermission(entry: PermissionEntry, pending: ReadonlySet<string>): HTMLElement {
  const answered = entry.outcome !== undefined;
  const card = el('div', `permission${answered ? ' answered' : ''}`);
  card.append(el('div', 'permission-title', visible(entry.title || 'The agent asks for permission')));
  if (entry.outcome === 'cancelled') {
    card.append(el('div', 'permission-outcome', 'Cancelled'));
    return card;
  }
  if (entry.outcome) {
    const chosen = entry.options.find((option) => option.optionId === (entry.outcome as { optionId: string }).optionId);
    const outcome = el('div', `permission-outcome kind-${chosen?.kind ?? 'unknown'}`);
    outcome.append(icon('check'), visible(chosen?.name ?? entry.outcome.optionId));
    card.append(outcome);
    return card;
  }
  const buttons = el('div', 'permission-options');
  const waiting = pending.has(entry.requestId);
  for (const option of entry.options) {
    const primary = option.kind === 'allow_once' || option.kind === 'allow_always';
    const button = actionButton(
      visible(option.name),
      { kind: 'answerPermission', requestId: entry.requestId, optionId: option.optionId },
      `button ${primary ? 'primary' : 'secondary'} kind-${option.kind}`,
    );
    button.disabled = waiting;
    buttons.append(button);
  }
  // Dismissing answers "cancelled", as closing the panel would.
  const dismiss = actionButton(
    'Dismiss',
    { kind: 'answerPermission', requestId: entry.requestId, optionId: null },
    'button link',
  );
  dismiss.disabled = waiting;
  buttons.append(dismiss);
  card.append(buttons);
  return card;
}
