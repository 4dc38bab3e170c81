import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RegistryAgent } from '../../../src/registry/format';
import { installWay, platformKey, uvHint, type MachineFacts } from '../../../src/registry/installWay';
import { checkAddress, isLoopback } from '../../../src/registry/http';
import { archiveKind, entryParts } from '../../../src/registry/unpack';
import { commandParts, versionDir } from '../../../src/registry/install';

const base = { id: 'demo', name: 'Demo', version: '1.4.0', description: 'd' };
const target = (cmd: string) => ({ archive: `https://x/demo-${cmd}.zip`, cmd, args: ['acp'], env: {} });
const binary: RegistryAgent = {
  ...base,
  distribution: {
    binary: {
      'linux-x86_64': target('./demo'),
      'darwin-aarch64': target('./demo'),
      'windows-x86_64': target('./demo.exe'),
    },
  },
};
const machine = (platform: NodeJS.Platform, arch: string, has: string[] = []): MachineFacts => ({
  platform,
  arch,
  has: (p) => has.includes(p),
});

describe('Registry: how an agent installs on this machine', () => {
  it('names the platform as the registry does', () => {
    assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('darwin', 'x64'), 'darwin-x86_64');
    assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformKey('win32', 'arm64'), 'windows-aarch64');
    assert.equal(platformKey('freebsd', 'x64'), undefined);
    assert.equal(platformKey('linux', 'ia32'), undefined);
  });

  it('takes the binary built for this platform (windows-* with its .exe, darwin-*), and shows one not built for it', () => {
    const win = installWay(binary, machine('win32', 'x64'));
    assert.ok('kind' in win && win.kind === 'binary');
    assert.equal(win.platform, 'windows-x86_64');
    assert.equal(win.target.cmd, './demo.exe');
    const mac = installWay(binary, machine('darwin', 'arm64'));
    assert.ok('kind' in mac && mac.kind === 'binary' && mac.platform === 'darwin-aarch64');
    const intelMac = installWay(binary, machine('darwin', 'x64', ['npx']));
    assert.deepEqual(intelMac, {
      why: 'not built for this machine (darwin-x86_64); built for linux-x86_64, darwin-aarch64, windows-x86_64',
    });
    assert.match((installWay(binary, machine('win32', 'arm64')) as { why: string }).why, /windows-aarch64/);
  });

  it('pins npx and uvx packages to the registry version, with its env, and says what is missing', () => {
    const npx: RegistryAgent = {
      ...base,
      distribution: { npx: { package: '@demo/agent', args: ['--acp'], env: { A: '1' } } },
    };
    assert.deepEqual(installWay(npx, machine('linux', 'x64', ['npx'])), {
      kind: 'npx',
      command: 'npx',
      args: ['-y', '@demo/agent@1.4.0', '--acp'],
      env: { A: '1' },
    });
    const pinned: RegistryAgent = {
      ...base,
      distribution: { npx: { package: '@demo/agent@1.3.9', cmd: 'demo-acp', args: [], env: {} } },
    };
    assert.deepEqual((installWay(pinned, machine('linux', 'x64', ['npx'])) as unknown as { args: string[] }).args, [
      '-y',
      '--package',
      '@demo/agent@1.3.9',
      'demo-acp',
    ]);
    assert.deepEqual(installWay(npx, machine('linux', 'x64')), {
      why: 'needs Node.js (npx was not found on PATH)',
      needs: 'node',
    });
    const uvx: RegistryAgent = { ...base, distribution: { uvx: { package: 'demo-agent', args: ['serve'], env: {} } } };
    assert.deepEqual(installWay(uvx, machine('linux', 'x64', ['uvx'])), {
      kind: 'uvx',
      command: 'uvx',
      args: ['demo-agent==1.4.0', 'serve'],
      env: {},
    });
    assert.deepEqual(installWay(uvx, machine('linux', 'x64', ['npx'])), {
      why: 'needs uv (uvx was not found on PATH)',
      needs: 'uv',
    });
    assert.match(uvHint('win32'), /winget install --id=astral-sh\.uv/);
    assert.match(uvHint('darwin'), /brew install uv/);
  });

  it('prefers the binary for this platform over a package, and a package over a binary built elsewhere', () => {
    const both: RegistryAgent = {
      ...base,
      distribution: { npx: { package: 'demo', args: [], env: {} }, binary: { 'darwin-aarch64': target('./demo') } },
    };
    assert.equal((installWay(both, machine('darwin', 'arm64', ['npx'])) as { kind: string }).kind, 'binary');
    assert.equal((installWay(both, machine('linux', 'x64', ['npx'])) as { kind: string }).kind, 'npx');
  });
});

