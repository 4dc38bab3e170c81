// The client runs on the SDK's stable entry and takes only types from `/unstable` (which
// brings its own schema for stable messages too). These tests pin what the stable parsing
// does with messages the unstable schema would accept (session/update kinds are checked by the
// wire tap, which knows only the stable ones), and show the unstable entry differs, so a switch
// of entry cannot pass unnoticed.
import * as assert from 'node:assert/strict';
import type { AnyMessage, SessionNotification, Stream } from '@agentclientprotocol/sdk';
import { client as unstableClient } from '@agentclientprotocol/sdk/unstable';
import { buildClientApp } from '../../../src/agent/clientApp';
import { MemoryLogger } from '../../../src/agent/log';
import { Redactor } from '../../../src/agent/redact';
import { WireCounter, wireStream } from '../../../src/agent/wireTap';
import type { UpdateRouter } from '../../../src/agent/router';
import { waitFor } from '../../support/wait';

/** An in-memory stream: `send` plays the agent, `sent` holds what the client wrote. */
function pipe(): { stream: Stream; send(m: unknown): void; sent: AnyMessage[] } {
  let push!: (m: AnyMessage) => void;
  const readable = new ReadableStream<AnyMessage>({ start: (c) => void (push = (m) => c.enqueue(m)) });
  const sent: AnyMessage[] = [];
  const writable = new WritableStream<AnyMessage>({ write: (m) => void sent.push(m) });
  return { stream: { readable, writable }, send: (m) => push(m as AnyMessage), sent };
}

const update = (sessionUpdate: string, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's1', update: { sessionUpdate, ...extra } },
});
// `plan_removed` is a valid update in the unstable schema only.
const unstableOnly = update('plan_removed', { planId: 'p1' });
const stable = update('agent_message_chunk', { content: { type: 'text', text: 'hi' } });

/** The agent's stdout as lines through the wire tap, as the connection reads it. */
function wirePipe(): { stream: Stream; send(m: unknown): void; counter: WireCounter } {
  let push!: (line: string) => void;
  const encoder = new TextEncoder();
  const input = new ReadableStream<Uint8Array>({
    start: (c) => void (push = (line) => c.enqueue(encoder.encode(`${line}\n`))),
  });
  const logger = new MemoryLogger();
  const counter = new WireCounter(logger);
  const stream = wireStream(new WritableStream<Uint8Array>(), input, {
    logger,
    trace: () => 'off',
    redactor: new Redactor(),
    counter,
  });
  return { stream, send: (m) => push(JSON.stringify(m)), counter };
}

describe('the client parses with the stable schema', () => {
  it('delivers stable updates and drops an update kind only the unstable schema has', async () => {
    const got: SessionNotification[] = [];
    const router = { dispatch: (n: SessionNotification) => void got.push(n) } as unknown as UpdateRouter;
    const config = { id: 'a', name: 'A', command: 'x', args: [], env: {} };
    const { app } = buildClientApp(
      't',
      config,
      { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      router,
    );
    const p = wirePipe();
    const conn = app.connect(p.stream);
    p.send(unstableOnly);
    p.send(stable);
    await waitFor('the first update', () => got.length >= 1, 2000);
    // One more round trip through the stream, so a late delivery of the first would show.
    p.send(stable);
    await waitFor('the second update', () => got.length >= 2, 2000);
    assert.deepEqual(
      got.map((n) => n.update.sessionUpdate),
      ['agent_message_chunk', 'agent_message_chunk'],
    );
    assert.equal(p.counter.stats.unknownUpdates, 1, 'the unstable kind is counted where it is dropped');
    conn.close();
  });

  it('answers a stable permission request with the params exactly as sent', async () => {
    const seen: unknown[] = [];
    const config = { id: 'a', name: 'A', command: 'x', args: [], env: {} };
    const router = { dispatch: () => {} } as unknown as UpdateRouter;
    const params = {
      sessionId: 's1',
      toolCall: { toolCallId: 't1', title: 'Run', kind: 'execute', status: 'pending' },
      options: [{ optionId: 'o1', name: 'Allow', kind: 'allow_once' }],
    };
    const { app } = buildClientApp(
      't',
      config,
      {
        requestPermission: async (p) => {
          seen.push(p);
          return { outcome: { outcome: 'selected', optionId: 'o1' } };
        },
      },
      router,
    );
    const p = pipe();
    const conn = app.connect(p.stream);
    p.send({ jsonrpc: '2.0', id: 7, method: 'session/request_permission', params });
    await waitFor('the answer to request 7', () => p.sent.some((m) => 'id' in m && m.id === 7), 2000);
    assert.deepEqual(seen, [params]);
    assert.deepEqual(
      p.sent.find((m) => 'id' in m && m.id === 7),
      { jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'selected', optionId: 'o1' } } },
    );
    conn.close();
  });

  it('(the unstable entry would deliver that update: the check above is not vacuous)', async () => {
    const got: string[] = [];
    const app = unstableClient({ name: 't' }).onNotification('session/update', ({ params }) => {
      got.push(params.update.sessionUpdate);
    });
    const p = pipe();
    const conn = app.connect(p.stream);
    p.send(unstableOnly);
    p.send(stable);
    await waitFor('the second update', () => got.length >= 2, 2000);
    assert.deepEqual(got, ['plan_removed', 'agent_message_chunk']);
    conn.close();
  });
});
