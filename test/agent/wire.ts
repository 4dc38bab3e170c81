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

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes one byte per write, as an agent that flushes every byte does, with a pause of a tenth
 * of a millisecond after each so that the client reads them one at a time (a pipe joins writes
 * that wait for a reader).
 */
export async function writeBytewise(bytes: Uint8Array | string): Promise<void> {
  const all = typeof bytes === 'string' ? encoder.encode(bytes) : bytes;
  for (let i = 0; i < all.length; i++) {
    await writeStdout(all.subarray(i, i + 1));
    Atomics.wait(pause, 0, 0, 0.1);
    if (i % 256 === 255) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `--echo-key-routes` after initialize: the key as a response id, a method, and across two stderr reads. */
async function echoKeyRoutes(key: string): Promise<void> {
  await writeStdout(
    `${JSON.stringify({ jsonrpc: '2.0', id: key, result: {} })}\n` +
      `${JSON.stringify({ jsonrpc: '2.0', method: `${key}/notify`, params: {} })}\n`,
  );
  // A long line whose read ends inside the key: the rest of it comes in the next read.
  const half = Math.floor(key.length / 2);
  process.stderr.write(`reference agent: ${'a'.repeat(8190)}${key.slice(0, half)}`);
  await delay(100);
  process.stderr.write(`${key.slice(half)} is the key\n`);
  process.stderr.write(`reference agent: short line with the key split across reads ${key.slice(0, half)}`);
  await delay(100);
  process.stderr.write(`${key.slice(half)}\n`);
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
  'no-session':
    '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}',
  // The name under which the client hands its checked updates to the SDK: never the agent's to use.
  'reserved-method':
    '{"jsonrpc":"2.0","method":"_acpClient/checkedSessionUpdate","params":{"sessionId":"sess_x","update":42}}',
  // Nesting deep enough to overflow a recursive walker (JSON.stringify) on the reading side.
  nested: `{"jsonrpc":"2.0","method":"x/nested","params":${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}}`,
};

export class Wire {
  readonly stream: Stream;
  private incoming = 0;
  /** Once set, nothing more is read from stdin: the pipe fills and the client's writes wait. */
  private stopped = false;
  /** Methods of requests received and not yet answered, so a response can be told apart. */
  private readonly pendingMethods = new Map<JsonRpcId, string>();
  private readonly afterResponseHooks = new Map<JsonRpcId, () => void>();

  constructor(private readonly options: ServeOptions) {
    const stdoutSink = new WritableStream<Uint8Array>({
      write: (chunk) => (options.byteWrites ? writeBytewise(chunk) : writeStdout(chunk)),
    });
    // A gate on stdin: once closed (`stopReading`), a chunk never passes and backpressure stops
    // the reads, as in an agent that no longer reads its input.
    const stdin = (Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => (this.stopped ? new Promise<void>(() => {}) : controller.enqueue(chunk)),
      }),
    );
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

  /** Reads nothing more from stdin, ever (`flood read`). */
  stopReading(): void {
    this.stopped = true;
  }

  /** Runs `hook` once the response to request `id` is on stdout (not merely queued). */
  afterResponse(id: JsonRpcId, hook: () => void): void {
    this.afterResponseHooks.set(id, hook);
  }

  /** Decides the fate of one incoming message; false drops it (a hang). */
  private accept(message: AnyMessage): boolean {
    this.incoming++;
    const raw: unknown = message;
    // --stdout-text: a careless agent that prints a complaint on stdout for what it cannot use
    // (the client's answer to a line that was not JSON is one).
    if (this.options.stdoutText && isRecord(raw) && !('method' in raw) && raw.id === null) {
      void writeStdout('unexpected input\n');
      return false;
    }
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
    if (this.options.stdoutText && method === 'initialize') await writeStdout('agent ready, waiting for input\n');
    if (this.options.echoKeyRoutes && method === 'initialize') await echoKeyRoutes(process.env.ACP_REF_KEY ?? '');
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
