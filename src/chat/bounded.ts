/**
 * Bounds on what an agent sends that the thread keeps and the panel is sent: free-form JSON
 * (`rawInput`, `rawOutput`, `_meta`, a custom variant's payload) may be nested arbitrarily deep
 * or be arbitrarily large. A value nested 20,000 deep survives JSON.parse but not the
 * serialisation of every message to the panel after it: the chat would never show its history.
 * Within the bounds a value is kept as it is (not copied); past them, a copy is cut.
 */

/** Nesting kept below the point where free-form JSON starts. */
export const MAX_VALUE_DEPTH = 32;
/** Characters (about) kept of one free-form value: far more than the panel shows of one. */
export const MAX_VALUE_CHARS = 256 * 1024;
/** Nesting of an update's own structure: none has more than a handful of levels. */
const MAX_UPDATE_DEPTH = 12;
/** What a cut part of a value becomes. */
export const CUT_MARK = '…';
/** Keys whose values are the agent's free-form JSON. */
const FREE_FORM = new Set(['rawInput', 'rawOutput', '_meta']);

type Rec = Record<string, unknown>;
const isObject = (v: unknown): v is Rec | unknown[] => typeof v === 'object' && v !== null;

/**
 * `value`, or a copy cut to `maxDepth` levels and about `maxChars` characters: deeper parts
 * become `CUT_MARK`, long strings are shortened, and members past the budget are left out.
 */
export function boundedValue(value: unknown, maxDepth = MAX_VALUE_DEPTH, maxChars = MAX_VALUE_CHARS): unknown {
  if (fits(value, maxDepth, maxChars)) return value;
  let budget = maxChars;
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const kept = v.length > budget ? `${v.slice(0, Math.max(0, budget))}${CUT_MARK}` : v;
      budget -= kept.length;
      return kept;
    }
    budget -= 8;
    if (!isObject(v)) return v;
    if (depth >= maxDepth) return CUT_MARK;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const item of v) {
        if (budget <= 0) {
          out.push(CUT_MARK);
          break;
        }
        out.push(copy(item, depth + 1));
      }
      return out;
    }
    const out: Rec = {};
    for (const key of Object.keys(v)) {
      if (budget <= 0) {
        // An own property, so a key such as `__proto__` stays data.
        Object.defineProperty(out, CUT_MARK, { value: CUT_MARK, enumerable: true, writable: true, configurable: true });
        break;
      }
      budget -= key.length;
      Object.defineProperty(out, key, {
        value: copy(v[key], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return copy(value, 0);
}

/** Whether a value is within the bounds, walked without recursion and given up at the first excess. */
function fits(value: unknown, maxDepth: number, maxChars: number): boolean {
  if (!isObject(value)) return typeof value !== 'string' || value.length <= maxChars;
  let chars = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') chars += v.length;
    else chars += 8;
    if (chars > maxChars) return false;
    if (!isObject(v)) continue;
    if (depth >= maxDepth) return false;
    if (Array.isArray(v)) for (const item of v) stack.push([item, depth + 1]);
    else
      for (const key of Object.keys(v)) {
        chars += key.length;
        stack.push([v[key], depth + 1]);
      }
  }
  return true;
}

/**
 * An update (or any part of what the thread keeps) with its free-form values bounded, and its
 * structure no deeper than updates go. Unchanged, and not copied, when nothing exceeds.
 */
export function boundedUpdate<T>(update: T): T {
  return bound(update, 0) as T;
}

function bound(v: unknown, depth: number): unknown {
  if (!isObject(v)) return v;
  if (depth >= MAX_UPDATE_DEPTH) return CUT_MARK;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((item, i) => {
      const b = bound(item, depth + 1);
      if (b !== item) (out ??= v.slice())[i] = b;
    });
    return out ?? v;
  }
  let out: Rec | undefined;
  for (const key of Object.keys(v)) {
    const item = v[key];
    const b = FREE_FORM.has(key) ? boundedValue(item) : bound(item, depth + 1);
    if (b !== item) {
      out ??= { ...v };
      Object.defineProperty(out, key, { value: b, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? v;
}
