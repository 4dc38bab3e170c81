/**
 * Elicitation forms (`elicitation/create`, mode "form"): the agent's schema read into fields,
 * and the user's input checked and turned into the `content` of an accept. The webview uses it
 * to show validation messages as the user submits; the host uses it again on what the webview
 * sent, so only content that matches the schema ever reaches the agent.
 * Shared by both sides: no vscode, no DOM, no node.
 */
import type { ElicitationContentValue } from '@agentclientprotocol/sdk';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'select' | 'multiselect' | 'unsupported';
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

export interface FieldOption {
  value: string;
  label: string;
  description?: string;
}

/** One property of the requested schema, as the form shows it. */
export interface FormField {
  key: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  format?: StringFormat;
  options?: FieldOption[];
  /** What the form starts with, in its raw form (see {@link RawValue}). */
  initial: RawValue;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** What a form control holds: text (also numbers as typed, and single choices), a checkbox, or the ticked choices. */
export type RawValue = string | boolean | string[];

export interface FormResult {
  /** The accept's content: filled fields only, typed as the schema says. */
  content: Record<string, ElicitationContentValue>;
  /** A message per field that is not valid; empty when the form may be sent. */
  errors: Record<string, string>;
}

/** A schema of more properties than this is cut short: no agent needs a form that long. */
const MAX_FIELDS = 50;
const MAX_OPTIONS = 200;
const FORMATS = new Set<string>(['email', 'uri', 'date', 'date-time']);

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets an own property: a field named `__proto__` must stay a field, not change the object. */
function put<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function options(list: unknown, valueKey: 'const' | undefined): FieldOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: FieldOption[] = [];
  for (const item of list.slice(0, MAX_OPTIONS)) {
    if (valueKey === undefined) {
      if (typeof item === 'string') out.push({ value: item, label: item });
    } else if (isRec(item) && typeof item.const === 'string') {
      const description = text(item.description);
      out.push({ value: item.const, label: text(item.title) ?? item.const, ...(description ? { description } : {}) });
    }
  }
  return out;
}

/** Reads the agent's schema (untrusted: anything malformed becomes an unsupported field or is skipped). */
export function formFields(schema: unknown): FormField[] {
  if (!isRec(schema) || !isRec(schema.properties)) return [];
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [],
  );
  const fields: FormField[] = [];
  for (const [key, raw] of Object.entries(schema.properties).slice(0, MAX_FIELDS)) {
    const p = isRec(raw) ? raw : {};
    const description = text(p.description);
    const base = {
      key,
      label: text(p.title) || key,
      required: required.has(key),
      ...(description ? { description } : {}),
    };
    const dflt = p.default;
    switch (p.type) {
      case 'string': {
        const choices = options(p.oneOf, 'const') ?? options(p.enum, undefined);
        if (choices) {
          fields.push({
            ...base,
            kind: 'select',
            options: choices,
            initial: typeof dflt === 'string' && choices.some((c) => c.value === dflt) ? dflt : '',
          });
          break;
        }
        const format = typeof p.format === 'string' && FORMATS.has(p.format) ? (p.format as StringFormat) : undefined;
        fields.push({
          ...base,
          kind: 'string',
          initial: typeof dflt === 'string' ? dflt : '',
          ...(format ? { format } : {}),
          ...limits(p, ['minLength', 'maxLength']),
        });
        break;
      }
      case 'number':
      case 'integer':
        fields.push({
          ...base,
          kind: p.type,
          initial: count(dflt) !== undefined ? String(dflt) : '',
          ...limits(p, ['minimum', 'maximum']),
        });
        break;
      case 'boolean':
        fields.push({ ...base, kind: 'boolean', initial: dflt === true });
        break;
      case 'array': {
        const items = isRec(p.items) ? p.items : {};
        const choices = options(items.anyOf, 'const') ?? options(items.enum, undefined);
        if (!choices) {
          fields.push({ ...base, kind: 'unsupported', initial: '' });
          break;
        }
        const initial = Array.isArray(dflt)
          ? dflt.filter((v): v is string => typeof v === 'string' && choices.some((c) => c.value === v))
          : [];
        fields.push({
          ...base,
          kind: 'multiselect',
          options: choices,
          initial,
          ...limits(p, ['minItems', 'maxItems']),
        });
        break;
      }
      default:
        fields.push({ ...base, kind: 'unsupported', initial: '' });
    }
  }
  return fields;
}

