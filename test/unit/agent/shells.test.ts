import assert from 'node:assert/strict';
import { RequestError } from '@agentclientprotocol/sdk';
import {
  chooseShell,
  planCommand,
  quoteForShell,
  shellCommandLine,
  shellInvocation,
  type ShellSetting,
} from '../../../src/agent/shells';

const GIT = 'C:\\Program Files\\Git';
const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
const WSL_BASH = 'C:\\Windows\\System32\\bash.exe';

function winEnv(files: string[], extra: Record<string, string> = {}) {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return {
    platform: 'win32' as const,
    env: {
      Path: `C:\\Windows\\System32;${GIT}\\cmd`,
      PATHEXT: '.com;.exe;.bat;.cmd',
      SystemRoot: 'C:\\Windows',
      ComSpec: 'C:\\Windows\\System32\\cmd.exe',
      ProgramFiles: 'C:\\Program Files',
      ...extra,
    },
    isExecutable: (p: string) => set.has(p.toLowerCase()),
  };
}

const chosen = (setting: ShellSetting, env: ReturnType<typeof winEnv>) => {
  const c = chooseShell(setting, env);
  return 'shell' in c ? c.shell : c.why;
};

describe("The shell that runs an agent's shell lines", () => {
  it("on Windows: Git Bash when installed, else PowerShell, else cmd.exe; never WSL's bash", () => {
    const all = winEnv([`${GIT}\\cmd\\git.exe`, `${GIT}\\bin\\bash.exe`, PS, WSL_BASH]);
    assert.deepEqual(chosen('auto', all), { kind: 'bash', path: `${GIT}\\bin\\bash.exe` });
    const noGit = winEnv([PS, WSL_BASH]);
    assert.deepEqual(chosen('auto', noGit), { kind: 'powershell', path: PS });
    const bare = winEnv([WSL_BASH]);
    assert.deepEqual(chosen('auto', bare), { kind: 'cmd', path: 'C:\\Windows\\System32\\cmd.exe' });
  });

  it('follows the setting, and says so when the shell chosen is missing', () => {
    const all = winEnv([`${GIT}\\cmd\\git.exe`, `${GIT}\\bin\\bash.exe`, PS]);
    assert.equal((chosen('powershell', all) as { kind: string }).kind, 'powershell');
    assert.equal((chosen('cmd', all) as { kind: string }).kind, 'cmd');
    assert.match(chosen('gitBash', winEnv([PS])) as string, /Git Bash was chosen.*not found/);
    assert.match(chosen('powershell', winEnv([])) as string, /PowerShell was chosen.*not found/);
  });

  it('finds Git Bash from a git.exe in mingw64\\bin too, and in the per-user install', () => {
    const git = winEnv([`${GIT}\\mingw64\\bin\\git.exe`, `${GIT}\\bin\\bash.exe`], {
      Path: `${GIT}\\mingw64\\bin`,
      ProgramFiles: 'D:\\none',
    });
    assert.equal((chosen('auto', git) as { path: string }).path, `${GIT}\\bin\\bash.exe`);
    const user = 'C:\\Users\\me\\AppData\\Local';
    const local = winEnv([`${user}\\Programs\\Git\\bin\\bash.exe`], {
      Path: 'C:\\Windows',
      ProgramFiles: 'D:\\none',
      LOCALAPPDATA: user,
    });
    assert.equal((chosen('auto', local) as { path: string }).path, `${user}\\Programs\\Git\\bin\\bash.exe`);
  });

  it('is /bin/sh on Linux and macOS', () => {
    for (const platform of ['linux', 'darwin'] as const)
      assert.deepEqual(chooseShell('auto', { platform }), { shell: { kind: 'sh', path: '/bin/sh' } });
  });

  it('starts each shell so the line arrives whole', () => {
    assert.deepEqual(shellInvocation({ kind: 'bash', path: 'bash.exe' }, 'ls | head'), {
      args: ['-c', 'ls | head'],
      verbatim: false,
    });
    const ps = shellInvocation({ kind: 'powershell', path: PS }, 'Get-ChildItem | Select -First 1');
    assert.equal(Buffer.from(ps.args.at(-1)!, 'base64').toString('utf16le'), 'Get-ChildItem | Select -First 1');
    assert.deepEqual(shellInvocation({ kind: 'cmd', path: 'cmd.exe' }, 'dir /b'), {
      args: ['/d', '/s', '/c', '"dir /b"'],
      verbatim: true,
    });
  });

  it('quotes arguments for the shell chosen', () => {
    assert.equal(quoteForShell('bash', "it's"), `'it'\\''s'`);
    assert.equal(quoteForShell('bash', 'plain-word'), 'plain-word');
    assert.equal(quoteForShell('sh', '$(rm -rf /)'), `'$(rm -rf /)'`);
    assert.equal(quoteForShell('powershell', "it's $x"), `'it''s $x'`);
    assert.equal(quoteForShell('cmd', 'a&b'), '^"a^&b^"');
    assert.equal(shellCommandLine('powershell', 'echo', ['a b']), `& 'echo' 'a b'`);
    assert.equal(shellCommandLine('bash', 'ls', ['-la', 'my dir']), `ls -la 'my dir'`);
  });

  it('plans an agent command: a .cmd through PATHEXT, a shell line through the shell, a builtin through it too', () => {
    const fake = winEnv([`${GIT}\\cmd\\git.exe`, `${GIT}\\bin\\bash.exe`, 'C:\\node\\npm.cmd'], {
      Path: `C:\\node;${GIT}\\cmd`,
    });
    const env = fake.env;
    const opts = {
      env,
      cwd: 'C:\\work',
      platform: 'win32' as const,
      isExecutable: fake.isExecutable,
      readText: () => '@echo off\r\nnode x.js %*',
    };
    const npm = planCommand('npm', ['test', 'a&b'], { ...opts, shell: 'cmd' });
    assert.equal(npm.via, 'cmd');
    assert.equal(npm.found, 'C:\\node\\npm.cmd');
    assert.ok(npm.args.at(-1)!.includes('^^^"a^^^&b^^^"'), npm.args.at(-1));
    const line = planCommand('ls | head', [], opts);
    assert.equal(line.shell, 'bash');
    assert.deepEqual(line.args, ['-c', 'ls | head']);
    const builtin = planCommand('echo', ['a b'], opts);
    assert.equal(builtin.shell, 'bash');
    assert.deepEqual(builtin.args, ['-c', `echo 'a b'`]);
    // A path that names no program is not the shell's: it is refused, not run as a shell line.
    assert.throws(
      () => planCommand('C:\\work\\no-such-program', ['x'], opts),
      (e: unknown) =>
        e instanceof RequestError && e.code === -32603 && /"C:\\work\\no-such-program" was not found/.test(e.message),
    );
    assert.throws(
      () => planCommand('missing', ['x'], { ...opts, isExecutable: () => false, shell: 'gitBash' }),
      (e: unknown) => e instanceof RequestError && /not found/.test(e.message),
    );
  });
});
