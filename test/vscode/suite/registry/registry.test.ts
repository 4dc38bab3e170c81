// The ACP Registry in a real extension host: its address from the User (here Remote) settings
// only, a workspace's value ignored; a binary agent installed from a registry on 127.0.0.1
// through "Add Agent" (its install step answered by a click), listed; removed again, with what
// was downloaded for it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suiteContext } from '../../../host/suiteContext';
import { makeTarGz } from '../../../support/archives';
import { registryJson, serveRegistry, type RegistryServer } from '../../../support/registryServer';
import { waitFor } from '../../../support/wait';
import { api, askDriver } from '../../support';

describe('The ACP Registry in the extension host', function () {
  this.timeout(90_000);
  let server: RegistryServer;
  const platform = `${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;

  before(async () => {
    server = await serveRegistry();
    const c = suiteContext();
    const script = `#!/bin/sh\nexec "${process.execPath}" "${c.agentScript}" "$@"\n`;
    server.set('/ref.tar.gz', { body: await makeTarGz([{ name: 'bin/ref-agent', data: script }]) });
    server.set('/registry.json', {
      body: registryJson([
        {
          id: 'ref-agent',
          name: 'Reference Agent',
          version: '1.0.0',
          description: 'The reference agent as a binary',
          distribution: {
            binary: {
              [platform]: { archive: `${server.url}ref.tar.gz`, cmd: './bin/ref-agent', args: ['--store', c.storeDir] },
            },
          },
        },
      ]),
    });
  });
  after(async () => {
    await vscode.workspace.getConfiguration('acp').update('registry.url', undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("reads the registry's address from the User settings, never from the workspace's", async () => {
    const a = await api();
    const url = `${server.url}registry.json`;
    // A repository's settings name another registry: written as a cloned repository holds them.
    const folder = suiteContext().folders[0]!;
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    writeFileSync(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify({ 'acp.registry.url': 'http://127.0.0.1:2/evil.json' }),
    );
    await vscode.workspace.getConfiguration('acp').update('registry.url', url, vscode.ConfigurationTarget.Global);
    await waitFor('the User value in use', () => a.registry.url === url);
    const read = await a.registry.read(true);
    assert.equal(read.url, url);
    assert.deepEqual(
      read.registry?.agents.map((x) => x.id),
      ['ref-agent'],
    );
    assert.equal(server.requests('/registry.json').length, 1);
    // The workbench leaves the workspace's value out (machine scope); the log names it.
    assert.equal(await a.registry.ignoredValue(), 'http://127.0.0.1:2/evil.json');
  });

  it('installs a binary agent through Add Agent, lists its sessions, and Remove Agent deletes its download', async () => {
    const a = await api();
    askDriver('chooseQuickPickRow', 'Install Reference Agent 1.0.0');
    const id = await vscode.commands.executeCommand<string>('acp.addAgent', { registry: 'ref-agent' });
    assert.equal(id, 'ref-agent');
    const host = await waitFor('the agent configured', () => a.agents.get('ref-agent'));
    assert.deepEqual(host.config.registry, { id: 'ref-agent', version: '1.0.0', distribution: 'binary' });
    const dir = join(a.registry.agentsDir, 'ref-agent', '1.0.0');
    assert.equal(host.config.command, join(dir, 'bin', 'ref-agent'));
    const cwd = suiteContext().folders[0]!;
    const page = await host.listSessions({ cwd });
    assert.equal(page.sessions.length, 3);
    // Running: its folder holds a lease of the agent's process.
    await waitFor('a lease', () => existsSync(join(dir, '.acp-running', String(host.connection?.pid))));

    a.setConfirm(async (message) => {
      assert.match(message, /What was downloaded for it is deleted: .*agents\/ref-agent\/1\.0\.0/);
      return true;
    });
    assert.equal(await vscode.commands.executeCommand('acp.removeAgent', 'ref-agent'), true);
    await waitFor('the download deleted', () => !existsSync(join(a.registry.agentsDir, 'ref-agent')));
    assert.equal(a.agents.get('ref-agent'), undefined);
  });
});
