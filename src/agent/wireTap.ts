import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { AgentNotReading } from './errors';
import type { Logger, TraceLevel } from './log';
import { LineSplitter } from './ndjson';
import { isUpdateKind } from './parseUpdate';
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
  /** `session/update` notifications of a kind we do not know, or with no session id or update. */
  unknownUpdates: number;
  /** `session/update` notifications for a session nobody opened in time, dropped from the router's buffer. */
  droppedUpdates: number;
  /** Requests refused because {@link MAX_REQUESTS_IN_FLIGHT} were being answered already. */
  refusedRequests: number;
}

export type DropKind = keyof WireStats;

/** Past this many lines of one kind, further ones are counted but not logged (a flood must not bury the log). */
const LOG_LINES_PER_KIND = 100;

/** Counts each kind of dropped input once and logs it once; `onChange` feeds `onDidDropInput`. */
export class WireCounter {
  readonly stats: WireStats = {
    notJson: 0,
    notJsonRpc: 0,
    unknownResponses: 0,
    unknownUpdates: 0,
    droppedUpdates: 0,
    refusedRequests: 0,
  };
  private readonly logged = new Map<DropKind, number>();

  constructor(
    private readonly logger: Logger,
    private readonly onChange: (stats: WireStats) => void = () => {},
  ) {}

  /**
   * `line` absent: counted only, because a line already told of it. A function is called only
   * when the line is logged: a flood past the log's limit costs a count, not a line each.
   */
  count(kind: DropKind, line: string | (() => string) | undefined, n = 1): void {
    this.stats[kind] += n;
    if (line === undefined) return this.onChange(this.stats);
    const logged = this.logged.get(kind) ?? 0;
    if (logged < LOG_LINES_PER_KIND) this.logger.warn(typeof line === 'string' ? line : line());
    else if (logged === LOG_LINES_PER_KIND)
      this.logger.warn(`more input of this kind (${kind}) is counted but no longer logged`);
    this.logged.set(kind, logged + 1);
    this.onChange(this.stats);
  }
}

/**
 * The method a checked `session/update` reaches the SDK under. The SDK's client checks every
 * `session/update` against its schema twice (once in a session router we do not use, once for
 * our handler): four fifths of the host's work in a history replay. Under this name the SDK
 * passes it straight to our handler, in stream order, and `agent/parseUpdate` checks each
 * update before the thread reduces it. An agent that sends this name itself is ignored.
 */
export const CHECKED_SESSION_UPDATE = '_acpClient/checkedSessionUpdate';

/**
 * The most bytes waiting for the agent to read them. An agent that stops reading its input while
 * it asks for large files would otherwise grow the extension host without bound (and an
 * extension host that runs out of memory takes every extension of the window with it).
 */
export const MAX_QUEUED_BYTES = 32 * 1024 * 1024;
/**
 * The most requests from the agent answered at a time; further ones get an error at once. A
 * flood of requests (each reading a file, asking the user) must not pile up work without bound.
 */
export const MAX_REQUESTS_IN_FLIGHT = 256;

