import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { Logger, TraceLevel } from './log';
import { LineSplitter } from './ndjson';
import { mcpValues, withoutMcpValues, type Redactor } from './redact';
import { isRecord } from './validate';

/** What the SDK would drop with only a `console.error` (or never see), counted for the log and the UI. */
export interface WireStats {
  /** Lines that were not JSON. */
  notJson: number;
  /** JSON that is not a JSON-RPC message (an array, a number, an object of no known shape). */
  notJsonRpc: number;
  /** Responses to ids we never sent (or already settled). */
  unknownResponses: number;
  /** `session/update` notifications whose kind the SDK does not know. */
  unknownUpdates: number;
  /** `session/update` notifications for a session nobody opened in time, dropped from the router's buffer. */
  droppedUpdates: number;
}

export type DropKind = keyof WireStats;

/** Past this many lines of one kind, further ones are counted but not logged (a flood must not bury the log). */
const LOG_LINES_PER_KIND = 100;

/** Counts each kind of dropped input once and logs it once; `onChange` feeds `onDidDropInput`. */
export class WireCounter {
  readonly stats: WireStats = { notJson: 0, notJsonRpc: 0, unknownResponses: 0, unknownUpdates: 0, droppedUpdates: 0 };
  private readonly logged = new Map<DropKind, number>();

  constructor(
    private readonly logger: Logger,
    private readonly onChange: (stats: WireStats) => void = () => {},
  ) {}

  /** `line` absent: counted only, because a line already told of it. */
  count(kind: DropKind, line: string | undefined, n = 1): void {
    this.stats[kind] += n;
    if (line === undefined) return this.onChange(this.stats);
    const logged = this.logged.get(kind) ?? 0;
    if (logged < LOG_LINES_PER_KIND) this.logger.warn(line);
    else if (logged === LOG_LINES_PER_KIND)
      this.logger.warn(`more input of this kind (${kind}) is counted but no longer logged`);
    this.logged.set(kind, logged + 1);
    this.onChange(this.stats);
  }
}

const KNOWN_UPDATES = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
]);

/** The longest trace line; a 1 MiB reply is not copied into the log whole. */
const TRACE_MAX = 20_000;
/** Text kept past a cut while redacting: longer than any secret. */
const REDACT_MARGIN = 4096;

export interface WireOptions {
  logger: Logger;
  trace: () => TraceLevel;
  redactor: Redactor;
  counter: WireCounter;
  /** The SDK's default (32 MiB) when absent. */
  maxMessageBytes?: number;
}

const isId = (v: unknown) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** How the SDK's connection will treat a parsed line (its own rules, in `receiveUnvalidatedMessage`). */
function classify(m: unknown): 'request' | 'notification' | 'response' | 'invalid' {
  if (!isRecord(m)) return 'invalid';
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.jsonrpc !== '2.0') return 'invalid';
    if (!('id' in m)) return 'notification';
    return isId(m.id) ? 'request' : 'invalid';
  }
  return 'id' in m ? 'response' : 'invalid';
}

/**
 * The ACP stream over the agent's stdio: our own newline-delimited JSON framing (the SDK's
 * `ndJsonStream` answers a line that is not JSON straight to the process, where nothing of
 * ours sees it), with the SDK's 32 MiB line limit. Every line is classified once here, so each
 * kind of bad input is logged once and counted once; the `acp.trace` log is written here too,
 * with MCP `env`/`headers` values and known secrets redacted.
 */
export function wireStream(
  output: WritableStream<Uint8Array>,
  input: ReadableStream<Uint8Array>,
  opts: WireOptions,
): Stream {
  const { logger, redactor, counter } = opts;
  const outstanding = new Set<unknown>();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const splitter = new LineSplitter(opts.maxMessageBytes);

  let writes = Promise.resolve();
  const write = (m: AnyMessage): Promise<void> => {
    const bytes = encoder.encode(JSON.stringify(m) + '\n');
    const next = writes.then(async () => {
      const w = output.getWriter();
      try {
        await w.write(bytes);
      } finally {
        w.releaseLock();
      }
    });
    writes = next.catch(() => {});
    return next;
  };

  const trace = (dir: '→' | '←', m: unknown) => {
    const level = opts.trace();
    if (level === 'off') return;
    const r = isRecord(m) ? m : {};
    const what =
      'method' in r
        ? `${String(r.method)}${'id' in r ? ` #${String(r.id)}` : ''}`
        : `response #${String(r.id)}${'error' in r ? ' (error)' : ''}`;
    if (level === 'messages') return logger.trace(`${dir} ${what}`);
    const full = preview(withoutMcpValues(m), Number.MAX_SAFE_INTEGER);
    const text = shown(full, TRACE_MAX);
    logger.trace(`${dir} ${what} ${full.length > TRACE_MAX ? `${text} (${full.length} characters)` : text}`);
  };
  /** Redacted before it is cut, so a secret across the cut is not left half visible. */
  const shown = (s: string, max = 120) => cut(redactor.json(cut(s, max + REDACT_MARGIN)), max);

  const onLine = (bytes: Uint8Array, controller: TransformStreamDefaultController<AnyMessage>) => {
    const text = decoder.decode(bytes).trim();
    if (!text) return;
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      counter.count('notJson', `ignored a line from the agent that is not JSON: ${shown(text)}`);
      // JSON-RPC answers a parse error with a null id, as the SDK's own reader does.
      void write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }).catch(() => {});
      return;
    }
    trace('←', m);
    const kind = classify(m);
    if (kind === 'invalid') {
      counter.count(
        'notJsonRpc',
        `ignored JSON from the agent that is not a JSON-RPC message: ${shown(preview(m, 120 + REDACT_MARGIN))}`,
      );
    } else if (kind === 'response') {
      const id = (m as { id: unknown }).id;
      if (!outstanding.delete(id))
        counter.count(
          'unknownResponses',
          `ignored a response to unknown request id ${shown(String(JSON.stringify(id)))}`,
        );
    } else if (kind === 'notification' && (m as { method: string }).method === 'session/update') {
      const update = (m as { params?: { update?: { sessionUpdate?: unknown } } }).params?.update?.sessionUpdate;
      if (typeof update !== 'string' || !KNOWN_UPDATES.has(update)) {
        counter.count(
          'unknownUpdates',
          `ignored a session/update of unknown kind ${shown(String(JSON.stringify(update)))}`,
        );
      }
    }
    // Passed on even when invalid: the SDK answers a bad request with -32600 itself.
    controller.enqueue(m as AnyMessage);
  };

  const readable = input.pipeThrough(
    new TransformStream<Uint8Array, AnyMessage>({
      transform: (chunk, controller) => splitter.push(chunk, (line) => onLine(line, controller)),
      flush: (controller) => splitter.flush((line) => onLine(line, controller)),
    }),
  );

  const writable = new WritableStream<AnyMessage>({
    write(m) {
      const r = m as Record<string, unknown>;
      if (typeof r.method === 'string' && 'id' in r) outstanding.add(r.id);
      // Values typed into MCP settings may be keys: hidden wherever the agent echoes them later.
      redactor.add(mcpValues(m));
      trace('→', m);
      return write(m);
    },
  });
  return { readable, writable };
}

function cut(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function preview(m: unknown, max = 120): string {
  let s: string;
  try {
    s = JSON.stringify(m) ?? String(m);
  } catch {
    // Deeply nested input overflows JSON.stringify: say so rather than fail the stream.
    return '(too deeply nested to show)';
  }
  return cut(s, max);
}
