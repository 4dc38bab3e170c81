// The agent's stdio, between the process and the SDK. The SDK owns the ndjson framing; this layer
// taps whole messages on both sides so fault switches (crash, hang, record, delay, garbage) act
// on real JSON-RPC traffic, and raw lines are written between the SDK's writes, never inside one.
import { appendFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { type AnyMessage, type JsonRpcId, ndJsonStream, type Stream } from '@agentclientprotocol/sdk/unstable';
import type { GarbageKind, ServeOptions } from './options';

const encoder = new TextEncoder();

/** Writes to stdout, honouring backpressure so a 10 MB replay does not pile up in memory. */
export function writeStdout(bytes: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = process.stdout.write(bytes, (error) => {
      if (error) reject(error);
    });
    if (ok) resolve();
    else process.stdout.once('drain', resolve);
  });
}

export function crash(reason: string): never {
  process.stderr.write(`reference agent: crashing on purpose (${reason})\n`);
  process.exit(3);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Lines that a misbehaving agent mixes into its stdout, one per kind of bad input. */
export const garbageLines: Record<GarbageKind, string> = {
  'not-json': 'this line is not JSON',
  'not-jsonrpc': '{"hello":"world","note":"JSON that is not JSON-RPC"}',
  'unknown-id': '{"jsonrpc":"2.0","id":987654321,"result":{"note":"a response to a request nobody sent"}}',
  'unknown-kind':
    '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_unknown","update":{"sessionUpdate":"made_up_kind","x":1}}}',
  // A well-formed update for a session no client opened: the client keeps it briefly, then drops it.
  'unknown-session':
    '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_nobody_opened","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"for nobody"}}}}',
  // Nesting deep enough to overflow a recursive walker (JSON.stringify) on the reading side.
  nested: `{"jsonrpc":"2.0","method":"x/nested","params":${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}}`,
};

export class Wire {
  readonly stream: Stream;
  private incoming = 0;
  /** Methods of requests received and not yet answered, so a response can be told apart. */
  private readonly pendingMethods = new Map<JsonRpcId, string>();
  private readonly afterResponseHooks = new Map<JsonRpcId, () => void>();

  constructor(private readonly options: ServeOptions) {
    const stdoutSink = new WritableStream<Uint8Array>({ write: (chunk) => writeStdout(chunk) });
    const stdin = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
    const inner = ndJsonStream(stdoutSink, stdin);
    const readable = inner.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform: (message, controller) => {
          if (this.accept(message)) controller.enqueue(message);
        },
      }),
    );
    const innerWriter = inner.writable.getWriter();
    const writable = new WritableStream<AnyMessage>({
      write: async (message) => {
        if (this.options.delay > 0) await delay(this.options.delay);
        await innerWriter.write(message);
        await this.afterWrite(message);
      },
      close: () => innerWriter.close(),
      abort: (reason) => innerWriter.abort(reason),
    });
    this.stream = { readable, writable };
  }

  /** Runs `hook` once the response to request `id` is on stdout (not merely queued). */
  afterResponse(id: JsonRpcId, hook: () => void): void {
    this.afterResponseHooks.set(id, hook);
  }

  /** Decides the fate of one incoming message; false drops it (a hang). */
  private accept(message: AnyMessage): boolean {
    this.incoming++;
    const raw: unknown = message;
    const method = isRecord(raw) && typeof raw.method === 'string' ? raw.method : undefined;
    const isRequest = method !== undefined && 'id' in message;
    if (method !== undefined && this.options.record) {
      try {
        appendFileSync(
          this.options.record,
          JSON.stringify({ method, params: (message as { params?: unknown }).params ?? null }) + '\n',
        );
      } catch (error) {
        process.stderr.write(`reference agent: cannot record to ${this.options.record}: ${String(error)}\n`);
      }
    }
    if (this.options.crashAfter !== undefined && this.incoming >= this.options.crashAfter) {
      crash(`--crash-after ${this.options.crashAfter}`);
    }
    if (method !== undefined && this.options.crashOn.has(method)) {
      crash(`--crash-on ${method}`);
    }
    if (method !== undefined && this.options.hang.has(method)) {
      process.stderr.write(`reference agent: not answering ${method} (--hang)\n`);
      return false;
    }
    if (isRequest) this.pendingMethods.set((message as { id: JsonRpcId }).id, method);
    return true;
  }

  private async afterWrite(message: AnyMessage): Promise<void> {
    if (!isRecord(message) || 'method' in message || !('id' in message)) return;
    const id = message.id as JsonRpcId;
    const method = this.pendingMethods.get(id);
    this.pendingMethods.delete(id);
    if (this.options.garbage.size > 0 && (method === 'initialize' || method === 'session/list')) {
      const lines = [...this.options.garbage].map((kind) => garbageLines[kind]);
      await writeStdout(encoder.encode(lines.join('\n') + '\n'));
    }
    if (this.options.exitAfterInitialize && method === 'initialize') {
      process.stderr.write('reference agent: exiting after initialize (--exit-after-initialize)\n');
      process.exit(0);
    }
    const hook = this.afterResponseHooks.get(id);
    if (hook) {
      this.afterResponseHooks.delete(id);
      // Not awaited: the hook sends through the SDK, whose writes come back through this stream.
      hook();
    }
  }
}
