import assert from 'node:assert/strict';
import { BRANCH_WORDS_MAX, defaultBranchName, worktreePath } from '../../../src/worktrees/paths';
import { parseNameStatusZ, parseStatusZ, parseWorktreeList } from '../../../src/worktrees/porcelain';

describe('worktree paths and git output', () => {
  it('places a worktree beside the repository, or where the user set, on each platform', () => {
    assert.equal(worktreePath('/home/u/app', 'feature/x', { platform: 'linux' }), '/home/u/app.worktrees/feature/x');
    assert.equal(
      worktreePath('C:\\src\\app', 'feature/x', { platform: 'win32' }),
      'C:\\src\\app.worktrees\\feature\\x',
    );
    assert.equal(
      worktreePath('/home/u/app', 'x', { location: '.worktrees', platform: 'darwin' }),
      '/home/u/app/.worktrees/x',
    );
    assert.equal(worktreePath('C:\\src\\app', 'x', { location: 'D:\\wt', platform: 'win32' }), 'D:\\wt\\x');
    assert.equal(
      worktreePath('C:\\src\\super\\libs\\lib', 'x', { outer: 'C:\\src\\super', platform: 'win32' }),
      'C:\\src\\super.worktrees\\libs-lib\\x',
    );
  });

  it('names a branch from the first words of a prompt, or from the time', () => {
    assert.equal(defaultBranchName('Fix the login bug, please: now!', new Date()), 'acp/fix-the-login-bug-please');
    assert.equal(defaultBranchName('Répare ça', new Date()), 'acp/repare-ca');
    assert.equal(defaultBranchName('  ', new Date(2026, 0, 5, 9, 7)), 'acp/2026-01-05-0907');
  });

  it('keeps a prompt’s branch name to what Windows, git and a folder accept', () => {
    const now = new Date(2026, 0, 5, 9, 7);
    // Every character Windows refuses in a folder name, and those git refuses in a ref.
    assert.equal(defaultBranchName('a<b>c:d"e/f\\g|h?i*j ~k^l..m@{n}', now), 'acp/a-b-c-d-e');
    assert.equal(defaultBranchName('Add <Login>: "fast"? *now*', now), 'acp/add-login-fast-now');
    // Other scripts are kept whole; accents come off where they can.
    assert.equal(defaultBranchName('修复 登录页面 bug', now), 'acp/修复-登录页面-bug');
    assert.equal(defaultBranchName('Ünïcödé Straße', now), 'acp/unicode-straße');
    assert.equal(defaultBranchName('Исправь ошибку', now), 'acp/исправь-ошибку');
    // Only punctuation or emoji: no words, so the time.
    assert.equal(defaultBranchName('?!… 🎉🎉', now), 'acp/2026-01-05-0907');
    // A name Windows keeps for a device is never the folder's.
    assert.equal(defaultBranchName('CON', now), 'acp/con-1');
    assert.equal(defaultBranchName('nul.', now), 'acp/nul-1');
    // Capped at whole characters, never ending in a hyphen.
    const long = defaultBranchName('implementation of the extraordinarily comprehensive refactoring', now);
    assert.equal(long, 'acp/implementation-of-the-extraordinarily');
    assert.ok(Array.from(long).length <= 4 + BRANCH_WORDS_MAX);
    const cjk = defaultBranchName('𠀀'.repeat(60), now);
    assert.equal(Array.from(cjk).length, 4 + BRANCH_WORDS_MAX, 'characters outside the BMP are not split');
    assert.ok(!cjk.includes('\uFFFD'));
  });

  it('reads worktree lists with and without -z', () => {
    const z =
      'worktree /r\0HEAD abc\0branch refs/heads/main\0\0worktree /r.wt/a b\0HEAD def\0detached\0locked\0\0' +
      'worktree /gone\0HEAD 123\0branch refs/heads/x/y\0locked on usb\0prunable gitdir file points to non-existent location\0\0';
    const lines = z.replace(/\0/g, '\n');
    for (const [out, isZ] of [
      [z, true],
      [lines, false],
    ] as const) {
      assert.deepEqual(parseWorktreeList(out, isZ), [
        { path: '/r', head: 'abc', branch: 'main', bare: false, detached: false },
        { path: '/r.wt/a b', head: 'def', bare: false, detached: true, locked: '' },
        {
          path: '/gone',
          head: '123',
          branch: 'x/y',
          bare: false,
          detached: false,
          locked: 'on usb',
          prunable: 'gitdir file points to non-existent location',
        },
      ]);
    }
  });

  it('reads status and name-status with renames and odd names', () => {
    assert.deepEqual(parseStatusZ(' M a b.txt\0R  new\0old\0?? é.txt\0UU c\0'), [
      { path: 'a b.txt', status: 'M' },
      { path: 'new', from: 'old', status: 'R' },
      { path: 'é.txt', status: '?' },
      { path: 'c', status: 'U' },
    ]);
    assert.deepEqual(parseNameStatusZ('M\0a\0R087\0old\0new\0D\0"q".txt\0'), [
      { path: 'a', status: 'M' },
      { path: 'new', from: 'old', status: 'R' },
      { path: '"q".txt', status: 'D' },
    ]);
  });
});
