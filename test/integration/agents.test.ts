import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { AgentHost, AgentRegistry, type AgentHostDeps } from '../../src/agent/agentHost';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { MemoryLogger, silentLogger } from '../../src/agent/log';
import { McpSelector, mcpServersFor, parseMcpServers } from '../../src/agent/mcp';
import { ChatSession } from '../../src/chat/chatSession';
import { isRunning, refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };

/** The requests the reference agent recorded with `--record`, by method. */
function recorded(file: string, method: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; params: Record<string, unknown> })
    .filter((m) => m.method === method)
    .map((m) => m.params);
}

describe('MCP servers and several agents against the reference agent', function () {
  this.timeout(40_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const store2 = join(dir.path, 'store2');
  const store3 = join(dir.path, 'store3');
  const cwd = join(dir.path, 'project');
  const stop: { stop(): Promise<void> }[] = [];
  let n = 0;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 4, 2);
    seed(store2, [cwd], 7, 1);
    seed(store3, [cwd], 4, 1);
  });
  afterEach(async () => {
    await Promise.all(stop.splice(0).map((s) => s.stop()));
  });
  after(() => dir.cleanup());

  const deps = (logger = silentLogger): AgentHostDeps => ({
    logger,
    clientInfo: { name: 'test', version: '0' },
    trace: () => 'off',
    handlers: () => handlers,
  });

  const settings = parseMcpServers(
    [
      {
        name: 'files',
        command: '/usr/local/bin/mcp-files',
        args: ['--root', '/'],
        env: { TOKEN: '${secret:MCP_TOKEN}' },
      },
      {
        type: 'http',
        name: 'tracker',
        url: 'https://mcp.example.test/mcp',
        headers: { Authorization: 'Bearer ${secret:MCP_TOKEN}' },
      },
      { type: 'sse', name: 'events', url: 'http://127.0.0.1:9/sse' },
    ],
    'acp.mcpServers',
  );
  const perAgent = parseMcpServers(
    [{ name: 'files', command: '/opt/mcp/files-v2', args: [] }],
    'acp.agents[0].mcpServers',
  );
  const lookup = async (name: string) => (name === 'MCP_TOKEN' ? 'tok-SECRET-42' : undefined);

  function recordingHost(switches: string[], logger = new MemoryLogger()) {
    const record = join(dir.path, `record-${++n}.jsonl`);
    const h = new AgentHost(refAgentConfig(store, ['--record', record, '--hide-empty', ...switches]), {
      ...deps(logger),
      trace: () => 'verbose',
    });
    stop.push(h);
    return { h, record, logger };
  }

  it('sends the MCP servers on session/new, session/load and session/resume; an agent entry replaces the same name', async () => {
    const { h, record, logger } = recordingHost(['--mcp-http', '--mcp-sse']);
    const selector = new McpSelector(logger);
    const mcpServers = mcpServersFor(
      { global: () => settings.servers, perAgent: () => perAgent.servers, lookup },
      selector,
    );
    const chatDeps = { logger, mcpServers, describeError: (e: unknown) => String(e) };
    const created = new ChatSession(h, { agentId: 'ref', cwd }, chatDeps);
    await created.attach('new');
    const existing = (await (await h.connect()).listSessions({ cwd })).sessions[0]!.sessionId;
    const loaded = new ChatSession(h, { agentId: 'ref', sessionId: existing, cwd }, chatDeps);
    await loaded.attach('load');
    // One chat per session: the load's panel closes before the same session is resumed.
    await loaded.close();
    const resumed = new ChatSession(h, { agentId: 'ref', sessionId: existing, cwd }, chatDeps);
    await resumed.attach('resume');
    assert.equal(resumed.thread.status.state, 'idle', JSON.stringify(resumed.thread.status));
    const expected: McpServer[] = [
      { name: 'files', command: '/opt/mcp/files-v2', args: [], env: [] },
      {
        type: 'http',
        name: 'tracker',
        url: 'https://mcp.example.test/mcp',
        headers: [{ name: 'Authorization', value: 'Bearer tok-SECRET-42' }],
      },
      { type: 'sse', name: 'events', url: 'http://127.0.0.1:9/sse', headers: [] },
    ];
    for (const method of ['session/new', 'session/load', 'session/resume']) {
      const [params] = recorded(record, method);
      assert.ok(params, `${method} was sent`);
      assert.deepEqual(params.mcpServers, expected, method);
    }
    assert.deepEqual(
      logger.lines.filter((l) => l.includes('tok-SECRET-42')),
      [],
      'a resolved header secret is redacted from the trace',
    );
    assert.ok(logger.lines.some((l) => l.includes('session/new') && l.includes('[redacted]')));
  });

  it('withholds HTTP and SSE servers from an agent without the capability, with one log line per server', async () => {
    const { h, record, logger } = recordingHost([]);
    const mcpServers = mcpServersFor(
      { global: () => settings.servers, perAgent: () => [], lookup },
      new McpSelector(logger),
    );
    const chatDeps = { logger, mcpServers, describeError: (e: unknown) => String(e) };
    await new ChatSession(h, { agentId: 'ref', cwd }, chatDeps).attach('new');
    await new ChatSession(h, { agentId: 'ref', cwd }, chatDeps).attach('new');
    for (const params of recorded(record, 'session/new')) {
      assert.deepEqual(
        (params.mcpServers as McpServer[]).map((s) => s.name),
        ['files'],
      );
      assert.deepEqual((params.mcpServers as { env: unknown }[])[0]!.env, [{ name: 'TOKEN', value: 'tok-SECRET-42' }]);
    }
    const skipped = logger.lines.filter((l) => /is not sent to Reference Agent/.test(l));
    assert.equal(skipped.length, 2, skipped.join('\n'));
    assert.ok(skipped.some((l) => l.includes('"tracker" (http)') && l.includes('mcpCapabilities.http')));
    assert.ok(skipped.some((l) => l.includes('"events" (sse)') && l.includes('mcpCapabilities.sse')));
  });

  it('lists two agents side by side, and restarting one leaves the other process alone', async () => {
    const registry = new AgentRegistry(deps());
    stop.push({ stop: () => registry.stopAll().then(() => registry.dispose()) });
    registry.update([refAgentConfig(store3, [], 'one'), refAgentConfig(store2, [], 'two')], 'two');
    assert.deepEqual(
      registry.all.map((h) => h.config.id),
      ['one', 'two'],
    );
    assert.equal(registry.default?.config.id, 'two');
    const [one, two] = registry.all as [AgentHost, AgentHost];
    const [a, b] = await Promise.all([one.connect(), two.connect()]);
    const [pa, pb] = await Promise.all([a.listSessions({ cwd }), b.listSessions({ cwd })]);
    assert.equal(pa.sessions.length, 4);
    assert.equal(pb.sessions.length, 7);
    const twoPid = b.pid!;
    const onePid = a.pid!;
    const restarted = await one.restart();
    assert.notEqual(restarted.pid, onePid);
    assert.equal(two.connection?.pid, twoPid, 'the other agent keeps its process');
    assert.ok(isRunning(twoPid));
    assert.equal(two.state.kind, 'ready');
  });

  it('a settings change restarts only the changed agent, and removing an agent stops it', async () => {
    const registry = new AgentRegistry(deps());
    stop.push({ stop: () => registry.stopAll().then(() => registry.dispose()) });
    const one = refAgentConfig(store3, [], 'one');
    const two = refAgentConfig(store2, [], 'two');
    registry.update([one, two], '');
    const [h1, h2] = registry.all as [AgentHost, AgentHost];
    const [c1, c2] = await Promise.all([h1.connect(), h2.connect()]);
    let changes = 0;
    registry.onDidChangeAgents(() => changes++);

    registry.update([{ ...one, args: [...one.args, '--page-size', '2'] }, two], '');
    const n1 = registry.get('one')!;
    assert.notEqual(n1, h1, 'the changed agent got a new host');
    assert.equal(registry.get('two'), h2, 'the other kept its host');
    const restarted = await n1.connect();
    assert.equal((await restarted.listSessions({ cwd })).nextCursor !== undefined, true, 'the new settings apply');
    assert.equal(h2.connection?.pid, c2.pid);
    await waitFor('the old process of the changed agent gone', () => !isRunning(c1.pid!), 5000);
    assert.ok(!isRunning(c1.pid!), 'the old process of the changed agent stopped');

    registry.update([{ ...one, args: [...one.args, '--page-size', '2'] }], '');
    assert.equal(registry.get('two'), undefined);
    await waitFor('the removed agent gone', () => !isRunning(c2.pid!), 5000);
    assert.ok(!isRunning(c2.pid!), 'the removed agent stopped');
    assert.equal(changes, 2);
  });
});
