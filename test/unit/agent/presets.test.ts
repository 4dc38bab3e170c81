import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseAgents } from '../../../src/agent/config';
import {
  customEntry,
  findOnPath,
  notInstalledMessage,
  presetEntry,
  PRESETS,
  uniqueId,
} from '../../../src/agent/presets';

/** The repository root: the nearest folder up from this (bundled) file with a package.json. */
let repoRoot = __dirname;
while (!existsSync(join(repoRoot, 'package.json')) && dirname(repoRoot) !== repoRoot) repoRoot = dirname(repoRoot);

const schema = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).contributes.configuration.properties[
  'acp.agents'
].items;

describe('Add Agent presets', () => {
  it('offers Claude Code, both Codex adapters, GitHub Copilot CLI, Gemini CLI and OpenCode, with the flags their current versions take', () => {
    assert.deepEqual(
      PRESETS.map((p) => [p.name, [p.command, ...p.args].join(' ')]),
      [
        ['Claude Code', 'npx -y @agentclientprotocol/claude-agent-acp'],
        ['Codex', 'npx -y @zed-industries/codex-acp'],
        ['Codex (TypeScript adapter)', 'npx -y @agentclientprotocol/codex-acp'],
        ['GitHub Copilot CLI', 'copilot --acp --stdio'],
        ['Gemini CLI', 'gemini --acp'],
        ['OpenCode', 'opencode acp'],
      ],
    );
    assert.equal(new Set(PRESETS.map((p) => p.id)).size, PRESETS.length, 'ids are distinct');
  });

  it('says what to install and how sign-in goes for each', () => {
    for (const p of PRESETS) {
      assert.match(p.install, /install/i, p.name);
      assert.ok(p.signIn.length > 20, p.name);
    }
    const copilot = PRESETS.find((p) => p.id === 'copilot')!;
    assert.match(copilot.install, /npm install -g @github\/copilot/);
    assert.match(copilot.signIn, /copilot login/);
  });

  for (const preset of PRESETS) {
    it(`${preset.name}: a complete acp.agents entry that the settings accept as written`, () => {
      const entry = presetEntry(preset, []);
      assert.deepEqual(Object.keys(entry).sort(), ['args', 'command', 'env', 'id', 'name']);
      for (const key of Object.keys(entry)) assert.ok(key in schema.properties, `${key} is in the settings schema`);
      for (const key of schema.required as string[]) assert.ok(key in entry);
      assert.match(entry.id, new RegExp(schema.properties.id.pattern));
      assert.equal(entry.command, preset.command);
      assert.deepEqual(entry.args, [...preset.args]);
      const { agents, problems } = parseAgents([entry]);
      assert.deepEqual(problems, []);
      const parsed = agents[0]! as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(entry)) assert.deepEqual(parsed[key], value, key);
    });

    it(`${preset.name}: when "${preset.requires}" is not installed, says how to install it`, () => {
      assert.equal(
        findOnPath(preset.requires, { PATH: '/nowhere:/also/nowhere', platform: 'linux', isExecutable: () => false }),
        undefined,
      );
      const message = notInstalledMessage(preset);
      assert.ok(message.includes(`"${preset.requires}" was not found on PATH`));
      assert.ok(message.includes(preset.install));
      assert.match(preset.install, /install/i);
    });
  }

  it('does not replace an agent with the same id', () => {
    assert.equal(presetEntry(PRESETS[1]!, ['codex', 'codex-2']).id, 'codex-3');
    assert.equal(uniqueId('a', []), 'a');
  });

  it('makes a custom entry from a command line and a name', () => {
    assert.deepEqual(customEntry('  /opt/bin/my-agent  --acp --fast ', 'My Agent!', ['my-agent']), {
      id: 'my-agent-2',
      name: 'My Agent!',
      command: '/opt/bin/my-agent',
      args: ['--acp', '--fast'],
      env: {},
    });
    assert.equal(customEntry('/opt/bin/tool', undefined, [])?.name, 'tool');
    assert.equal(customEntry('   ', 'x', []), undefined);
  });

  it('finds a program on PATH without running anything, with PATHEXT on Windows', () => {
    const files = new Set(['/usr/local/bin/gemini', 'C:\\node\\npx.CMD']);
    assert.equal(
      findOnPath('gemini', { PATH: '/usr/bin:/usr/local/bin', platform: 'linux', isExecutable: (p) => files.has(p) }),
      '/usr/local/bin/gemini',
    );
    const win = findOnPath('npx', {
      PATH: 'C:\\x;C:\\node',
      PATHEXT: '.EXE;.CMD',
      platform: 'win32',
      isExecutable: (p) => files.has(p.replace(/\//g, '\\')),
    });
    assert.ok(win?.endsWith('npx.CMD'));
    assert.ok(findOnPath(process.execPath), 'an absolute path that exists');
    assert.equal(findOnPath('surely-not-a-program-acp-xyz'), undefined);
  });
});
