// Run by the Windows lane under Windows' node.exe (scripts/windowsLane.mjs); skipped elsewhere.
// A registry served on 127.0.0.1 by this node.exe lists a binary agent for windows-x86_64: its
// .zip is downloaded, unpacked and checked as on any system, and the command it names, a .cmd
// script (Wine's cmd.exe runs no npm shim and this lane ships no agent .exe), starts through the
// resolver that starts every agent on Windows, answers initialize and session/list, and stops.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import { registryEntry } from '../../src/registry/entry';
import { parseRegistry } from '../../src/registry/format';
import { installBinary } from '../../src/registry/install';
import { installWay, isWay } from '../../src/registry/installWay';
import { get, readText } from '../../src/registry/http';
import { makeZip } from '../support/archives';
import { agentScript, useSeededFolder } from '../support/refAgent';
import { registryJson, serveRegistry, type RegistryServer } from '../support/registryServer';

const onWindows = process.platform === 'win32';

(onWindows ? describe : describe.skip)('Windows: a binary agent installed from a registry on 127.0.0.1', function () {
  this.timeout(120_000);
  const { dir, store, cwd, running } = useSeededFolder<AgentConnection>(3, 1);
  let server: RegistryServer;
  before(async () => {
    server = await serveRegistry();
  });
  after(() => server.close());

  it('downloads the windows-x86_64 .zip, unpacks it, and starts the command it names', async () => {
    const shim = `@ECHO OFF\r\n"${process.execPath}" "${agentScript}" %*\r\n`;
    server.set('/ref-agent-windows-x86_64.zip', { body: makeZip([{ name: 'bin/ref-agent.cmd', data: shim }]) });
    const target = {
      archive: `${server.url}ref-agent-windows-x86_64.zip`,
      cmd: './bin/ref-agent.cmd',
      args: ['--store', store],
    };
    server.set('/registry.json', {
      body: registryJson([
        {
          id: 'ref-agent',
          name: 'Reference Agent',
          version: '1.2.0',
          description: 'The reference agent for Windows',
          distribution: {
            binary: { 'windows-x86_64': target, 'linux-x86_64': { ...target, cmd: './bin/ref-agent' } },
          },
        },
      ]),
    });
    const parsed = parseRegistry(
      await readText(
        (await get(`${server.url}registry.json`, { answerMs: 20_000, stallMs: 20_000, maxBytes: 1e6 })).body,
      ),
    );
    assert.ok(parsed.ok);
    const agent = parsed.registry.agents[0]!;
    const way = installWay(agent, { platform: 'win32', arch: 'x64', has: () => false });
    assert.ok(isWay(way) && way.kind === 'binary' && way.platform === 'windows-x86_64');
    const agentsDir = join(dir.path, 'agents');
    const installed = await installBinary({
      agentsDir,
      id: agent.id,
      version: agent.version,
      target: way.target,
      http: { answerMs: 20_000, stallMs: 20_000 },
    });
    assert.equal(installed.command, join(agentsDir, 'ref-agent', '1.2.0', 'bin', 'ref-agent.cmd'));
    assert.ok(existsSync(installed.command));
    const entry = registryEntry(agent, way, [], installed.command);
    const connection = await AgentConnection.start({
      config: { ...entry, args: [...entry.args] },
      logger: silentLogger,
      clientInfo: { name: 'windows lane', version: '0' },
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    });
    running.push(connection);
    assert.equal((await connection.listSessions({ cwd })).sessions.length, 3);
  });
});