describe('Registry: names that could escape', () => {
  it('refuses entry names that climb out, are absolute or drive paths; keeps ordinary ones', () => {
    assert.deepEqual(entryParts('./bin/agent'), ['bin', 'agent']);
    assert.deepEqual(entryParts('dir//x/./y'), ['dir', 'x', 'y']);
    assert.deepEqual(entryParts('./'), []);
    assert.match(entryParts('../../x') as string, /climbs out/);
    assert.match(entryParts('a/../../x') as string, /climbs out/);
    assert.match(entryParts('/etc/passwd') as string, /absolute/);
    assert.match(entryParts('C:/Windows/x') as string, /absolute/);
    assert.match(entryParts('\\\\server\\share\\x') as string, /absolute/);
    assert.match(entryParts('a\0b') as string, /NUL/);
    // On Windows a backslash separates folders, and names Windows reads as another file are refused.
    assert.match(entryParts('a\\..\\..\\x', 'win32') as string, /climbs out/);
    assert.deepEqual(entryParts('a\\b', 'linux'), ['a\\b']);
    assert.match(entryParts('bin/agent.exe:evil', 'win32') as string, /NTFS stream/);
    assert.match(entryParts('bin/CON', 'win32') as string, /device name/);
  });

  it('checks the command the same way, and an id or version before it names a folder', () => {
    assert.deepEqual(commandParts('./opencode'), ['opencode']);
    assert.deepEqual(commandParts('./bin/codex-acp.exe', 'win32'), ['bin', 'codex-acp.exe']);
    assert.match(commandParts('../../../bin/sh') as string, /its command "\.\.\/\.\.\/\.\.\/bin\/sh" climbs out/);
    assert.match(commandParts('/bin/sh') as string, /absolute/);
    assert.match(commandParts('.\\..\\x.exe', 'win32') as string, /climbs out/);
    assert.match(commandParts('./') as string, /names no file/);
    assert.equal(versionDir(join('/g', 'agents'), 'demo', '1.4.0'), join('/g', 'agents', 'demo', '1.4.0'));
    assert.deepEqual(versionDir('/g/agents', '../x', '1.0.0'), [
      'the id "../x" is not lowercase letters, digits and "-"',
    ]);
    assert.deepEqual(versionDir('/g/agents', 'demo', '1.0.0/../../x'), [
      'the version "1.0.0/../../x" cannot name a folder',
    ]);
  });

  it('knows the archive kinds of the format by name, anything else being the program itself', () => {
    assert.equal(archiveKind('https://x/a/agent-1.0.zip'), 'zip');
    assert.equal(archiveKind('https://x/a.tar.gz'), 'tar.gz');
    assert.equal(archiveKind('https://x/a.TGZ?x=1'), 'tar.gz');
    assert.equal(archiveKind('https://x/a.tar.bz2'), 'tar.bz2');
    assert.equal(archiveKind('https://x/a.tbz2'), 'tar.bz2');
    assert.equal(archiveKind('https://x/cagent-linux-amd64'), 'raw');
  });

  it('fetches only https, or plain http from this machine', () => {
    assert.ok(isLoopback('127.0.0.1') && isLoopback('127.8.9.10') && isLoopback('[::1]') && isLoopback('localhost'));
    assert.ok(!isLoopback('10.0.0.1') && !isLoopback('127.0.0.1.evil.com') && !isLoopback('localhost.evil.com'));
    assert.ok(checkAddress('https://cdn.example/registry.json') instanceof URL);
    assert.ok(checkAddress('http://127.0.0.1:8080/registry.json') instanceof URL);
    assert.match(
      checkAddress('http://mirror.corp/registry.json') as string,
      /plain HTTP: only https addresses are fetched/,
    );
    assert.match(checkAddress('file:///etc/passwd') as string, /not an https address/);
    assert.match(checkAddress('https://user:pw@x/') as string, /user name or password/);
    assert.match(checkAddress('not a url') as string, /not an address/);
  });
});
