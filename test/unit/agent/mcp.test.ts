import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentFeatures } from '../../../src/agent/capabilities';
import { parseAgents } from '../../../src/agent/config';
import { MemoryLogger } from '../../../src/agent/log';
import { McpSelector, mergeMcpServers, parseMcpServers } from '../../../src/agent/mcp';
import { MissingSecret } from '../../../src/agent/errors';
import { referencedSecrets, resolveAgentEnv, resolveSecretRefs } from '../../../src/agent/secrets';

/** The repository root: the nearest folder up from this (bundled) file with a package.json. */
let repoRoot = __dirname;
while (!existsSync(join(repoRoot, 'package.json')) && dirname(repoRoot) !== repoRoot) repoRoot = dirname(repoRoot);

const features = (http: boolean, sse: boolean) => ({ mcpHttp: http, mcpSse: sse }) as AgentFeatures;

describe('MCP server settings', () => {
  it('reads stdio, http and sse entries into the wire shape (env and headers as name/value pairs)', () => {
    const { servers, problems } = parseMcpServers(
      [
        { name: 'fs', command: '/bin/mcp-fs', args: ['-v'], env: { A: '1' } },
        { type: 'http', name: 'web', url: 'https://x.test/mcp', headers: [{ name: 'X-Key', value: 'k' }] },
        { type: 'sse', name: 'ev', url: 'http://127.0.0.1:1/sse' },
      ],
      'acp.mcpServers',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(servers, [
      { name: 'fs', command: '/bin/mcp-fs', args: ['-v'], env: [{ name: 'A', value: '1' }] },
      { type: 'http', name: 'web', url: 'https://x.test/mcp', headers: [{ name: 'X-Key', value: 'k' }] },
      { type: 'sse', name: 'ev', url: 'http://127.0.0.1:1/sse', headers: [] },
    ]);
  });

  it('reports and skips bad entries, keeping the good ones', () => {
    const { servers, problems } = parseMcpServers(
      [
        { name: 'relative', command: 'mcp-fs' },
        { type: 'http', name: 'noUrl' },
        { type: 'http', name: 'ftp', url: 'ftp://x.test' },
        { type: 'ws', name: 'odd', url: 'https://x.test' },
        { name: 'badEnv', command: '/bin/x', env: { A: 1 } },
        'nonsense',
        { command: '/bin/x' },
        { name: 'ok', command: '/bin/ok' },
        { name: 'ok', command: '/bin/ok2' },
      ],
      'acp.mcpServers',
    );
    assert.deepEqual(
      servers.map((s) => s.name),
      ['ok'],
    );
    assert.equal(problems.length, 8);
    assert.match(problems[0]!, /acp\.mcpServers\[0\]: "command" must be an absolute path.*skipped/);
    assert.match(problems[3]!, /"type" must be "stdio", "http" or "sse"/);
    assert.match(problems[7]!, /used twice/);
    assert.deepEqual(parseMcpServers({}, 'acp.mcpServers').problems, [
      'acp.mcpServers must be an array of MCP servers.',
    ]);
  });

  it('lets an agent replace a server by name and add its own', () => {
    const g = parseMcpServers(
      [
        { name: 'a', command: '/a' },
        { name: 'b', command: '/b' },
      ],
      'g',
    ).servers;
    const own = parseMcpServers(
      [
        { name: 'b', command: '/b2' },
        { name: 'c', command: '/c' },
      ],
      'o',
    ).servers;
    assert.deepEqual(
      mergeMcpServers(g, own).map((s) => ('command' in s ? s.command : '')),
      ['/a', '/b2', '/c'],
    );
  });

  it("reads an agent entry's mcpServers; a bad server costs the server, not the agent", () => {
    const { agents, problems } = parseAgents([
      {
        id: 'x',
        command: 'x',
        mcpServers: [
          { name: 'ok', command: '/ok' },
          { name: 'bad', command: 'rel' },
        ],
      },
    ]);
    assert.equal(agents.length, 1);
    assert.deepEqual(
      agents[0]!.mcpServers!.map((s) => s.name),
      ['ok'],
    );
    assert.match(problems[0]!.message, /acp\.agents\[0\]\.mcpServers\[1\]/);
  });

  it('withholds HTTP and SSE from agents without the capability, logging once per agent and server', async () => {
    const logger = new MemoryLogger();
    const selector = new McpSelector(logger);
    const { servers } = parseMcpServers(
      [
        { name: 's', command: '/s' },
        { type: 'http', name: 'h', url: 'https://h.test' },
        { type: 'sse', name: 'e', url: 'https://e.test' },
      ],
      'g',
    );
    const agent = { id: 'a', name: 'Agent A' };
    const lookup = async () => undefined;
    for (let i = 0; i < 3; i++)
      assert.deepEqual(
        (await selector.select(agent, features(false, false), servers, lookup)).servers.map((s) => s.name),
        ['s'],
      );
    assert.equal(logger.lines.length, 2);
    assert.deepEqual(
      (await selector.select(agent, features(true, false), servers, lookup)).servers.map((s) => s.name),
      ['s', 'h'],
    );
    assert.deepEqual(
      (await selector.select({ id: 'b', name: 'B' }, features(true, true), servers, lookup)).servers.map((s) => s.name),
      ['s', 'h', 'e'],
    );
    await selector.select({ id: 'b', name: 'B' }, features(false, true), servers, lookup);
    assert.equal(logger.lines.length, 3, 'agent B gets its own line');
  });

  it('resolves secrets in headers and env, and skips a server whose secret is missing', async () => {
    const logger = new MemoryLogger();
    const { servers } = parseMcpServers(
      [
        { type: 'http', name: 'h', url: 'https://h.test', headers: { Authorization: 'Bearer ${secret:T}' } },
        { name: 'm', command: '/m', env: { K: '${secret:NOPE}' } },
      ],
      'g',
    );
    const r = await new McpSelector(logger).select({ id: 'a', name: 'A' }, features(true, true), servers, async (n) =>
      n === 'T' ? 'tok' : undefined,
    );
    assert.deepEqual(r.servers, [
      { type: 'http', name: 'h', url: 'https://h.test', headers: [{ name: 'Authorization', value: 'Bearer tok' }] },
    ]);
    assert.deepEqual(r.secrets, ['tok']);
    assert.match(logger.lines[0]!, /"m" is not sent to A: the secret "NOPE".*Set Agent Secret/);
  });

  it('declares acp.mcpServers with machine scope, restricted in untrusted workspaces, and per-agent mcpServers', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    const props = pkg.contributes.configuration.properties;
    assert.equal(props['acp.mcpServers'].scope, 'machine');
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('acp.mcpServers'));
    assert.equal(props['acp.mcpServers'].items.oneOf.length, 3);
    assert.deepEqual(props['acp.agents'].items.properties.mcpServers.items, props['acp.mcpServers'].items);
  });
});

