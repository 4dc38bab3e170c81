// What a fork's new worktree starts with, against real repositories made here: the folder's
// uncommitted changes carried over (the folder keeps them), or the files of a checkpoint taken
// earlier, written byte for byte into a worktree made from a later commit.
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../src/checkpoints/checkpoints';
import { Git } from '../../src/worktrees/git';
import { Worktrees } from '../../src/worktrees/worktrees';
import { git, treeState, writeFiles } from '../support/checkpoints';
import { tempDir } from '../support/refAgent';

const identity = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

const status = (cwd: string) => git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
const read = (...p: string[]) => readFileSync(join(...p), 'utf8');

describe('A fork’s worktree', function () {
  this.timeout(60_000);
  let dir: ReturnType<typeof tempDir>;
  let repo: string;
  let wt: Worktrees;
  beforeEach(() => {
    dir = tempDir('acp-wtfork-');
    repo = join(dir.path, 'my project é');
    mkdirSync(repo);
    writeFiles(repo, {
      '.gitignore': '*.log\n',
      'a.txt': 'a\n',
      'b.txt': 'b\n',
      'c.txt': 'c\n',
      'old name.txt': 'renamed\n',
      'node_modules/dep/index.js': 'committed dependency\n',
      'big.bin': Buffer.alloc(4096, 1),
    });
    git(repo, ['init', '-q', '-b', 'main']);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-qm', 'base']);
    wt = new Worktrees(new Git({ env: { ...process.env, ...identity } }));
  });
  afterEach(() => dir.cleanup());

  it('carries the folder’s uncommitted changes, untracked files too, and the folder keeps them', async () => {
    writeFileSync(join(repo, 'a.txt'), 'a changed, unstaged\n');
    writeFileSync(join(repo, 'b.txt'), 'b changed, staged\n');
    git(repo, ['add', 'b.txt']);
    rmSync(join(repo, 'c.txt'));
    git(repo, ['mv', 'old name.txt', 'new name.txt']);
    writeFiles(repo, { 'new/deep/ünï cödé.txt': 'untracked\n', 'run.sh': '#!/bin/sh\n', 'debug.log': 'ignored\n' });
    chmodSync(join(repo, 'run.sh'), 0o755);
    if (process.platform !== 'win32') symlinkSync('a.txt', join(repo, 'link'));
    const before = status(repo);

    const made = await wt.create(repo, { branch: 'fork/carry', carry: true });
    const w = made.path;
    assert.equal(read(w, 'a.txt'), 'a changed, unstaged\n');
    assert.equal(read(w, 'b.txt'), 'b changed, staged\n');
    assert.ok(!existsSync(join(w, 'c.txt')), 'a deletion is carried');
    assert.ok(!existsSync(join(w, 'old name.txt')) && read(w, 'new name.txt') === 'renamed\n', 'a rename is carried');
    assert.equal(read(w, 'new', 'deep', 'ünï cödé.txt'), 'untracked\n');
    assert.ok(!existsSync(join(w, 'debug.log')), 'an ignored file is not carried');
    if (process.platform !== 'win32') {
      assert.equal(treeState(w)['run.sh'], treeState(repo)['run.sh'], 'the executable bit is carried');
      assert.equal(treeState(w).link, 'link a.txt', 'a link is carried as a link');
    }
    assert.deepEqual(made.notCarried, [], 'nothing is said to be left behind');
    assert.ok(made.carried);
    assert.deepEqual(made.carried.skipped, []);
    assert.deepEqual(made.carried.deleted.sort(), ['c.txt', 'old name.txt']);
    // The worktree's tree is the folder's, but for what git ignores.
    assert.deepEqual(treeState(w), treeState(repo, ['debug.log']));
    // The folder keeps its changes, staged as they were.
    assert.equal(status(repo), before);
    // In the worktree they are uncommitted changes on the new branch, from the same commit.
    assert.equal(git(w, ['rev-parse', 'HEAD']), git(repo, ['rev-parse', 'HEAD']));
    assert.ok(status(w).split('\0').includes(' M a.txt'));
  });

  it('never writes through a link the commit holds: the file behind it is not carried, nothing outside changes', async function () {
    if (process.platform === 'win32') this.skip();
    // The user's home, outside every folder, and a link to it in the commit: three git commands
    // of an agent's (add, commit, and an index flag that hides from status that the link is
    // gone), then a folder in the link's place holding a .bashrc.
    const home = join(dir.path, 'home of the user');
    writeFiles(home, { '.bashrc': 'the user’s own\n' });
    symlinkSync(home, join(repo, 'home'));
    git(repo, ['add', 'home']);
    git(repo, ['commit', '-qm', 'a link']);
    git(repo, ['update-index', '--skip-worktree', 'home']);
    rmSync(join(repo, 'home'));
    writeFiles(repo, { 'home/.bashrc': 'written by the agent\n', 'a.txt': 'carried\n' });

    const made = await wt.create(repo, { branch: 'fork/link', carry: true });
    assert.equal(read(home, '.bashrc'), 'the user’s own\n', 'nothing outside the worktree was written');
    assert.deepEqual(readdirSync(home), ['.bashrc']);
    assert.ok(made.carried);
    assert.deepEqual(made.carried.skipped, [
      { path: 'home/.bashrc', reason: 'home on its path is a link; it was not followed' },
    ]);
    assert.deepEqual(made.carried.copied, ['a.txt'], 'the other changes are carried');
    assert.equal(read(made.path, 'a.txt'), 'carried\n');
    assert.equal(readlinkSync(join(made.path, 'home')), home, 'the worktree keeps the commit’s link');
  });

  it('never reads a carried file through a link in the folder', async function () {
    if (process.platform === 'win32') this.skip();
    // A file staged in a folder that is then replaced by a link to a folder outside.
    const outside = join(dir.path, 'outside');
    writeFiles(outside, { 'x.txt': 'not the project’s\n' });
    writeFiles(repo, { 'sub/x.txt': 'staged\n' });
    git(repo, ['add', 'sub/x.txt']);
    rmSync(join(repo, 'sub'), { recursive: true });
    symlinkSync(outside, join(repo, 'sub'));
    const made = await wt.create(repo, { branch: 'fork/read', carry: true });
    assert.ok(made.carried);
    assert.deepEqual(made.carried.skipped, [
      { path: 'sub/x.txt', reason: 'a folder on its path in the folder is a link; it was not followed' },
    ]);
    assert.equal(readlinkSync(join(made.path, 'sub')), outside, 'the link itself is carried, as a link');
  });

  it('copies the listed files into a worktree, never through a link the commit holds', async function () {
    if (process.platform === 'win32') this.skip();
    // The commit holds `config` as a link to a folder outside; the folder has a real one.
    const outside = join(dir.path, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(repo, 'config'));
    git(repo, ['add', 'config']);
    git(repo, ['commit', '-qm', 'config as a link']);
    git(repo, ['update-index', '--assume-unchanged', 'config']);
    rmSync(join(repo, 'config'));
    writeFiles(repo, { 'config/local.json': '{"secret":1}\n', '.env': 'SECRET=1\n', 'a.txt': 'mine\n' });
    const made = await wt.create(repo, { branch: 'listed', copyFiles: ['.env', 'config/local.json', 'a.txt'] });
    assert.deepEqual(readdirSync(outside), [], 'nothing was written through the link');
    assert.deepEqual(made.copied, ['.env'], 'a path the worktree has already, or reaches through a link, is left');
    assert.equal(read(made.path, '.env'), 'SECRET=1\n');
    assert.equal(read(made.path, 'a.txt'), 'a\n');
    assert.equal(readlinkSync(join(made.path, 'config')), outside);
  });

  it('without carrying, says which changes stay behind', async () => {
    writeFileSync(join(repo, 'a.txt'), 'changed\n');
    const made = await wt.create(repo, { branch: 'plain' });
    assert.equal(read(made.path, 'a.txt'), 'a\n');
    assert.deepEqual(made.notCarried, [{ path: 'a.txt', status: 'M' }]);
    assert.equal(made.carried, undefined);
  });

  it('writes a checkpoint’s files into a worktree made from a later commit', async () => {
    const checkpoints = new Checkpoints({ storage: join(dir.path, 'storage'), maxFileBytes: 1024 });
    // The folder as it was before a message: a change, an untracked file, a link.
    writeFileSync(join(repo, 'a.txt'), 'a before the message\n');
    writeFiles(repo, { 'notes/todo ü.txt': 'untracked then\n' });
    if (process.platform !== 'win32') symlinkSync('b.txt', join(repo, 'link'));
    const then = treeState(repo, ['node_modules', 'big.bin']);
    const { id } = await checkpoints.checkpoint(repo, 'before the message');

    // Later turns: more changes, a commit of a new file, a deletion, new untracked files.
    writeFileSync(join(repo, 'a.txt'), 'a after\n');
    writeFiles(repo, { 'added later.txt': 'committed later\n' });
    git(repo, ['add', 'a.txt', 'added later.txt']);
    git(repo, ['commit', '-qm', 'later']);
    rmSync(join(repo, 'notes'), { recursive: true });
    writeFiles(repo, { 'scratch.txt': 'untracked later\n' });
    const now = treeState(repo);

    const made = await wt.create(repo, { branch: 'fork/from-here' });
    const done = await checkpoints.materialize(repo, id, made.path);
    assert.deepEqual(treeState(made.path, ['node_modules', 'big.bin']), then, 'the files of before the message');
    assert.deepEqual(done.deleted, ['added later.txt']);
    assert.deepEqual(done.kept, ['big.bin'], 'too large to be kept: as the commit has it');
    assert.equal(read(made.path, 'node_modules', 'dep', 'index.js'), 'committed dependency\n', 'skipped: as committed');
    // A worktree still: git works in it, on its branch, and sees the difference as changes.
    assert.equal(git(made.path, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(), 'fork/from-here');
    const changes = status(made.path).split('\0');
    assert.ok(changes.includes(' D added later.txt'), changes.join('|'));
    assert.ok(changes.includes('?? notes/todo ü.txt'), changes.join('|'));
    // The folder itself is untouched.
    assert.deepEqual(treeState(repo), now);
  });

  it('refuses a checkpoint it does not hold, writing nothing', async () => {
    const checkpoints = new Checkpoints({ storage: join(dir.path, 'storage') });
    await checkpoints.checkpoint(repo, 'one');
    const made = await wt.create(repo, { branch: 'x' });
    const state = treeState(made.path);
    await assert.rejects(checkpoints.materialize(repo, '0'.repeat(40), made.path), /checkpoint/i);
    assert.deepEqual(treeState(made.path), state);
  });
});
