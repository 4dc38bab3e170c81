import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { Logger } from './log';

export type TraceLevel = 'off' | 'messages' | 'verbose';

/** What the SDK would drop with only a `console.error`, counted for the log and the UI. */
export interface WireStats {
  /** Lines that were not JSON, or JSON that is not a JSON-RPC object. */
  invalidLines: number;
  /** Responses to ids we never sent (or already settled). */
  unknownResponses: number;
  /** `session/update` notifications whose kind the SDK does not know. */
  unknownUpdates: number;
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

const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|authorization|cookie|credential/i;

/**
 * Wraps the SDK's message stream to see what it reads and writes: the SDK answers a line that
 * is not JSON with a `-32700` response to the agent and drops other bad input with only a
 * `console.error`, so this is where such input is logged and counted. It also writes the
 * `acp.trace` log, with environment values and secret-looking fields redacted.
 */
export function tapStream(
  inner: Stream,
  opts: { logger: Logger; trace: () => TraceLevel; secrets: readonly string[]; onStats?: (s: WireStats) => void },
): { stream: Stream; stats: WireStats } {
  const stats: WireStats = { invalidLines: 0, unknownResponses: 0, unknownUpdates: 0 };
  const outstanding = new Set<string | number>();
  const { logger } = opts;
  // Read at each message: the connection adds secrets resolved later (MCP headers and env).
  const secrets = () => opts.secrets.filter((s) => s.length >= 4);
  const changed = () => opts.onStats?.(stats);

  const trace = (dir: '→' | '←', m: AnyMessage) => {
    const level = opts.trace();
    if (level === 'off') return;
    const r = m as Record<string, unknown>;
    const what = 'method' in r ? `${String(r.method)}${'id' in r ? ` #${String(r.id)}` : ''}` : `response #${String(r.id)}${'error' in r ? ' (error)' : ''}`;
    if (level === 'messages') logger.trace(`${dir} ${what}`);
    else logger.trace(`${dir} ${what} ${redact(preview(m, Number.MAX_SAFE_INTEGER), secrets())}`);
  };

  const readable = inner.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(m, controller) {
        const r = m as Record<string, unknown>;
        trace('←', m);
        const isRequest = typeof r.method === 'string';
        if (r.jsonrpc !== '2.0' || (!isRequest && !('id' in r))) {
          stats.invalidLines++;
          logger.warn(`ignored a message that is not JSON-RPC 2.0 (${preview(m)})`);
          changed();
        } else if (!isRequest) {
          const id = r.id as string | number;
          if (!outstanding.delete(id)) {
            stats.unknownResponses++;
            logger.warn(`ignored a response to unknown request id ${JSON.stringify(r.id)}`);
            changed();
          }
        } else if (r.method === 'session/update' && !('id' in r)) {
          const kind = (r.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate;
          if (typeof kind !== 'string' || !KNOWN_UPDATES.has(kind)) {
            stats.unknownUpdates++;
            logger.warn(`ignored a session/update of unknown kind ${JSON.stringify(kind)}`);
            changed();
          }
        }
        controller.enqueue(m);
      },
    }),
  );

  const writer = inner.writable;
  const writable = new WritableStream<AnyMessage>({
    async write(m) {
      const r = m as Record<string, unknown>;
      if (typeof r.method === 'string' && 'id' in r) outstanding.add(r.id as string | number);
      // The SDK answers a line that is not JSON (or not an object) with an id-less error.
      if (!('method' in r) && r.id === null && typeof r.error === 'object') {
        stats.invalidLines++;
        logger.warn(`the agent wrote a line that is not a JSON-RPC message (${(r.error as { message?: string }).message ?? 'parse error'})`);
        changed();
      }
      trace('→', m);
      const w = writer.getWriter();
      try {
        await w.write(m);
      } finally {
        w.releaseLock();
      }
    },
    close() {
      return writer.close();
    },
    abort(reason) {
      return writer.abort(reason);
    },
  });
  return { stream: { readable, writable }, stats };
}

function preview(m: unknown, max = 120): string {
  let s: string;
  try {
    s = JSON.stringify(m) ?? String(m);
  } catch {
    // Deeply nested input overflows JSON.stringify: say so rather than fail the stream.
    return '(too deeply nested to show)';
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Replaces environment values and secret-looking fields in a JSON text. */
export function redact(json: string, secrets: readonly string[]): string {
  let out = json.replace(
    /"([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*"((?:[^"\\]|\\.)*)"/g,
    (whole, key: string) => (SECRET_KEY.test(key) ? `"${key}":"[redacted]"` : whole),
  );
  for (const s of secrets) {
    const encoded = JSON.stringify(s).slice(1, -1);
    out = out.split(encoded).join('[redacted]');
  }
  return out.length > 20000 ? `${out.slice(0, 20000)}… (${out.length} characters)` : out;
}
