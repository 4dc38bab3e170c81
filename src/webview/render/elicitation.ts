/**
 * Elicitation cards: a form built from the agent's schema, or a web address to open. Every
 * label, description, option and message is agent text and goes in as text; controls are
 * addressed by position (`data-field-index`), so no agent string ever lands in an attribute
 * name, a selector or markup. The page never opens the address: Open asks the host, which
 * goes through VS Code's own confirmation.
 */
import { formFields, type FormField, type RawValue } from '../../protocol/elicitation';
import type { ElicitationEntry } from '../../protocol/entries';
import { parseWebAddress } from '../../protocol/webAddress';
import { actionButton, el, icon, option } from '../dom';
import { visible } from './visible';

export interface ElicitationContext {
  /** The values the form shows: what the user typed so far, else the defaults. */
  values(entry: ElicitationEntry, fields: readonly FormField[]): ReadonlyMap<string, RawValue>;
  /** Validation messages from the last submit, by field index. */
  errors(requestId: string): ReadonlyMap<number, string> | undefined;
  /** Answered here, the host has not confirmed yet: the buttons wait. */
  pending: ReadonlySet<string>;
}

const MAX_URL_SHOWN = 500;
/** The accept button's classes; Enter in a field clicks it (`ELICIT_ACCEPT_SELECTOR`). */
const ACCEPT = 'button primary elicitation-accept';
export const ELICIT_ACCEPT_SELECTOR = '.elicitation-accept';
const OUTCOME_TEXT = { accept: 'Submitted', decline: 'Declined', cancel: 'Cancelled' } as const;

export function renderElicitation(entry: ElicitationEntry, context: ElicitationContext): HTMLElement {
  const answered = entry.outcome !== undefined || entry.completed === true;
  const card = el('div', `elicitation elicitation-${entry.mode}${answered ? ' answered' : ''}`);
  card.setAttribute('role', 'group');
  const header = el('div', 'elicitation-header');
  header.append(
    icon(entry.mode === 'url' ? 'link-external' : 'comment-discussion'),
    el(
      'span',
      'elicitation-title',
      entry.mode === 'url' ? 'The agent asks you to open a web page' : 'The agent asks for some details',
    ),
  );
  card.append(header);
  if (entry.message) card.append(el('div', 'elicitation-message', visible(entry.message)));
  if (entry.mode === 'url') card.append(renderAddress(entry.url ?? ''));
  if (answered) {
    card.append(outcome(entry));
    return card;
  }
  const waiting = context.pending.has(entry.requestId);
  let canAccept = true;
  if (entry.mode === 'form') {
    const fields = formFields(entry.schema);
    const description = (entry.schema as { description?: unknown } | undefined)?.description;
    if (typeof description === 'string' && description) card.append(el('div', 'elicitation-description', description));
    const values = context.values(entry, fields);
    const errors = context.errors(entry.requestId);
    const list = el('div', 'elicitation-fields');
    fields.forEach((field, index) =>
      list.append(renderField(field, index, values.get(field.key) ?? field.initial, errors?.get(index), waiting)),
    );
    card.append(list);
  } else {
    canAccept = parseWebAddress(entry.url).ok;
  }
  const actions = el('div', 'elicitation-actions');
  const requestId = entry.requestId;
  const buttons = [
    ...(canAccept
      ? [
          actionButton(
            entry.mode === 'url' ? 'Open' : 'Submit',
            { kind: 'elicit', requestId, choice: 'accept' },
            ACCEPT,
          ),
        ]
      : []),
    actionButton('Decline', { kind: 'elicit', requestId, choice: 'decline' }, 'button secondary'),
    actionButton('Cancel', { kind: 'elicit', requestId, choice: 'cancel' }, 'button link'),
  ];
  for (const button of buttons) button.disabled = waiting;
  actions.append(...buttons);
  card.append(actions);
  return card;
}

function outcome(entry: ElicitationEntry): HTMLElement {
  const node = el('div', 'elicitation-outcome');
  if (entry.completed) node.append(icon('pass'), 'Completed');
  else if (entry.mode === 'url' && entry.outcome === 'accept')
    node.append(icon('loading', 'codicon-modifier-spin'), 'Opened in your browser — waiting for the agent…');
  else
    node.append(
      icon(entry.outcome === 'accept' ? 'check' : 'circle-slash'),
      OUTCOME_TEXT[entry.outcome ?? 'cancel'] ?? 'Answered',
    );
  return node;
}

