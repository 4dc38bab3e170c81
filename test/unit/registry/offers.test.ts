import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PRESETS } from '../../../src/agent/presets';
import type { AgentConfig } from '../../../src/agent/types';
import { installPlan, registryEntry, updatedFields } from '../../../src/registry/entry';
import type { RegistryAgent } from '../../../src/registry/format';
import { compareVersions, installOf } from '../../../src/registry/installs';
import type { MachineFacts } from '../../../src/registry/installWay';
import { offers, presetMatches } from '../../../src/registry/offers';

const linux: MachineFacts = { platform: 'linux', arch: 'x64', has: (p) => p === 'npx' };
const preset = (id: string) => PRESETS.find((p) => p.id === id)!;

const gemini: RegistryAgent = {
  id: 'gemini',
  name: 'Gemini CLI',
  version: '0.27.3',
  description: 'Google',
  distribution: { npx: { package: '@google/gemini-cli@0.27.3', args: ['--experimental-acp'], env: {} } },
};
const oldClaude: RegistryAgent = {
  id: 'claude-code-acp',
  name: 'Claude Code',
  version: '0.16.0',
  description: 'Claude',
  distribution: { npx: { package: '@zed-industries/claude-code-acp@0.16.0', args: [], env: {} } },
};
const opencode: RegistryAgent = {
  id: 'opencode',
  name: 'OpenCode',
  version: '1.1.53',
  description: 'OpenCode',
  distribution: {
    binary: {
      'linux-x86_64': { archive: 'https://x/opencode-linux-x64.tar.gz', cmd: './opencode', args: ['acp'], env: {} },
      'windows-x86_64': {
        archive: 'https://x/opencode-windows-x64.zip',
        cmd: './opencode.exe',
        args: ['acp'],
        env: {},
      },
    },
  },
};

describe('Registry: what Add Agent offers', () => {
  it('joins a preset to the registry entry that runs the same program, and only that one', () => {
    assert.ok(presetMatches(preset('gemini'), gemini));
    assert.ok(presetMatches(preset('opencode'), opencode), 'a binary of the same name on every platform');
    // The registry copy of February lists Claude Code under the old package: not what was checked.
    assert.ok(!presetMatches(preset('claude-code'), oldClaude));
    assert.ok(!presetMatches(preset('codex-ts'), gemini));
  });

  it('lists the registry, the presets it does not cover, and marks what is set up', () => {
    const configured: AgentConfig[] = [
      {
        id: 'gemini',
        name: 'Gemini CLI',
        command: 'npx',
        args: ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'],
        env: {},
      },
      {
        id: 'oc',
        name: 'OpenCode',
        command: '/x/agents/opencode/1.1.53/opencode',
        args: ['acp'],
        env: {},
        registry: { id: 'opencode', version: '1.1.53', distribution: 'binary' },
      },
    ];
    const list = offers({
      agents: [gemini, oldClaude, opencode],
      unavailable: [{ id: 'broken', why: 'it has no "distribution"' }],
      presets: PRESETS,
      configured,
      machine: linux,
      // gemini is installed on this machine; opencode is not.
      found: (p) => p === 'npx' || p === 'gemini',
    });
    const rows = list.map((o) =>
      o.kind === 'registry'
        ? `registry ${o.agent.id}${o.preset ? ` +${o.preset.id}` : ''}${o.setUp.length ? ' set up' : ''}`
        : o.kind === 'preset'
          ? `preset ${o.preset.id}`
          : `unavailable ${o.entry.id}`,
    );
    assert.deepEqual(rows, [
      'registry gemini +gemini set up',
      'registry claude-code-acp',
      'registry opencode +opencode set up',
      'preset claude-code',
      'preset codex',
      'preset codex-ts',
      'preset copilot',
      // Its own program is installed here: offered beside the registry's pinned package.
      'preset gemini',
      'unavailable broken',
    ]);
  });

  it('says what an install downloads, where it goes and what runs, before anything happens', () => {
    const way = {
      kind: 'binary',
      platform: 'linux-x86_64',
      target: opencode.distribution.binary!['linux-x86_64']!,
    } as const;
    const plan = installPlan(opencode, way, join('/g', 'agents'), { size: 42 * 1024 * 1024, platform: 'linux' });
    assert.deepEqual(plan, {
      download: 'https://x/opencode-linux-x64.tar.gz (42 MB)',
      folder: join('/g', 'agents', 'opencode', '1.1.53'),
      runs: `${join('/g', 'agents', 'opencode', '1.1.53', 'opencode')} acp`,
    });
    const npx = {
      kind: 'npx',
      command: 'npx',
      args: ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'],
      env: {},
    } as const;
    assert.deepEqual(installPlan(gemini, npx, '/g/agents'), {
      runs: 'npx -y @google/gemini-cli@0.27.3 --experimental-acp',
      download: 'npm fetches Gemini CLI 0.27.3 into its own cache on the first start',
    });
    const e = registryEntry(opencode, way, ['opencode'], '/g/agents/opencode/1.1.53/opencode');
    assert.deepEqual(e, {
      id: 'opencode-2',
      name: 'OpenCode',
      command: '/g/agents/opencode/1.1.53/opencode',
      args: ['acp'],
      env: {},
      registry: { id: 'opencode', version: '1.1.53', distribution: 'binary' },
    });
    assert.deepEqual(updatedFields(gemini, npx), {
      command: 'npx',
      args: npx.args,
      env: {},
      registry: { id: 'gemini', version: '0.27.3', distribution: 'npx' },
    });
  });

  it('compares versions and finds the install a command runs from', () => {
    assert.equal(compareVersions('1.4.0', '1.3.9'), 1);
    assert.equal(compareVersions('1.10.0', '1.9.0'), 1);
    assert.equal(compareVersions('1.0.0', '1.0.0'), 0);
    assert.equal(compareVersions('1.0.0-beta.1', '1.0.0'), -1);
    assert.equal(compareVersions('0.9.2', '0.16.0'), -1);
    const agents = join('/g', 'agents');
    assert.deepEqual(installOf(agents, join(agents, 'opencode', '1.1.53', 'bin', 'opencode')), {
      id: 'opencode',
      version: '1.1.53',
      dir: join(agents, 'opencode', '1.1.53'),
    });
    assert.equal(installOf(agents, 'npx'), undefined);
    assert.equal(installOf(agents, join(agents, 'opencode', '1.1.53')), undefined);
    assert.equal(installOf(agents, join('/g', 'elsewhere', 'x', '1.0.0', 'y')), undefined);
    assert.equal(installOf(agents, join(agents, '..', 'x', '1.0.0', 'y')), undefined);
  });
});