/** How every JSON text begins (after the whitespace `trim` removed). */
const JSON_START = /^[{["\-0-9tfn]/;

/** The longest trace line; a 1 MiB reply is not copied into the log whole. */
const TRACE_MAX = 20_000;

export interface WireOptions {
  logger: Logger;
  trace: () => TraceLevel;
  redactor: Redactor;
  counter: WireCounter;
  /** The SDK's default (32 MiB) when absent. */
  maxMessageBytes?: number;
  /** {@link MAX_QUEUED_BYTES} when absent; tests lower it. */
  maxQueuedBytes?: number;
  /** {@link MAX_REQUESTS_IN_FLIGHT} when absent; tests lower it. */
  maxRequestsInFlight?: number;
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
  const maxQueued = opts.maxQueuedBytes ?? MAX_QUEUED_BYTES;
  const maxInFlight = opts.maxRequestsInFlight ?? MAX_REQUESTS_IN_FLIGHT;
  /** Requests from the agent handed to the SDK and not answered yet. */
  const inFlight = new Set<unknown>();
  let answeredParseError = false;
  /** Set once the connection is being closed from here; the readable side then fails with it. */
  let failure: Error | undefined;
  let incoming: TransformStreamDefaultController<AnyMessage> | undefined;
  const fail = (e: Error) => {
    if (failure) return;
    failure = e;
    incoming?.error(e);
  };

  // Bytes go out one message at a time, in order. What waits is counted: past the limit the
  // agent is not reading, and the connection closes rather than hold more.
  let writes = Promise.resolve();
  let queued = 0;
  const write = (m: AnyMessage): Promise<void> => {
    if (failure) return Promise.reject(failure);
    const bytes = encoder.encode(JSON.stringify(m) + '\n');
    // One message alone may exceed the limit (a large file's text): it waits only for itself.
    if (queued > 0 && queued + bytes.length > maxQueued) {
      fail(new AgentNotReading(maxQueued));
      return Promise.reject(failure);
    }
    queued += bytes.length;
    writes = writes.then(async () => {
      try {
        if (failure) return;
        const w = output.getWriter();
        try {
          await w.write(bytes);
        } finally {
          w.releaseLock();
        }
      } catch (e) {
        fail(e instanceof Error ? e : new Error(String(e)));
      } finally {
        queued -= bytes.length;
      }
    });
    // Accepted: the SDK does not wait for the agent to read it, so nothing of the message stays
    // reachable from its queue; only these bytes wait, and they are counted.
    return Promise.resolve();
  };

  const trace = (dir: '→' | '←', m: unknown) => {
    const level = opts.trace();
    if (level === 'off') return;
    const r = isRecord(m) ? m : {};
    const what =
      'method' in r
        ? `${String(r.method)}${'id' in r ? ` #${String(r.id)}` : ''}`
        : `response #${String(r.id)}${'error' in r ? ' (error)' : ''}`;
    // The method and the id are the agent's strings too: redacted like the rest.
    if (level === 'messages') return logger.trace(`${dir} ${shown(what, 200)}`);
    const full = preview(withoutMcpValues(m));
    const text = shown(full, TRACE_MAX);
    logger.trace(
      `${dir} ${shown(what, 200)} ${full.length > TRACE_MAX ? `${text} (${full.length} characters)` : text}`,
    );
  };
  /** Redacted before it is cut (see {@link Redactor.cut}), so no value is left half visible. */
  const shown = (s: string, max = 120) => redactor.cut(s, max, true);

  const onLine = (bytes: Uint8Array, controller: TransformStreamDefaultController<AnyMessage>) => {
    const text = decoder.decode(bytes).trim();
    if (!text) return;
    const m = parseJson(text);
    if (m === NOT_JSON) {
      counter.count('notJson', () => `ignored a line from the agent that is not JSON: ${shown(text)}`);
      // JSON-RPC answers a parse error with a null id, but only the first: an agent that prints
      // text when it reads something it does not understand would answer every answer.
      if (!answeredParseError) {
        answeredParseError = true;
        void write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }).catch(() => {});
      }
      return;
    }
    trace('←', m);
    const kind = classify(m);
    if (kind === 'invalid') {
      counter.count(
        'notJsonRpc',
        () => `ignored JSON from the agent that is not a JSON-RPC message: ${shown(preview(m))}`,
      );
    } else if (kind === 'response') {
      const id = (m as { id: unknown }).id;
      if (!outstanding.delete(id))
        counter.count(
          'unknownResponses',
          () => `ignored a response to unknown request id ${shown(String(JSON.stringify(id)))}`,
        );
    } else if (kind === 'notification' && (m as { method: string }).method === 'session/update') {
      const notification = m as { method: string; params?: unknown };
      const params = notification.params;
      if (!isRecord(params) || typeof params.sessionId !== 'string' || !isRecord(params.update)) {
        counter.count('unknownUpdates', () => `ignored a session/update without a session id and an update object`);
        return;
      }
      const update = params.update.sessionUpdate;
      if (typeof update !== 'string' || !isUpdateKind(update)) {
        counter.count(
          'unknownUpdates',
          () => `ignored a session/update of unknown kind ${shown(String(JSON.stringify(update)))}`,
        );
        return;
      }
      notification.method = CHECKED_SESSION_UPDATE;
    } else if ((m as { method?: unknown }).method === CHECKED_SESSION_UPDATE) {
      counter.count(
        'notJsonRpc',
        () => `ignored a message from the agent under a method name this client keeps for itself`,
      );
      return;
    }
    if (kind === 'request') {
      const id = (m as { id: unknown }).id;
      if (inFlight.size >= maxInFlight) {
        counter.count(
          'refusedRequests',
          () => `refused a request from the agent: ${maxInFlight} are being answered already`,
        );
        void write({
          jsonrpc: '2.0',
          id: id as string | number | null,
          error: {
            code: -32603,
            message: `Too many requests at once: the client answers ${maxInFlight} at a time; this one was refused.`,
          },
        }).catch(() => {});
        return;
      }
      inFlight.add(id);
    }
    // Passed on even when invalid: the SDK answers a bad request with -32600 itself.
    controller.enqueue(m as AnyMessage);
  };

  const readable = input.pipeThrough(
    new TransformStream<Uint8Array, AnyMessage>({
      start: (controller) => {
        incoming = controller;
      },
      transform: (chunk, controller) => splitter.push(chunk, (line) => onLine(line, controller)),
      flush: (controller) => splitter.flush((line) => onLine(line, controller)),
    }),
  );

  const writable = new WritableStream<AnyMessage>({
    write(m) {
      const r = m as Record<string, unknown>;
      if (typeof r.method === 'string' && 'id' in r) outstanding.add(r.id);
      else if (!('method' in r) && 'id' in r) inFlight.delete(r.id);
      // Values typed into MCP settings may be keys: hidden wherever the agent echoes them later.
      redactor.add(mcpValues(m));
      trace('→', m);
      return write(m);
    },
  });
  return { readable, writable };
}

const NOT_JSON = Symbol('not JSON');

/**
 * The parsed line, or {@link NOT_JSON}. A line that cannot begin a JSON value is not parsed at
 * all: an agent printing a million lines of text costs no million failed parses.
 */
function parseJson(text: string): unknown {
  if (!JSON_START.test(text)) return NOT_JSON;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** A message as JSON text, whole: it is redacted before anything cuts it. */
function preview(m: unknown): string {
  try {
    return JSON.stringify(m) ?? String(m);
  } catch {
    // Deeply nested input overflows JSON.stringify: say so rather than fail the stream.
    return '(too deeply nested to show)';
  }
}
