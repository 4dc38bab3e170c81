// Add Agent from the ACP Registry as a new user has it, in a remote window (code-server): a
// registry and a binary agent's archive served on 127.0.0.1, the agent found by typing, what the
// install will download, where to and what it runs said before anything happens, the install,
// and the agent's sessions in the Sessions view. Then the registry lists a newer version: Manage
// Agents offers the update, installs it beside the first, and the agent starts as the new one.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { makeTarGz } from '../support/archives';
import { registryJson, serveRegistry, type RegistryServer } from '../support/registryServer';
import { SELECTORS, useWorkbench } from './harness';
import { seededSessions, since, titleOf, treeRow, widenSideBar } from './ui';
import { waitFor } from '../support/wait';

describe('Add Agent from the ACP Registry: a binary agent installed from 127.0.0.1', function () {
  let server: RegistryServer;
  const settings: Record<string, unknown> = {};
  before(async () => {
    server = await serveRegistry();
    settings['acp.registry.url'] = `${server.url}registry.json`;
  });
  after(() => server.close());
  const wb = useWorkbench({ agent: false, sessions: 4, turns: 1, settings });

  async function shot(name: string): Promise<void> {
    console.log(`      screenshot: ${await wb().screenshot(name)}`);
  }

  const platform = `linux-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;

  /** The registry: the reference agent as a binary at `version`, an npm agent, and an entry it cannot use. */
  async function publish(version: string): Promise<void> {
    const { fixture } = wb();
    // The "binary": a script that starts the reference agent with the arguments the registry gives.
    const script = `#!/bin/sh\n# reference agent ${version}\nexec "${process.execPath}" "${fixture.agentScript}" "$@"\n`;
    server.set(`/ref-agent-${version}.tar.gz`, { body: await makeTarGz([{ name: 'bin/ref-agent', data: script }]) });
    const target = {
      archive: `${server.url}ref-agent-${version}.tar.gz`,
      cmd: './bin/ref-agent',
      args: ['--store', fixture.storeDir, '--started-file', fixture.startedFile],
    };
    server.set('/registry.json', {
      etag: `"${version}"`,
      body: registryJson([
        {
          id: 'ref-agent',
          name: 'Reference Agent',
          version,
          description: 'The reference agent, packaged as a binary',
          distribution: { binary: { [platform]: target } },
        },
        {
          id: 'npm-agent',
          name: 'Npm Agent',
          version: '2.0.0',
          description: 'An agent on npm',
          distribution: { npx: { package: '@example/npm-agent@2.0.0', args: ['--acp'] } },
        },
        { id: 'broken', name: 'Broken Agent', version: '1.0.0', description: 'No distribution' },
      ]),
    });
  }

  function remoteSettings(): Record<string, unknown> {
    return parse(readFileSync(join(wb().server.userDataDir, 'Machine', 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
  }

  const agentsDir = () =>
    join(wb().server.userDataDir, 'User', 'globalStorage', 'acp-tools.acp-client', 'agents', 'ref-agent');

  it('lists the registry, says what the install will do, installs the binary and shows its sessions', async () => {
    const started = Date.now();
    const { page, fixture } = wb();
    await publish('1.0.0');
    const icon = page.locator(SELECTORS.acpIcon);
    await icon.waitFor({ state: 'visible', timeout: 60_000 });
    await icon.click();
    await widenSideBar(page, 520);
    await page
      .locator(`${SELECTORS.sessionsView} .welcome-view-content .monaco-button`, { hasText: 'Add Agent' })
      .click();
    const rows = page.locator(SELECTORS.quickPickRows);
    const ref = rows.filter({ hasText: 'Reference Agent' });
    // The registry's agents, with how each installs (the size from the server), and the entry it cannot use.
    await ref.filter({ hasText: /1\.0\.0 · download 1 KB/ }).waitFor({ state: 'visible', timeout: 30_000 });
    await rows
      .filter({ hasText: 'Npm Agent' })
      .filter({ hasText: /2\.0\.0 · (npm|needs Node\.js)/ })
      .waitFor();
    assert.match(
      await rows.filter({ hasText: 'Broken Agent' }).innerText(),
      /unavailable[\s\S]*it has no "distribution"/,
    );
    await shot('registry-1-add-agent');
    // Searchable: typing finds it.
    await page.locator(SELECTORS.quickInput).fill('reference');
    await ref.waitFor({ state: 'visible' });
    // Its size was asked (HEAD), nothing downloaded.
    assert.deepEqual(
      server.requests('/ref-agent-1.0.0.tar.gz').map((r) => r.method),
      ['HEAD'],
      'no download yet',
    );
    await ref.click();

    // Before anything is fetched or run: what, where, and what runs.
    const title = page.locator('.quick-input-widget .quick-input-title');
    await title.filter({ hasText: 'Add Reference Agent 1.0.0 from the ACP Registry' }).waitFor({ timeout: 10_000 });
    const install = rows.filter({ hasText: 'Install Reference Agent 1.0.0' });
    assert.match(await install.innerText(), /Runs \/.*\/agents\/ref-agent\/1\.0\.0\/bin\/ref-agent --store /);
    assert.match(await rows.filter({ hasText: 'Where it goes' }).innerText(), /\/agents\/ref-agent\/1\.0\.0$/m);
    assert.match(await rows.filter({ hasText: 'What it downloads' }).innerText(), /ref-agent-1\.0\.0\.tar\.gz/);
    assert.ok(!existsSync(agentsDir()), 'nothing is installed before the click');
    await shot('registry-2-what-it-does');
    await install.click();

    const sessions = seededSessions(fixture.storeDir, fixture.folders[0]!);
    await treeRow(page, titleOf(sessions[0]!)).waitFor({ state: 'visible', timeout: 60_000 });
    console.log(`      installed and listed in ${since(started)}`);
    const entry = (remoteSettings()['acp.agents'] as Record<string, unknown>[])[0]!;
    assert.deepEqual(entry.registry, { id: 'ref-agent', version: '1.0.0', distribution: 'binary' });
    assert.equal(entry.command, join(agentsDir(), '1.0.0', 'bin', 'ref-agent'));
    await shot('registry-3-sessions');
  });

  it('offers the newer version in Manage Agents, installs it beside the first, and starts as it', async () => {
    const { page } = wb();
    await publish('1.1.0');
    await page.locator('.statusbar-item', { hasText: 'ACP' }).first().click();
    const rows = page.locator(SELECTORS.quickPickRows);
    // The registry was read minutes ago: asked again on request.
    await rows.filter({ hasText: 'Check the ACP Registry for Updates' }).click();
    await rows.filter({ hasText: 'Update to 1.1.0' }).click();
    const update = rows.filter({ hasText: 'Update to 1.1.0' });
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Update Reference Agent from 1.0.0 to 1.1.0' })
      .waitFor({ timeout: 10_000 });
    await update.click();
    // The agent was running: the new version waits beside the old until the agent restarts.
    await page.locator('.statusbar-item', { hasText: 'ACP' }).first().click();
    const restart = rows.filter({ hasText: 'Restart Reference Agent' });
    await restart.filter({ hasText: 'switches to 1.1.0' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(readdirSync(agentsDir()).sort(), ['1.0.0', '1.1.0']);
    await shot('registry-4-update-waits');
    await restart.click();
    const entry = await waitFor('the entry switched to 1.1.0', () => {
      const e = (remoteSettings()['acp.agents'] as Record<string, unknown>[])[0]!;
      return (e.registry as { version?: string }).version === '1.1.0' && e;
    });
    assert.equal(entry.command, join(agentsDir(), '1.1.0', 'bin', 'ref-agent'));
    const sessions = seededSessions(wb().fixture.storeDir, wb().fixture.folders[0]!);
    await treeRow(page, titleOf(sessions[0]!)).waitFor({ state: 'visible', timeout: 60_000 });
    // The old version goes once nothing runs it.
    await waitFor('the old version removed', () => readdirSync(agentsDir()).join() === '1.1.0');
  });
});
