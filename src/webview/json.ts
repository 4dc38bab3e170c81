/**
 * Pretty-printed JSON with a budget: the printer stops once it has written `max` characters,
 * so a tool's multi-megabyte raw output (or a value nested thousands deep) costs no more than
 * what is shown. The text is always shown as text, never as markup.
 */

/** Deeper levels print as `…`: a hostile value cannot exhaust the stack. */
const MAX_DEPTH = 40;

class Full extends Error {}

export interface BoundedText {
  text: string;
  /** The value went on past what was printed. */
  cut: boolean;
}

/** Strings print as they are (a tool's text output reads better unquoted); anything else as JSON. */
export function boundedJson(value: unknown, max: number): BoundedText {
  if (typeof value === 'string')
    return value.length > max ? { text: value.slice(0, max), cut: true } : { text: value, cut: false };
  let out = '';
  const push = (s: string): void => {
    out += s;
    if (out.length > max) throw new Full();
  };
  const write = (v: unknown, indent: string, depth: number): void => {
    if (v === null || v === undefined) return push('null');
    if (typeof v === 'string') return push(JSON.stringify(v.length > max ? v.slice(0, max) : v));
    if (typeof v === 'number') return push(Number.isFinite(v) ? String(v) : 'null');
    if (typeof v === 'boolean') return push(String(v));
    if (typeof v !== 'object') return push('null');
    const array = Array.isArray(v);
    const keys = array ? undefined : Object.keys(v);
    const size = array ? v.length : keys!.length;
    if (size === 0) return push(array ? '[]' : '{}');
    if (depth >= MAX_DEPTH) return push(array ? '[…]' : '{…}');
    const inner = indent + '  ';
    push(array ? '[\n' : '{\n');
    for (let i = 0; i < size; i++) {
      push(inner);
      if (array) {
        write(v[i], inner, depth + 1);
      } else {
        const key = keys![i]!;
        push(`${JSON.stringify(key)}: `);
        write((v as Record<string, unknown>)[key], inner, depth + 1);
      }
      push(i < size - 1 ? ',\n' : '\n');
    }
    push(indent + (array ? ']' : '}'));
  };
  try {
    write(value, '', 0);
    return { text: out, cut: false };
  } catch (error) {
    if (!(error instanceof Full)) throw error;
    return { text: out.slice(0, max), cut: true };
  }
}
