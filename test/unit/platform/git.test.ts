import assert from 'node:assert/strict';
import { isDiskFull } from '../../../src/checkpoints/gitProcess';
import { atLeast, GitLocator, gitCandidates, MIN_GIT, parseGitVersion } from '../../../src/platform/gitFind';
import { isolatedGitEnv, userGitEnv } from '../../../src/platform/gitEnv';
import { hardening, splitZ } from '../../../src/platform/gitRun';

describe('Finding git', () => {
  it('looks on PATH, then where the installers put it, per platform', () => {
    const there = new Set(['/home/u/bin/git', 'C:\\Program Files\\Git\\cmd\\git.exe', 'C:\\tools\\git.cmd']);
    const isExecutable = (p: string) => there.has(p);
    assert.deepEqual(gitCandidates({ platform: 'linux', env: { PATH: '/nope:/home/u/bin' }, isExecutable }), [
      '/home/u/bin/git',
      '/usr/bin/git',
      '/usr/local/bin/git',
    ]);
    assert.deepEqual(gitCandidates({ platform: 'darwin', env: { PATH: '' }, isExecutable }), [
      '/opt/homebrew/bin/git',
      '/usr/local/bin/git',
      '/usr/bin/git',
    ]);
    // Windows: `Path` as Windows spells it, only git.exe (a .cmd shim needs cmd.exe), Program Files.
    assert.deepEqual(
      gitCandidates({
        platform: 'win32',
        env: {
          Path: 'C:\\tools;C:\\Program Files\\Git\\cmd',
          ProgramFiles: 'C:\\Program Files',
          LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local',
        },
        isExecutable,
      }),
      ['C:\\Program Files\\Git\\cmd\\git.exe', 'C:\\Users\\u\\AppData\\Local\\Programs\\Git\\cmd\\git.exe'],
    );
  });

  it('one finder per window: looks once, and again a minute after a failed search', async () => {
    let now = 0;
    const missing = new GitLocator({ configured: '/no/such/git', platform: 'linux' }, () => now);
    const first = missing.find();
    await assert.rejects(first, /which was not found at \/no\/such\/git \(the git path set\)/);
    assert.equal(missing.find(), first, 'a failed search stands for a while');
    now = 61_000;
    assert.notEqual(missing.find(), first, 'then git is looked for again');
    await missing.find().catch(() => undefined);
    const found = new GitLocator({ configured: process.platform === 'win32' ? undefined : '/usr/bin/git' });
    if (process.platform !== 'win32') assert.equal(found.find(), found.find());
  });

  it('takes a configured git alone: one that does not work is said to be so, not replaced', () => {
    assert.deepEqual(
      gitCandidates({ configured: ' /opt/git/bin/git ', platform: 'linux', env: { PATH: '/usr/bin' } }),
      ['/opt/git/bin/git'],
    );
  });

  it('reads the version as each platform prints it, and needs 2.20 or newer', () => {
    assert.deepEqual(parseGitVersion('git version 2.39.5\n'), [2, 39, 5]);
    assert.deepEqual(parseGitVersion('git version 2.45.1.windows.1'), [2, 45, 1]);
    assert.deepEqual(parseGitVersion('git version 2.39.3 (Apple Git-146)'), [2, 39, 3]);
    assert.deepEqual(parseGitVersion('git version 3.0'), [3, 0, 0]);
    assert.equal(parseGitVersion('xcrun: error: invalid active developer path'), undefined);
    assert.equal(atLeast([2, 19, 9], MIN_GIT), false);
    assert.equal(atLeast([2, 20, 0], MIN_GIT), true);
    assert.equal(atLeast([3, 0, 0], MIN_GIT), true);
  });
});

