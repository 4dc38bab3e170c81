/**
 * What the user typed into elicitation cards, kept beside the thread: the thread is
 * virtualised and a card re-renders when its entry changes or scrolls back into view, so the
 * controls cannot hold the only copy. Submitting checks the input with the schema's rules and
 * shows each field's message in place (no re-render: the focus stays where it is).
 */
import { formFields, validateForm, type FormField, type RawValue } from '../protocol/elicitation';
import type { ElicitationEntry, ElicitationOutcome } from '../protocol/entries';
import type { AnswerElicitationParams } from '../protocol/messages';
import type { ElicitationContext } from './render/elicitation';

export class ElicitationForms {
  private readonly fieldsOf = new Map<string, FormField[]>();
  private readonly drafts = new Map<string, Map<string, RawValue>>();
  private readonly errorsOf = new Map<string, Map<number, string>>();

  constructor(readonly pending: ReadonlySet<string>) {}

  /** What the cards read while rendering. */
  get context(): ElicitationContext {
    return {
      values: (entry, fields) => this.draft(entry, fields),
      errors: (requestId) => this.errorsOf.get(requestId),
      pending: this.pending,
    };
  }

  /** A control in a card changed: keep its value. */
  changed(control: HTMLElement, entry: ElicitationEntry): void {
    const fields = this.fields(entry);
    const index = Number(control.dataset.fieldIndex);
    const field = fields[index];
    const card = control.closest<HTMLElement>('.elicitation');
    if (!field || !card) return;
    this.draft(entry, fields).set(field.key, read(card, field, index));
  }

  /**
   * The answer a button asks for, or undefined when the form is not valid yet (its messages are
   * then shown and the first invalid control focused).
   */
  answer(card: HTMLElement, entry: ElicitationEntry, action: ElicitationOutcome): AnswerElicitationParams | undefined {
    if (action !== 'accept' || entry.mode !== 'form') return { requestId: entry.requestId, action };
    const fields = this.fields(entry);
    const values: Record<string, RawValue> = {};
    fields.forEach((field, index) => {
      if (field.kind === 'unsupported') return;
      let value = read(card, field, index);
      // A datetime-local control holds local time without a zone; the schema wants RFC 3339.
      if (field.format === 'date-time' && typeof value === 'string' && value) value = toUtc(value);
      Object.defineProperty(values, field.key, { value, enumerable: true, writable: true, configurable: true });
    });
    const { errors } = validateForm(fields, values);
    const byIndex = new Map<number, string>();
    fields.forEach((field, index) => {
      const message = Object.prototype.hasOwnProperty.call(errors, field.key) ? errors[field.key] : undefined;
      if (message) byIndex.set(index, message);
    });
    this.errorsOf.set(entry.requestId, byIndex);
    showErrors(card, byIndex);
    return byIndex.size === 0 ? { requestId: entry.requestId, action, values } : undefined;
  }

  /** The card was answered or the thread started over: its input is no longer needed. */
  forget(requestId: string): void {
    this.fieldsOf.delete(requestId);
    this.drafts.delete(requestId);
    this.errorsOf.delete(requestId);
  }

  clear(): void {
    this.fieldsOf.clear();
    this.drafts.clear();
    this.errorsOf.clear();
  }

  private fields(entry: ElicitationEntry): FormField[] {
    let fields = this.fieldsOf.get(entry.requestId);
    if (!fields) this.fieldsOf.set(entry.requestId, (fields = formFields(entry.schema)));
    return fields;
  }

  private draft(entry: ElicitationEntry, fields: readonly FormField[]): Map<string, RawValue> {
    let draft = this.drafts.get(entry.requestId);
    if (!draft) {
      draft = new Map(fields.map((f) => [f.key, Array.isArray(f.initial) ? [...f.initial] : f.initial]));
      this.drafts.set(entry.requestId, draft);
    }
    return draft;
  }
}

/** A field's value as its controls in the card hold it. */
function read(card: HTMLElement, field: FormField, index: number): RawValue {
  const controls = [
    ...card.querySelectorAll<HTMLInputElement | HTMLSelectElement>(`.elicitation-input[data-field-index="${index}"]`),
  ];
  if (field.kind === 'multiselect') {
    return controls
      .filter((c) => (c as HTMLInputElement).checked)
      .map((c) => field.options?.[Number(c.dataset.choiceIndex)]?.value ?? '')
      .filter(Boolean);
  }
  const control = controls[0];
  if (!control) return field.initial;
  if (field.kind === 'boolean') return (control as HTMLInputElement).checked;
  return control.value;
}

function toUtc(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

function showErrors(card: HTMLElement, errors: ReadonlyMap<number, string>): void {
  let first: HTMLElement | undefined;
  for (const box of card.querySelectorAll<HTMLElement>('.elicitation-field')) {
    const index = Number(box.dataset.fieldIndex);
    const message = errors.get(index);
    box.classList.toggle('invalid', !!message);
    const slot = box.querySelector('.field-error');
    if (slot) slot.textContent = message ?? '';
    box.querySelector('.elicitation-input')?.setAttribute('aria-invalid', String(!!message));
    if (message && !first) first = box.querySelector<HTMLElement>('.elicitation-input') ?? undefined;
  }
  first?.focus();
}
