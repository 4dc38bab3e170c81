import assert from 'node:assert/strict';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { MemoryLogger } from '../../src/agent/log';
import type { DropKind, WireStats } from '../../src/agent/wireTap';
import { refAgentConfig, useSeededFolder } from '../support/refAgent';
import { waitFor, quietFor } from '../support/wait';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };

/**
 * Each kind of bad input the reference agent can send alone (`--garbage-kind`). Each must be
 * logged once, counted once under its own name, and announced through `onDidDropInput`; the
 * connection keeps working.
 */
describe('Bad input from the agent, one kind at a time', function () {
  this.timeout(30_000);
  const { store, cwd, running: open } = useSeededFolder<AgentConnection>(3, 1);

  /**
   * The agent writes the line after its initialize answer and again after each session/list
   * answer: the first may arrive before anyone could subscribe, so events are checked on the
   * second. `perLine` reads how many inputs one log line tells of (a drop line sums them).
   */
  async function withGarbage(
    kind: string,
    expect: DropKind,
    logged: RegExp,
    perLine: (line: string) => number = () => 1,
  ) {
    const logger = new MemoryLogger();
    const c = await AgentConnection.start({
      config: refAgentConfig(store, ['--garbage-kind', kind]),
      logger,
      handlers,
      clientInfo: { name: 't', version: '0' },
      // The router's buffer, shortened so a dropped update shows within the test.
      updateBuffer: { maxAgeMs: 200 },
    });
    open.push(c);
    const counted = (n: number) => waitFor(`${n} counted as ${expect}`, () => c.stats[expect] >= n, 5000);
    await counted(1);
    const events: WireStats[] = [];
    c.onDidDropInput((s) => events.push(s));
    // Nothing broke: the next request is answered (and brings the same line once more).
    assert.equal((await c.listSessions({ cwd })).sessions.length, 3);
    await counted(2);
    // Time for a third count or an extra log line of the same input to show, if there were one.
    await quietFor(400);
    const others = Object.entries(c.stats).filter(([k, v]) => k !== expect && v !== 0);
    assert.equal(c.stats[expect], 2, `counted once each: ${JSON.stringify(c.stats)}`);
    assert.deepEqual(others, [], 'counted under its own kind only');
    const lines = logger.lines.filter((l) => logged.test(l));
    assert.equal(
      lines.reduce((n, l) => n + perLine(l), 0),
      2,
      `logged once each:\n${logger.lines.join('\n')}`,
    );
    assert.ok(events.length >= 1, 'onDidDropInput fired');
    assert.equal(events.at(-1)![expect], 2, 'with the counts');
    return { c, logger, line: lines[0]! };
  }

  it('a line that is not JSON', async () => {
    const { line } = await withGarbage('not-json', 'notJson', /not JSON:/);
    assert.match(line, /this line is not JSON/);
  });

  it('JSON that is not JSON-RPC', async () => {
    const { line } = await withGarbage('not-jsonrpc', 'notJsonRpc', /not a JSON-RPC message/);
    assert.match(line, /"hello":"world"/);
  });

  it('a response to an id nobody sent', async () => {
    const { line } = await withGarbage('unknown-id', 'unknownResponses', /unknown request id/);
    assert.match(line, /987654321/);
  });

  it('a session/update of a kind the protocol does not have', async () => {
    const { line } = await withGarbage('unknown-kind', 'unknownUpdates', /unknown kind/);
    assert.match(line, /made_up_kind/);
  });

  it('a session/update without a session id', async () => {
    const { line } = await withGarbage('no-session', 'unknownUpdates', /session\/update without a session id/);
    assert.match(line, /ignored/);
  });

  it('a message under the method name the client keeps for its checked updates', async () => {
    const { line } = await withGarbage('reserved-method', 'notJsonRpc', /method name this client keeps/);
    assert.match(line, /ignored/);
  });

  it('an update for a session nobody opens, dropped from the buffer with a count and no payload', async () => {
    const dropped = (l: string) => Number(/dropped (\d+) update/.exec(l)?.[1] ?? 0);
    const { c, logger, line } = await withGarbage('unknown-session', 'droppedUpdates', /nobody opened/, dropped);
    assert.match(line, /dropped \d update\(s\) for session\(s\) nobody opened within 0.2 s: sess_nobody_opened/);
    assert.deepEqual(
      logger.lines.filter((l) => l.includes('for nobody')),
      [],
      'the payload is not logged',
    );
    assert.equal(c.router.dropped, 2);
  });
});