function limits<K extends 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems'>(
  p: Rec,
  keys: K[],
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const key of keys) {
    const value = count(p[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** The starting value of every field. */
export function initialValues(fields: readonly FormField[]): Record<string, RawValue> {
  const values: Record<string, RawValue> = {};
  for (const field of fields) put(values, field.key, Array.isArray(field.initial) ? [...field.initial] : field.initial);
  return values;
}

/**
 * Checks the raw input against the fields and builds the content. The schema's `pattern` is
 * never run: it is the agent's regular expression, and one such as `^(a|a)+$` takes twice as
 * long for each character typed, freezing whichever side runs it. The agent checks what it
 * receives.
 */
export function validateForm(fields: readonly FormField[], raw: Readonly<Record<string, unknown>>): FormResult {
  const content: Record<string, ElicitationContentValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = Object.prototype.hasOwnProperty.call(raw, field.key) ? raw[field.key] : undefined;
    const result = check(field, value);
    if (isRec(result)) put(errors, field.key, String(result.error));
    else if (result !== undefined) put(content, field.key, result);
  }
  return { content, errors };
}

type Checked = ElicitationContentValue | undefined | { error: string };

function check(field: FormField, value: unknown): Checked {
  const empty = value === undefined || (typeof value === 'string' && value.trim() === '');
  switch (field.kind) {
    case 'unsupported':
      return field.required ? { error: 'This client cannot fill in this field.' } : undefined;
    case 'boolean':
      if (value === undefined) return field.required ? { error: 'Required.' } : undefined;
      return typeof value === 'boolean' ? value : { error: 'Not a yes or no.' };
    case 'multiselect': {
      if (value === undefined) return field.required ? { error: 'Required.' } : undefined;
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        return { error: 'Not a list of choices.' };
      const chosen = [...new Set(value as string[])];
      if (!chosen.every((v) => field.options!.some((o) => o.value === v))) return { error: 'Choose from the options.' };
      if (field.minItems !== undefined && chosen.length < field.minItems)
        return { error: `Choose at least ${field.minItems}.` };
      if (field.maxItems !== undefined && chosen.length > field.maxItems)
        return { error: `Choose at most ${field.maxItems}.` };
      return chosen;
    }
    default:
      break;
  }
  if (empty) return field.required ? { error: 'Required.' } : undefined;
  if (typeof value !== 'string') return { error: 'Not text.' };
  switch (field.kind) {
    case 'select':
      return field.options!.some((o) => o.value === value) ? value : { error: 'Choose one of the options.' };
    case 'number':
    case 'integer': {
      const n = Number(value.trim());
      if (!Number.isFinite(n)) return { error: 'Enter a number.' };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { error: 'Enter a whole number.' };
      if (field.minimum !== undefined && n < field.minimum) return { error: `At least ${field.minimum}.` };
      if (field.maximum !== undefined && n > field.maximum) return { error: `At most ${field.maximum}.` };
      return n;
    }
    default:
      return checkString(field, value);
  }
}

function checkString(field: FormField, value: string): Checked {
  const length = [...value].length;
  if (field.minLength !== undefined && length < field.minLength)
    return { error: `At least ${field.minLength} characters.` };
  if (field.maxLength !== undefined && length > field.maxLength)
    return { error: `At most ${field.maxLength} characters.` };
  if (field.format && !matchesFormat(field.format, value)) return { error: FORMAT_MESSAGE[field.format] };
  return value;
}

const FORMAT_MESSAGE: Record<StringFormat, string> = {
  email: 'Enter an email address.',
  uri: 'Enter a full address, such as https://example.com.',
  date: 'Enter a date (YYYY-MM-DD).',
  'date-time': 'Enter a date and time.',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URI = /^[a-z][a-z0-9+.-]*:\S+$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** The string formats of the schema (RFC 3339 dates and times, as JSON Schema defines them). */
export function matchesFormat(format: StringFormat, value: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(value);
    case 'uri':
      return URI.test(value);
    case 'date': {
      const m = DATE.exec(value);
      return !!m && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
    }
    case 'date-time': {
      const m = DATE_TIME.exec(value);
      return (
        !!m &&
        validDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
        Number(m[4]) < 24 &&
        Number(m[5]) < 60 &&
        Number(m[6] ?? 0) < 61
      );
    }
  }
}

function validDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