/**
 * The site first and large (the host as the browser will see it: an international name shows
 * in its punycode form, so a look-alike cannot pass for the real one), then the full address, as
 * the one parse the host opens (see `parseWebAddress`); an address it will not open says why.
 */
function renderAddress(raw: string): HTMLElement {
  const box = el('div', 'elicitation-address');
  const address = parseWebAddress(raw);
  const site = el('div', 'elicitation-site');
  if (address.ok) {
    site.append(icon(address.secure ? 'lock' : 'unlock'), el('span', 'elicitation-host', address.host));
    if (!address.secure) site.append(el('span', 'elicitation-insecure', 'not secure (http)'));
  } else {
    site.append(icon('warning'), el('span', 'elicitation-insecure', `${address.reason} It cannot be opened.`));
  }
  const shown = address.ok ? address.href : raw;
  const full = shown.length > MAX_URL_SHOWN ? `${shown.slice(0, MAX_URL_SHOWN)}…` : shown;
  box.append(site, el('div', 'elicitation-url', visible(full)));
  return box;
}

const INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

function renderField(
  field: FormField,
  index: number,
  value: RawValue,
  error: string | undefined,
  disabled: boolean,
): HTMLElement {
  const box = el('div', `elicitation-field field-${field.kind}${error ? ' invalid' : ''}`);
  box.dataset.fieldIndex = String(index);
  const label = el('label', 'field-label');
  const name = el('span', 'field-name', field.label);
  if (field.required) name.append(el('span', 'field-required', ' *'));
  let control: HTMLElement | undefined;
  switch (field.kind) {
    case 'boolean': {
      const check = input('checkbox', index, disabled);
      check.checked = value === true;
      label.append(check, name);
      control = check;
      break;
    }
    case 'select': {
      const select = el('select', 'elicitation-input');
      select.dataset.fieldIndex = String(index);
      select.disabled = disabled;
      select.append(option('', field.required ? 'Choose…' : '—'));
      for (const choice of field.options ?? []) select.append(option(choice.value, choice.label, choice.description));
      select.value = typeof value === 'string' ? value : '';
      label.append(name, select);
      control = select;
      break;
    }
    case 'multiselect': {
      const chosen = new Set(Array.isArray(value) ? value : []);
      const group = el('div', 'field-choices');
      (field.options ?? []).forEach((choice, choiceIndex) => {
        const item = el('label', 'field-choice');
        const check = input('checkbox', index, disabled);
        check.dataset.choiceIndex = String(choiceIndex);
        check.checked = chosen.has(choice.value);
        item.append(check, el('span', undefined, choice.label));
        if (choice.description) item.title = choice.description;
        group.append(item);
      });
      box.append(name, group);
      control = group;
      break;
    }
    case 'unsupported':
      label.append(name, el('span', 'field-unsupported', 'This client cannot show this field.'));
      break;
    default: {
      const text = input(
        field.kind === 'string' ? (field.format ? INPUT_TYPE[field.format] : 'text') : 'number',
        index,
        disabled,
      );
      if (field.kind !== 'string') {
        text.step = field.kind === 'integer' ? '1' : 'any';
        if (field.minimum !== undefined) text.min = String(field.minimum);
        if (field.maximum !== undefined) text.max = String(field.maximum);
      }
      const shown = typeof value === 'string' ? value : '';
      text.value = field.format === 'date-time' ? toLocalInput(shown) : shown;
      label.append(name, text);
      control = text;
    }
  }
  if (field.kind !== 'multiselect') box.append(label);
  if (field.description) box.append(el('div', 'field-description', field.description));
  const message = el('div', 'field-error', error ?? '');
  message.setAttribute('role', 'alert');
  box.append(message);
  control?.setAttribute('aria-invalid', String(!!error));
  return box;
}

/** A date and time as a `datetime-local` control takes it (local time, minutes); '' when unreadable. */
export function toLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

function input(type: string, index: number, disabled: boolean): HTMLInputElement {
  const node = el('input', 'elicitation-input');
  node.type = type;
  node.dataset.fieldIndex = String(index);
  node.disabled = disabled;
  return node;
}
