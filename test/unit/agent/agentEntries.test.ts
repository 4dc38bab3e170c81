import assert from 'node:assert/strict';
import {
  agentsInSettingsText,
  checkCommand,
  downloadedPackage,
  mergeEntries,
  withChanged,
  withoutEntry,
} from '../../../src/agent/agentEntries';
import { joinCommandLine, splitCommandLine } from '../../../src/agent/commandLine';
import { customEntry } from '../../../src/agent/presets';

describe('Agents edited without JSON', () => {
  it('splits a command line on spaces, keeping quoted words (a path with spaces) whole', () => {
    assert.deepEqual(splitCommandLine('  npx -y  @scope/agent  '), ['npx', '-y', '@scope/agent']);
    assert.deepEqual(splitCommandLine(`"/opt/My Tools/agent" --name 'two words' ""`), [
      '/opt/My Tools/agent',
      '--name',
      'two words',
      '',
    ]);
    assert.deepEqual(splitCommandLine('   '), []);
    assert.deepEqual(customEntry('"/opt/My Tools/agent" --acp', 'Mine', [])?.command, '/opt/My Tools/agent');
  });

  it('joins a command back into one line that splits to the same words', () => {
    const words = ['/opt/My Tools/agent', '--acp', 'say "hi"', ''];
    const line = joinCommandLine(words[0]!, words.slice(1));
    assert.equal(line, '"/opt/My Tools/agent" --acp "say \\"hi\\"" ""');
    assert.deepEqual(splitCommandLine(joinCommandLine('npx', ['-y', '@a/b'])), ['npx', '-y', '@a/b']);
  });

  it('refuses a program that is not on PATH (a typo), and finds one that is', () => {
    const files = new Set(['/usr/bin/my-agent', '/work/project/bin/local-agent']);
    const env = { PATH: '/usr/bin:/bin', platform: 'linux' as const, isExecutable: (p: string) => files.has(p) };
    const typo = checkCommand('my-agnet', env);
    assert.equal(typo.found, false);
    assert.match(!typo.found ? typo.why : '', /"my-agnet" was not found on PATH on this machine/);
    assert.deepEqual(checkCommand('my-agent', env), { found: true, path: '/usr/bin/my-agent' });
    assert.deepEqual(checkCommand('bin/local-agent', { ...env, cwd: '/work/project' }), {
      found: true,
      path: '/work/project/bin/local-agent',
    });
    const missingPath = checkCommand('/opt/none/agent', env);
    assert.match(!missingPath.found ? missingPath.why : '', /is not an executable file on this machine/);
    assert.equal(checkCommand('  ', env).found, false);
  });

  it('knows which launchers download a package before the agent starts', () => {
    assert.equal(
      downloadedPackage('npx', ['-y', '@agentclientprotocol/claude-agent-acp']),
      '@agentclientprotocol/claude-agent-acp',
    );
    assert.equal(downloadedPackage('/usr/local/bin/npx', ['--yes', 'pkg@1']), 'pkg@1');
    assert.equal(downloadedPackage('npx.cmd', ['pkg']), 'pkg');
    assert.equal(downloadedPackage('pnpm', ['dlx', 'pkg']), 'pkg');
    assert.equal(downloadedPackage('pnpm', ['exec', 'pkg']), undefined);
    assert.equal(downloadedPackage('uvx', ['some-agent']), 'some-agent');
    assert.equal(downloadedPackage('gemini', ['--acp']), undefined);
  });

  it('changes or removes one entry by id and keeps every field it does not touch', () => {
    const list = [
      { id: 'a', name: 'A', command: 'a', env: { K: '${secret:K}' }, mcpServers: [{ name: 'm' }] },
      { id: 'b', command: 'b' },
      'not an entry',
    ];
    assert.deepEqual(withChanged(list, 'a', { name: 'New A' })[0], {
      id: 'a',
      name: 'New A',
      command: 'a',
      env: { K: '${secret:K}' },
      mcpServers: [{ name: 'm' }],
    });
    assert.deepEqual(withChanged(list, 'a', { name: 'x' }).slice(1), list.slice(1));
    assert.deepEqual(withoutEntry(list, 'b'), [list[0], 'not an entry']);
  });

  it('copies entries to another scope without replacing one of the same id', () => {
    const ours = [{ id: 'a', command: 'here' }];
    const theirs = [{ id: 'a', command: 'there' }, { id: 'b', command: 'b' }, { command: 'no id' }];
    const { list, added } = mergeEntries(ours, theirs);
    assert.deepEqual(list, [
      { id: 'a', command: 'here' },
      { id: 'b', command: 'b' },
    ]);
    assert.deepEqual(added, [{ id: 'b', command: 'b' }]);
  });

  it('reads acp.agents from a settings file with comments and trailing commas', () => {
    const text = `{
      // my agents
      "editor.fontSize": 14,
      "acp.agents": [
        { "id": "claude-code", "command": "npx", "args": ["-y", "@agentclientprotocol/claude-agent-acp"], },
      ],
    }`;
    assert.deepEqual(agentsInSettingsText(text), [
      { id: 'claude-code', command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'] },
    ]);
    assert.equal(agentsInSettingsText('{ "acp.agents": {} }'), undefined);
    assert.equal(agentsInSettingsText('not json at all'), undefined);
    assert.equal(agentsInSettingsText(''), undefined);
  });
});
