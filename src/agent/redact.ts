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
    const keyed = s.replace(/"([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*"((?:[^"\\]|\\.)*)"/g, (whole, key: string) =>
      SECRET_KEY.test(key) ? `"${key}":"${MASK}"` : whole,
    );
    return this.text(keyed);
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