describe('Secret references', () => {
  const lookup = async (n: string) => ({ A: 'alpha', B: 'beta' })[n];

  it('replaces ${secret:NAME} and reports the values it used', async () => {
    assert.deepEqual(await resolveSecretRefs('x-${secret:A}-${secret:B}-${secret:A}', lookup, 'w'), {
      value: 'x-alpha-beta-alpha',
      used: ['alpha', 'beta'],
    });
    assert.deepEqual(await resolveSecretRefs('plain $HOME ${env:A}', lookup, 'w'), {
      value: 'plain $HOME ${env:A}',
      used: [],
    });
  });

  it('fails with MissingSecret naming the secret and where it is used', async () => {
    const e = await resolveSecretRefs('${secret:C}', lookup, 'Agent (env.KEY)').catch((x: unknown) => x);
    assert.ok(e instanceof MissingSecret);
    assert.equal(e.message, 'the secret "C" used by Agent (env.KEY) is not set');
  });

  it('resolves an agent env without touching the configuration it was given', async () => {
    const config = { id: 'a', name: 'A', command: 'a', args: [], env: { KEY: '${secret:A}', PLAIN: 'p' } };
    const r = await resolveAgentEnv(config, lookup);
    assert.deepEqual(r.config.env, { KEY: 'alpha', PLAIN: 'p' });
    assert.deepEqual(r.secrets, ['alpha']);
    assert.equal(config.env.KEY, '${secret:A}');
    assert.deepEqual(referencedSecrets(['${secret:Z}', 'a ${secret:A} ${secret:Z}']), ['A', 'Z']);
  });
});
