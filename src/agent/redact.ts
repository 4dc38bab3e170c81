import type { Logger } from './log';
import { isRecord } from './validate';

/**
 * What must never reach the log: the values of an agent's `env`, secrets resolved from
 * `${secret:…}`, and the values of MCP servers' `env` and `headers` entries. One redactor per
 * agent connection; the wire tap, the process's stderr and the error texts all go through it.
 */

/** Shorter values would blank out ordinary words and numbers all over the log. */
const MIN_SECRET_LENGTH = 4;
const MASK = '[redacted]';
const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|authorization|cookie|credential/i;
/** A JSON string field at the very end of a text cut short: `"key":"value…` without its closing quote. */
const OPEN_FIELD = /"([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*"((?:[^"\\]|\\.)*)$/;
/** The longest line the log takes; the rest of a longer one is cut (after it was redacted). */
export const MAX_LOG_LINE = 20_000;

export class Redactor {
  private readonly values = new Set<string>();
  /** The forms a value takes in text: as it is, and escaped inside a JSON string. */
  private forms: string[] = [];

  constructor(values: Iterable<string> = []) {
    this.add(values);
  }

  /** Adds values to hide from now on (secrets resolved later: MCP env and headers). */
  add(values: Iterable<string>): void {
    let changed = false;
    for (const v of values) {
      if (typeof v !== 'string' || v.length < MIN_SECRET_LENGTH || this.values.has(v)) continue;
      this.values.add(v);
      changed = true;
    }
    if (!changed) return;
    const forms = new Set<string>();
    for (const v of this.values) {
      forms.add(v);
      forms.add(JSON.stringify(v).slice(1, -1));
    }
    // Longest first, so a value that contains another is hidden whole.
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** The length of the longest form of a value to hide (0 when there is none). */
  get longest(): number {
    return this.forms[0]?.length ?? 0;
  }

  /** The values hidden (the session library masks the same ones in what it keeps). */
  get secrets(): string[] {
    return [...this.values];
  }

  /** Whether `value` is one of the values to hide. */
  has(value: string): boolean {
    return this.values.has(value);
  }

  /** Any text (a stderr line, an agent's error message): every known value masked. */
  text(s: string): string {
    let out = s;
    for (const f of this.forms) if (out.includes(f)) out = out.split(f).join(MASK);
    return out;
  }

  /**
   * A JSON text of a message: known values masked, and fields whose key looks like a secret
   * (`token`, `apiKey`, `authorization`…) masked whatever their value.
   */
  json(s: string): string {
    const keyed = s
      .replace(/"([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*"((?:[^"\\]|\\.)*)"/g, (whole, key: string) =>
        SECRET_KEY.test(key) ? `"${key}":"${MASK}"` : whole,
      )
      .replace(OPEN_FIELD, (whole, key: string) => (SECRET_KEY.test(key) ? `"${key}":"${MASK}` : whole));
    return this.text(keyed);
  }

  /**
   * At most `max` characters of `s` (then `…`), with every value masked: redacted before it is
   * cut, so a value across the cut is never left half visible, whatever the text's length. Only
   * the head is read, with room for the longest value after it, and a value's beginning at the
   * very end of that head is masked too (its rest lay beyond).
   */
  cut(s: string, max: number, asJson = false): string {
    const redact = (t: string) => (asJson ? this.json(t) : this.text(t));
    if (s.length <= max) return redact(s);
    const head = redact(this.maskCutValue(s.slice(0, max + this.longest)));
    return `${head.length > max ? head.slice(0, max) : head}…`;
  }

  /** `s` with the beginning of a value at its very end masked. */
  private maskCutValue(s: string): string {
    let from = s.length;
    for (const f of this.forms) {
      const start = Math.max(0, s.length - f.length + 1);
      for (let i = s.indexOf(f[0]!, start); i !== -1 && i < from; i = s.indexOf(f[0]!, i + 1)) {
        if (f.startsWith(s.slice(i))) {
          from = i;
          break;
        }
      }
    }
    return from < s.length ? s.slice(0, from) + MASK : s;
  }

  /** Unknown data (an error's `data`): masked through its JSON, unchanged when it holds nothing to hide. */
  data(d: unknown): unknown {
    if (d === undefined || d === null || this.values.size === 0) return d;
    let json: string | undefined;
    try {
      json = JSON.stringify(d);
    } catch {
      return undefined;
    }
    if (json === undefined) return d;
    const masked = this.text(json);
    return masked === json ? d : (JSON.parse(masked) as unknown);
  }
}

interface NameValue {
  name: string;
  value: string;
}

/**
 * The `{ name, value }` entries of MCP servers' `env` and `headers` in a message's params
 * (`session/new`, `load`, `resume`…). They are typed into settings as they are, so any of
 * them may be a key: their values are always hidden.
 */
export function mcpValues(message: unknown): string[] {
  const servers = isRecord(message) && isRecord(message.params) ? message.params.mcpServers : undefined;
  if (!Array.isArray(servers)) return [];
  const out: string[] = [];
  for (const s of servers) {
    if (!isRecord(s)) continue;
    for (const list of [s.env, s.headers]) {
      if (!Array.isArray(list)) continue;
      for (const p of list as Partial<NameValue>[]) if (isRecord(p) && typeof p.value === 'string') out.push(p.value);
    }
  }
  return out;
}

/** A copy of a message whose MCP `env` and `headers` values are masked (short ones too). */
export function withoutMcpValues<T>(message: T): T {
  const m = message as unknown;
  if (!isRecord(m) || !isRecord(m.params) || !Array.isArray(m.params.mcpServers)) return message;
  const mask = (list: unknown) =>
    Array.isArray(list) ? list.map((p) => (isRecord(p) && 'value' in p ? { ...p, value: MASK } : p)) : list;
  const mcpServers = m.params.mcpServers.map((s) => {
    if (!isRecord(s)) return s;
    const copy: Record<string, unknown> = { ...s };
    if ('env' in s) copy.env = mask(s.env);
    if ('headers' in s) copy.headers = mask(s.headers);
    return copy;
  });
  return { ...m, params: { ...m.params, mcpServers } } as T;
}

/**
 * A logger whose every line has the redactor's values masked (and is cut at {@link MAX_LOG_LINE}
 * after that): whatever route a string from the agent takes to the log, it passes here.
 */
export function redactingLogger(logger: Logger, redactor: Redactor, maxLine = MAX_LOG_LINE): Logger {
  const clean = (m: string) => redactor.cut(m, maxLine);
  return {
    get logLevel() {
      return logger.logLevel;
    },
    trace: (m) => logger.trace(clean(m)),
    debug: (m) => logger.debug(clean(m)),
    info: (m) => logger.info(clean(m)),
    warn: (m) => logger.warn(clean(m)),
    error: (m) => logger.error(clean(typeof m === 'string' ? m : m.message)),
  };
}
