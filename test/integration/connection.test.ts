import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientCapabilities, SessionNotification } from '@agentclientprotocol/sdk';
import { AgentHost } from '../../src/agent/agentHost';
import type { AgentConfig } from '../../src/agent/types';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { AgentExited, AgentTimedOut, Cancelled, ProtocolError } from '../../src/agent/errors';
import { MemoryLogger } from '../../src/agent/log';
import { isRunning, refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const handlers: ClientHandlers = {
  requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
};

describe('AgentConnection against the reference agent', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwdA = join(dir.path, 'a');
  const cwdB = join(dir.path, 'b');
  const open: AgentConnection[] = [];

  before(() => {
    mkdirSync(cwdA);
    mkdirSync(cwdB);
    seed(store, [cwdA, cwdB], 240, 3);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.stop()));
  });
  after(() => dir.cleanup());

  async function start(switches: string[] = [], timeouts = {}, logger = new MemoryLogger()) {
    const c = await AgentConnection.start({
      config: refAgentConfig(store, switches),
      logger,
      handlers,
      clientInfo: { name: 'acp-client-test', version: '0.0.0' },
      timeouts,
    });
    open.push(c);
    return c;
  }

  it('initializes and reads the capabilities as present or absent', async () => {
    const c = await start();
    assert.equal(c.features.list, true);
    assert.equal(c.features.load, true);
    assert.equal(c.features.resume, true);
    assert.equal(c.features.delete, true);
    const without = await start(['--no-list', '--no-resume']);
    assert.equal(without.features.list, false);
    assert.equal(without.features.resume, false);
    assert.equal(without.features.load, true);
  });

  it('pages through every page of a folder, filtered by cwd', async () => {
    const c = await start(['--page-size', '50']);
    const ids = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await c.listSessions({ cwd: cwdA, ...(cursor ? { cursor } : {}) });
      pages++;
      for (const s of page.sessions) {
        assert.equal(s.cwd, cwdA);
        ids.add(s.sessionId);
      }
      cursor = page.nextCursor;
    } while (cursor);
    assert.equal(ids.size, 120);
    assert.equal(pages, 3);
  });

  it('replays a loaded session in order before the response, and resume replays nothing', async () => {
    const c = await start(['--hide-empty']);
    const page = await c.listSessions({ cwd: cwdA });
    const id = page.sessions[0]!.sessionId;
    const received: SessionNotification[] = [];
    let responded = false;
    let afterResponse = 0;
    const route = c.router.register(id, (n) => {
      received.push(n);
      if (responded) afterResponse++;
    });
    await c.loadSession({ sessionId: id, cwd: cwdA, mcpServers: [] });
    responded = true;
    const kinds = received.map((n) => n.update.sessionUpdate);
    assert.ok(kinds.length >= 9, `expected a replay, got ${kinds.length}`);
    assert.equal(kinds.filter((k) => k === 'user_message_chunk').length, 3, 'one user message per seeded turn');
    assert.equal(
      kinds.find((k) => k === 'user_message_chunk' || k === 'agent_message_chunk'),
      'user_message_chunk',
    );
    route.dispose();

    const second: string[] = [];
    const again = c.router.register(id, (n) => second.push(n.update.sessionUpdate));
    await c.loadSession({ sessionId: id, cwd: cwdA, mcpServers: [] });
    assert.deepEqual(second, kinds, 'the same replay in the same order');
    again.dispose();

    let resumed = 0;
    const r = c.router.register(id, () => resumed++);
    await c.resumeSession({ sessionId: id, cwd: cwdA });
    // Answered after the resume: whatever the agent sent for the resume has arrived before it.
    await c.listSessions({ cwd: cwdA });
    assert.equal(resumed, 0);
    r.dispose();
    assert.equal(afterResponse, 0);
  });

  it('keeps updates that arrive before the session is routed, and hands them over in order', async () => {
    const c = await start(['--late-updates', '--hide-empty']);
    const page = await c.listSessions({ cwd: cwdB });
    const id = page.sessions[0]!.sessionId;
    const shown = (n: SessionNotification) => JSON.stringify(n.update);
    const isLast = (u: string) => u.includes('session_info_update');

    // Nobody routes the session during this load: the half of the replay sent before the
    // response waits in the router.
    await c.loadSession({ sessionId: id, cwd: cwdB, mcpServers: [] });
    const waiting = c.router.buffered;
    assert.ok(waiting >= 3, `the replay before the response is buffered (${waiting})`);
    const got: string[] = [];
    const route = c.router.register(id, (n) => got.push(shown(n)));
    assert.equal(c.router.buffered, 0, 'registering takes the whole buffer');
    await waitFor('the end of the replay', () => got.some(isLast));
    route.dispose();

    // The agent's own order: the same load with the route registered first.
    const expected: string[] = [];
    const again = c.router.register(id, (n) => expected.push(shown(n)));
    await c.loadSession({ sessionId: id, cwd: cwdB, mcpServers: [] });
    await waitFor('the end of the second replay', () => expected.some(isLast));
    again.dispose();
    assert.ok(expected.length >= 9);
    assert.deepEqual(got, expected, 'buffered updates come first, in the order they were sent');
  });

  it('turns a crash into AgentExited with the tail of stderr', async () => {
    const c = await start(['--crash-on', 'session/list']);
    const exited = new Promise<AgentExited>((res) => c.onDidExit(res));
    await assert.rejects(c.listSessions({ cwd: cwdA }), (e: unknown) => {
      assert.ok(e instanceof AgentExited, String(e));
      assert.equal(e.code, 3);
      assert.match(e.stderrTail, /crashing on purpose/);
      return true;
    });
    assert.equal((await exited).code, 3);
    await assert.rejects(c.listSessions({ cwd: cwdA }), AgentExited, 'later calls fail fast');
  });

  it('turns a hang into AgentTimedOut naming the phase', async () => {
    const c = await start(['--hang', 'session/list'], { list: 400 });
    await assert.rejects(
      c.listSessions({ cwd: cwdA }),
      (e: unknown) => e instanceof AgentTimedOut && e.phase === 'session/list',
    );
    // The connection stays usable after a timeout.
    await c.newSession({ cwd: cwdA, mcpServers: [] });
  });

  it('resets the load timeout with every update, so only silence times out', async () => {
    const slow = await start(['--delay', '60', '--hide-empty'], { setupIdle: 300 });
    const page = await slow.listSessions({ cwd: cwdA });
    const id = page.sessions[0]!.sessionId;
    const route = slow.router.register(id, () => {});
    const t0 = Date.now();
    await slow.loadSession({ sessionId: id, cwd: cwdA, mcpServers: [] });
    const took = Date.now() - t0;
    assert.ok(took > 300, `the whole load (${took} ms) took longer than the idle timeout`);
    route.dispose();
    const hung = await start(['--hang', 'session/load'], { setupIdle: 300 });
    const r2 = hung.router.register(id, () => {});
    await assert.rejects(hung.loadSession({ sessionId: id, cwd: cwdA, mcpServers: [] }), AgentTimedOut);
    r2.dispose();
  });

  it('cancels a request when the caller aborts', async () => {
    const c = await start(['--hang', 'session/list']);
    const abort = new AbortController();
    const p = c.listSessions({ cwd: cwdA }, abort.signal);
    setTimeout(() => abort.abort(), 50);
    await assert.rejects(p, Cancelled);
  });

  it('logs and counts garbage from the agent without failing', async () => {
    const logger = new MemoryLogger();
    const c = await start(['--garbage'], {}, logger);
    const page = await c.listSessions({ cwd: cwdA });
    assert.ok(page.sessions.length > 0);
    await waitFor('the garbage counted', () => c.stats.notJson + c.stats.notJsonRpc + c.stats.unknownResponses > 0);
    assert.ok(
      logger.lines.some((l) => /not a JSON-RPC|unknown request id/.test(l)),
      logger.lines.join('\n'),
    );
  });

  it('drops list entries of the wrong shape and counts them', async () => {
    const logger = new MemoryLogger();
    const c = await start(['--bad-list-shapes'], {}, logger);
    const page = await c.listSessions({ cwd: cwdA });
    assert.ok(page.dropped > 0);
    for (const s of page.sessions) {
      assert.equal(typeof s.sessionId, 'string');
      assert.ok(s.cwd.startsWith('/'));
      assert.ok(s.title === undefined || s.title === null || typeof s.title === 'string');
    }
    assert.ok(logger.lines.some((l) => /dropped \d+ entries/.test(l)));
  });

  it("reports an invalid cursor as a ProtocolError with the agent's code", async () => {
    const c = await start();
    await assert.rejects(
      c.listSessions({ cwd: cwdA, cursor: '%%not-a-cursor%%' }),
      (e: unknown) => e instanceof ProtocolError && e.code === -32602,
    );
  });

  it('stops the whole process group and leaves no process behind', async () => {
    const c = await start();
    const pid = c.pid!;
    assert.ok(isRunning(pid));
    await c.stop();
    assert.equal(isRunning(pid), false);
  });

  it('offers file writes and terminals only where the settings allow them', async () => {
    const fs = {
      readTextFile: async () => ({ content: '' }),
      writeTextFile: async () => ({}),
    } as unknown as ClientHandlers['fs'];
    const terminals = {} as ClientHandlers['terminals'];
    const record = join(dir.path, `record-${Date.now()}.jsonl`);
    const announced = async (flags: Partial<AgentConfig>) => {
      const c = await AgentConnection.start({
        config: { ...refAgentConfig(store, ['--record', record]), ...flags },
        logger: new MemoryLogger(),
        handlers: { ...handlers, fs, terminals },
        clientInfo: { name: 't', version: '0' },
      });
      open.push(c);
      const lines = readFileSync(record, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { method: string; params: { clientCapabilities: ClientCapabilities } });
      return lines.filter((l) => l.method === 'initialize').at(-1)!.params.clientCapabilities;
    };
    const on = await announced({});
    assert.equal(on.fs?.writeTextFile, true);
    assert.equal(on.terminal, true);
    const off = await announced({ allowFileWrites: false, allowTerminals: false });
    assert.equal(off.fs?.readTextFile, true);
    assert.equal(off.fs?.writeTextFile, false);
    assert.equal(off.terminal, false);
  });

  /** The records of `--record`, by method. */
  const recorded = (file: string, method: string) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; params: Record<string, unknown> })
      .filter((m) => m.method === method)
      .map((m) => m.params);
  const waitForRecord = (file: string, method: string) =>
    waitFor(
      `${method} recorded`,
      () => existsSync(file) && recorded(file, method).length > 0 && recorded(file, method),
    );

  it('sends $/cancel_request when the caller cancels, and when our timeout gives up', async () => {
    const record = join(dir.path, `cancel-${Date.now()}.jsonl`);
    const c = await start(['--hang', 'session/list', '--record', record], { list: 300 });
    const abort = new AbortController();
    const p = c.listSessions({ cwd: cwdA }, abort.signal);
    setTimeout(() => abort.abort(), 50);
    await assert.rejects(p, Cancelled);
    const afterCancel = await waitForRecord(record, '$/cancel_request');
    assert.equal(afterCancel.length, 1, 'one $/cancel_request for the cancelled list');
    await assert.rejects(c.listSessions({ cwd: cwdA }), AgentTimedOut);
    await waitFor('a second $/cancel_request', () => recorded(record, '$/cancel_request').length >= 2);
    const cancels = recorded(record, '$/cancel_request').map((x) => x.requestId);
    assert.equal(cancels.length, 2, 'a second one for the timed-out list');
    assert.notEqual(cancels[0], cancels[1], 'each names its own request');
  });

  describe('start failures say what happened', () => {
    const fail = (config: AgentConfig) =>
      AgentConnection.start({ config, logger: new MemoryLogger(), handlers, clientInfo: { name: 't', version: '0' } });

    it('fails to start with a clear error when the command does not exist', async () => {
      await assert.rejects(
        fail({ id: 'x', name: 'Missing', command: '/nonexistent/agent', args: [], env: {} }),
        (e: unknown) => {
          assert.ok(e instanceof AgentExited, String(e));
          assert.equal(
            e.message,
            'Missing could not be started: the command "/nonexistent/agent" was not found. Check "acp.agents" in your settings.',
          );
          return true;
        },
      );
    });

    it('fails to start with a clear error when the command cannot be run', async () => {
      const notExecutable = join(dir.path, 'not-executable.sh');
      writeFileSync(notExecutable, '#!/bin/sh\necho hi\n', { mode: 0o644 });
      await assert.rejects(
        fail({ id: 'x', name: 'Locked', command: notExecutable, args: [], env: {} }),
        (e: unknown) => {
          assert.ok(e instanceof AgentExited, String(e));
          assert.match(
            e.message,
            /^Locked could not be started: the command ".*not-executable.sh" cannot be run \(permission denied/,
          );
          assert.match(e.message, /Check "acp.agents"/);
          return true;
        },
      );
    });

    it('fails to start with a clear error when the agent exits before answering initialize', async () => {
      const script = "process.stderr.write('fatal: no config file\\n'); process.exit(3)";
      await assert.rejects(
        fail({ id: 'x', name: 'Quitter', command: process.execPath, args: ['-e', script], env: {} }),
        (e: unknown) => {
          assert.ok(e instanceof AgentExited, String(e));
          assert.equal(e.code, 3);
          assert.match(
            e.message,
            /^Quitter could not be started: it exited with code 3 before answering initialize \(its last output: "fatal: no config file"\)\. Check "acp.agents"/,
          );
          return true;
        },
      );
    });

    it("puts that error in the host's failed state", async () => {
      const host = new AgentHost(
        { id: 'x', name: 'Missing', command: '/nonexistent/agent', args: [], env: {} },
        {
          logger: new MemoryLogger(),
          clientInfo: { name: 't', version: '0' },
          trace: () => 'off',
          handlers: () => handlers,
        },
      );
      await assert.rejects(host.connect(), AgentExited);
      assert.equal(host.state.kind, 'failed');
      assert.ok(host.state.kind === 'failed');
      assert.match(
        host.state.error.message,
        /^Missing could not be started: the command "\/nonexistent\/agent" was not found\. Check "acp.agents"/,
      );
      host.dispose();
    });
  });
});
