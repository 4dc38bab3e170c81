// The reference agent on a bare SDK connection: `client()` over `ndJsonStream` of the child's
// stdio, nothing validated or routed. What it measures is the floor our client is compared to.
import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { client, type ClientContext, ndJsonStream } from '@agentclientprotocol/sdk';
import { agentScript } from '../support/refAgent';

export interface Bare {
  readonly agent: ClientContext;
  /** Called for every `session/update` notification. */
  onUpdate: () => void;
  stop(): Promise<void>;
}

export async function startBare(store: string, switches: string[] = []): Promise<Bare> {
  const child: ChildProcess = spawn(process.execPath, [agentScript, '--store', store, ...switches], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const bare: { onUpdate: () => void } = { onUpdate: () => {} };
  const app = client({ name: 'acp-bench-bare' })
    .onNotification('session/update', () => bare.onUpdate())
    .onRequest('session/request_permission', () => ({ outcome: { outcome: 'cancelled' } }));
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
    ),
  );
  const agent = connection.agent;
  await agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: 'bench', version: '0' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    agent,
    get onUpdate() {
      return bare.onUpdate;
    },
    set onUpdate(fn: () => void) {
      bare.onUpdate = fn;
    },
    async stop() {
      connection.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Loads a session on a bare connection: milliseconds from request to response, and updates seen. */
export async function bareLoad(
  bare: Bare,
  sessionId: string,
  cwd: string,
): Promise<{ ms: number; updates: number; firstUpdateMs: number }> {
  let updates = 0;
  let firstUpdateMs = NaN;
  const started = performance.now();
  bare.onUpdate = () => {
    if (updates++ === 0) firstUpdateMs = performance.now() - started;
  };
  await bare.agent.request('session/load', { sessionId, cwd, mcpServers: [] });
  const ms = performance.now() - started;
  bare.onUpdate = () => {};
  return { ms, updates, firstUpdateMs };
}