describe("git's environment", () => {
  it("the checkpoints' git: drops the user's GIT_ variables and config, on Windows whatever their case", () => {
    const env = {
      PATH: '/usr/bin',
      GIT_DIR: '/user/.git',
      GIT_INDEX_FILE: '/user/.git/index',
      GIT_WORK_TREE: '/user',
      GIT_CONFIG_PARAMETERS: "'core.hooksPath'='/evil'",
      HOME: '/home/user',
      LANG: 'de_DE.UTF-8',
      git_dir: 'kept: not read by git on POSIX',
    };
    const linux = isolatedGitEnv(env, '/storage/home', 'linux');
    assert.equal(linux.GIT_DIR, undefined);
    assert.equal(linux.GIT_INDEX_FILE, undefined);
    assert.equal(linux.GIT_WORK_TREE, undefined);
    assert.equal(linux.GIT_CONFIG_PARAMETERS, undefined);
    assert.equal(linux.git_dir, 'kept: not read by git on POSIX');
    assert.equal(linux.HOME, '/storage/home');
    assert.equal(linux.GIT_CONFIG_GLOBAL, '/storage/home/gitconfig');
    assert.equal(linux.GIT_CONFIG_NOSYSTEM, '1');
    assert.equal(linux.LC_ALL, 'C');
    assert.equal(linux.PATH, '/usr/bin');
    const win = isolatedGitEnv(
      { Path: 'C:\\Windows', Git_Dir: 'C:\\user\\.git', git_work_tree: 'C:\\user' },
      'C:\\s\\home',
      'win32',
    );
    assert.deepEqual(
      Object.keys(win).filter((k) => /^git_(dir|work_tree)$/i.test(k)),
      [],
    );
    assert.equal(win.GIT_CONFIG_GLOBAL, 'C:\\s\\home\\gitconfig');
    assert.equal(win.Path, 'C:\\Windows');
  });

  it("the user's git: keeps their identity and config, drops what aims it elsewhere or starts a pager or diff program", () => {
    const env = userGitEnv(
      {
        git_dir: '/x',
        Path: 'C:\\git',
        GIT_AUTHOR_NAME: 'A',
        Git_Pager: 'less',
        PAGER: 'less',
        GIT_EXTERNAL_DIFF: '/evil',
        GIT_EDITOR: 'vim',
      },
      'win32',
    );
    assert.equal(env.git_dir, undefined);
    assert.equal(env.Git_Pager, undefined);
    assert.equal(env.PAGER, undefined);
    assert.equal(env.GIT_EXTERNAL_DIFF, undefined);
    assert.equal(env.GIT_EDITOR, undefined);
    assert.equal(env.Path, 'C:\\git');
    assert.equal(env.GIT_AUTHOR_NAME, 'A');
    assert.equal(env.GIT_TERMINAL_PROMPT, '0');
    assert.equal(userGitEnv({ git_dir: '/x' }, 'linux').git_dir, '/x');
  });

  it('every command goes without fsmonitor, pager or colours, and without hooks unless asked', () => {
    assert.deepEqual(hardening('/usr/bin/git', false), [
      '--no-pager',
      '-c',
      'core.fsmonitor=',
      '-c',
      'color.ui=false',
      '-c',
      'core.hooksPath=/usr/bin/git',
    ]);
    assert.ok(!hardening('/usr/bin/git', true).some((a) => a.startsWith('core.hooksPath')));
  });

  it('knows a full disk when git or Node reports one', () => {
    assert.ok(isDiskFull('fatal: unable to write loose object file: No space left on device'));
    assert.ok(isDiskFull('error: write failed: Disk quota exceeded'));
    assert.ok(isDiskFull('ENOSPC: no space left on device, write'));
    assert.ok(!isDiskFull("fatal: pathspec 'x' did not match any files"));
  });

  it('splits -z output, setting apart names that are not UTF-8', () => {
    const out = Buffer.concat([Buffer.from('a.txt\0dir/é.txt\0'), Buffer.from([0x62, 0xff, 0]), Buffer.from('z\0')]);
    assert.deepEqual(splitZ(out), { parts: ['a.txt', 'dir/é.txt', 'z'], notUtf8: 1 });
    assert.deepEqual(splitZ(Buffer.alloc(0)), { parts: [], notUtf8: 0 });
  });
});
