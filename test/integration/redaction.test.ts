import assert from 'node:assert/strict';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { AgentExited, AuthRequired } from '../../src/agent/errors';
import { MemoryLogger } from '../../src/agent/log';
import type { AgentConfig } from '../../src/agent/types';
import { refAgentConfig, useSeededFolder } from '../support/refAgent';
import { waitFor } from '../support/wait';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };
const clientInfo = { name: 'acp-client-test', version: '0.0.0' };

/**
 * The reference agent with `--echo-key` is careless the way real agents are: it prints its key
 * to stderr, names a wrong key in its error text, and sends it back in `session/list`'s
 * `_meta`; it prints the MCP env and header values it receives, too. With the most verbose
 * trace, none of it may reach the log or an error.
 */
describe('Secrets stay out of the log', function () {
  this.timeout(30_000);
  const { store, cwd, running: open } = useSeededFolder<AgentConnection>(3, 1);

  async function start(config: AgentConfig, logger: MemoryLogger, secrets: string[] = []) {
    const c = await AgentConnection.start({ config, logger, handlers, clientInfo, secrets, trace: () => 'verbose' });
    open.push(c);
    return c;
  }
  const keyed = (key: string, switches: string[]): AgentConfig => ({
    ...refAgentConfig(store, ['--echo-key', ...switches]),
    env: { ACP_REF_AGENT_ARGS: '--auth-env right-key-1234', ACP_REF_KEY: key },
  });
  const leaks = (logger: MemoryLogger, value: string) => logger.lines.filter((l) => l.includes(value));

  it('an env value the agent echoes to stderr and on the wire is redacted in the log', async () => {
    const logger = new MemoryLogger();
    const c = await start(keyed('right-key-1234', []), logger);
    const page = await c.listSessions({ cwd });
    assert.equal(page.sessions.length, 3);
    await waitFor('the stderr echo in the log, masked', () =>
      logger.lines.some((l) => l.includes('stderr: reference agent: ACP_REF_KEY=[redacted]')),
    );
    assert.ok(
      logger.lines.some((l) => l.includes('"echo":"key [redacted]"')),
      'the echo on the wire was traced, masked',
    );
    assert.deepEqual(leaks(logger, 'right-key-1234'), []);
  });

  it('a secret the agent echoes on every route (an id, a method, an option id, stderr split across reads, a long trace) shows nowhere, whole or in part', async () => {
    const logger = new MemoryLogger();
    const key = 'echoed-k3y-0123456789-qzxv-wjkp-9876543210';
    const c = await start({ ...refAgentConfig(store, ['--echo-key-routes']), env: { ACP_REF_KEY: key } }, logger);
    await c.newSession({ cwd, mcpServers: [] });
    await c.listSessions({ cwd });
    const seen = (what: RegExp) => logger.lines.some((l) => what.test(l));
    await waitFor('every route', () =>
      [
        /unknown request id/,
        /← \S*\/notify/,
        /dropped a config option/,
        /stderr: reference agent: a{100}/,
        /stderr: reference agent: short line/,
        /← response #\d+ .*"many"/,
      ].every(seen),
    );
    const pieces = [...Array(key.length - 7).keys()].map((i) => key.slice(i, i + 8));
    const leaked = logger.lines.filter((l) => pieces.some((p) => l.includes(p)));
    assert.deepEqual(leaked, [], 'no piece of the key of 8 characters or more');
    for (const masked of [
      /unknown request id "\[redacted\]"/,
      /← \[redacted\]\/notify/,
      /← response #\[redacted\]/,
      /dropped a config option: "\[redacted\]"/,
      /stderr: reference agent: short line with the key split across reads \[redacted\]/,
      /← response #\d+ .*"many":"\[redacted\] \[redacted\]/,
    ])
      assert.ok(seen(masked), `logged, masked: ${masked}`);
  });

  it("a key in the agent's error text is redacted in the error and the log", async () => {
    const logger = new MemoryLogger();
    const c = await start(keyed('wrong-key-5678', []), logger);
    const e = await c.listSessions({ cwd }).catch((x: unknown) => x);
    assert.ok(e instanceof AuthRequired, String(e));
    assert.match(e.detail, /ACP_REF_KEY \[redacted\] is wrong/);
    assert.ok(!e.message.includes('wrong-key-5678'), e.message);
    assert.deepEqual(leaks(logger, 'wrong-key-5678'), []);
  });

  it("a secret in the agent's last stderr lines is redacted in the exit it reports", async () => {
    const logger = new MemoryLogger();
    const secret = 'resolved-secret-9012';
    const config: AgentConfig = {
      ...refAgentConfig(store, ['--echo-key', '--crash-on', 'session/list']),
      env: { ACP_REF_KEY: secret },
    };
    const c = await start(config, logger, [secret]);
    const e = await c.listSessions({ cwd }).catch((x: unknown) => x);
    assert.ok(e instanceof AgentExited, String(e));
    assert.match(e.stderrTail, /ACP_REF_KEY=\[redacted\]/);
    assert.ok(!e.stderrTail.includes(secret));
    assert.deepEqual(leaks(logger, secret), []);
  });

  it('MCP env and header values typed into settings are redacted in the trace and wherever the agent echoes them', async () => {
    const logger = new MemoryLogger();
    const c = await start(refAgentConfig(store, ['--echo-key', '--mcp-http']), logger);
    const mcpServers: McpServer[] = [
      {
        name: 'files',
        command: '/usr/local/bin/mcp-files',
        args: [],
        env: [
          { name: 'FILES_ROOT_TOKEN', value: 'literal-env-value-1' },
          { name: 'LEVEL', value: 'dbg' },
        ],
      },
      {
        type: 'http',
        name: 'tracker',
        url: 'https://mcp.example.test/mcp',
        headers: [{ name: 'X-Custom', value: 'literal-header-value-2' }],
      },
    ];
    await c.newSession({ cwd, mcpServers });
    await waitFor('the stderr echo of the MCP servers', () =>
      logger.lines.some((l) => l.includes('MCP servers FILES_ROOT_TOKEN=')),
    );
    const sent = logger.lines.find((l) => l.includes('→ session/new'));
    assert.ok(sent, 'session/new was traced');
    assert.ok(sent.includes('"X-Custom"') && sent.includes('"FILES_ROOT_TOKEN"'), 'names stay readable');
    assert.ok(!sent.includes('"dbg"'), 'even a short value is masked in the trace');
    assert.ok(
      logger.lines.some(
        (l) => l.includes('MCP servers FILES_ROOT_TOKEN=[redacted]') && l.includes('X-Custom=[redacted]'),
      ),
      'the stderr echo was masked',
    );
    assert.deepEqual(leaks(logger, 'literal-env-value-1'), []);
    assert.deepEqual(leaks(logger, 'literal-header-value-2'), []);
  });
});
