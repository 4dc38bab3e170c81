// Bad input for checkpoints, each with a clear outcome and nothing of the user's lost: a
// repository mid-merge with a locked index (never touched), git's variables pointing at it,
// nested repositories, names and sizes git cannot or should not keep, git missing or too old.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKING } from '../../src/checkpoints/checkpoints';
import { FolderMissing, GitUnavailable, StorageFull } from '../../src/checkpoints/errors';
import { checkpointsIn, fingerprint, git, treeState, writeFiles } from '../support/checkpoints';
import { tempDir } from '../support/refAgent';

const posix = process.platform !== 'win32';

/**
 * A disk of `kb` KiB for the storage: a tmpfs where this process may mount one (root on
 * Linux, as CI runs), else git started under a file-size limit, which fails its writes the same
 * way. Returns the options that point checkpoints at it, and how to take it down.
 */
function tinyDisk(path: string, kb: number): { gitPath?: string; release(): void } {
  mkdirSync(path, { recursive: true });
  if (process.platform === 'linux' && process.getuid?.() === 0) {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', path], { stdio: 'ignore' });
      return { release: () => execFileSync('umount', ['-l', path]) };
    } catch {
      // No mount here (a container without the capability): the limit below.
    }
  }
  const wrapper = join(path, '..', 'limited-git');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(wrapper, `#!/bin/sh\nulimit -f ${kb * 2}\nexec ${real} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return { gitPath: wrapper, release: () => undefined };
}

describe('Checkpoints and bad input', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  let folder: string;
  let storage: string;
  beforeEach(() => {
    dir = tempDir('acp-cp-bad-');
    folder = join(dir.path, 'project');
    storage = join(dir.path, 'storage');
    mkdirSync(folder);
  });
  afterEach(() => dir.cleanup());

  it("never touches the user's repository: mid-merge, index locked, and GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE pointing at it", async () => {
    writeFiles(folder, { 'a.txt': 'base\n' });
    git(folder, ['init', '-q', '-b', 'main']);
    git(folder, ['add', '-A']);
    git(folder, ['commit', '-qm', 'base']);
    git(folder, ['checkout', '-qb', 'other']);
    writeFiles(folder, { 'a.txt': 'other\n' });
    git(folder, ['commit', '-qam', 'other']);
    git(folder, ['checkout', '-q', 'main']);
    writeFiles(folder, { 'a.txt': 'main\n' });
    git(folder, ['commit', '-qam', 'main']);
    assert.throws(() => git(folder, ['merge', 'other']), 'the merge conflicts');
    writeFiles(folder, { 'untracked.txt': 'new\n' });
    git(folder, ['stash', 'list']);
    closeSync(openSync(join(folder, '.git', 'index.lock'), 'w'));
    const gitDir = join(folder, '.git');
    const before = fingerprint(gitDir);
    const cps = checkpointsIn(storage, {
      env: {
        ...process.env,
        GIT_DIR: gitDir,
        GIT_INDEX_FILE: join(gitDir, 'index'),
        GIT_WORK_TREE: folder,
        GIT_OBJECT_DIRECTORY: join(gitDir, 'objects'),
      },
    });
    const cp = await cps.checkpoint(folder, 'mid-merge');
    assert.deepEqual(await cps.files(folder, cp.id), ['a.txt', 'untracked.txt']);
    assert.match(
      readFileSync(join(folder, 'a.txt'), 'utf8'),
      /<<<<<<<[\s\S]*>>>>>>>/,
      'the conflict as the user has it',
    );
    writeFiles(folder, { 'a.txt': 'resolved\n' });
    const result = await cps.restore(folder, cp.id);
    assert.deepEqual(result.written, ['a.txt']);
    await cps.restore(folder, result.undo.id);
    await cps.prune({ olderThanDays: 0, maxBytes: 0, graceMinutes: 0 });
    assert.deepEqual(fingerprint(gitDir), before, 'not a byte, time or file of .git changed');
    assert.equal(readFileSync(join(folder, 'a.txt'), 'utf8'), 'resolved\n');
  });

  it('keeps the files of nested repositories (with and without a commit, a .git file to nowhere) and leaves their .git alone', async () => {
    writeFiles(folder, { 'top.txt': 'top\n', 'unborn/u.txt': 'u\n', 'done/d.txt': 'd\n', 'linked/l.txt': 'l\n' });
    git(join(folder, 'unborn'), ['init', '-q']);
    git(join(folder, 'done'), ['init', '-q']);
    git(join(folder, 'done'), ['add', '-A']);
    git(join(folder, 'done'), ['commit', '-qm', 'd']);
    writeFiles(folder, {
      'done/.gitignore': 'ignored.txt\n',
      'done/ignored.txt': 'i\n',
      'linked/.git': 'gitdir: /nowhere\n',
    });
    const prints = ['unborn', 'done'].map((d) => fingerprint(join(folder, d, '.git')));
    const cps = checkpointsIn(storage);
    const cp = await cps.checkpoint(folder, 'nested');
    assert.deepEqual(await cps.files(folder, cp.id), [
      'done/.gitignore',
      'done/d.txt',
      'linked/l.txt',
      'top.txt',
      'unborn/u.txt',
    ]);
    writeFiles(folder, { 'done/d.txt': 'changed\n', 'unborn/new.txt': 'n\n' });
    const changes = await cps.diff(folder, cp.id, WORKING);
    assert.deepEqual(
      changes.map((c) => [c.path, c.status]),
      [
        ['done/d.txt', 'modified'],
        ['unborn/new.txt', 'added'],
      ],
    );
    await cps.restore(folder, cp.id);
    assert.equal(readFileSync(join(folder, 'done/d.txt'), 'utf8'), 'd\n');
    assert.deepEqual(
      ['unborn', 'done'].map((d) => fingerprint(join(folder, d, '.git'))),
      prints,
    );
  });

  it('leaves out a 1 GB file without reading it, and a restore never overwrites what it could not keep', async () => {
    writeFiles(folder, { 'small.txt': 'small\n', 'grows.bin': 'tiny\n' });
    const cps = checkpointsIn(storage, { maxFileBytes: 1024 * 1024 });
    const first = await cps.checkpoint(folder, 'first');
    const sparse = (file: string) => {
      const fd = openSync(join(folder, file), 'w');
      try {
        // A sparse file: 1 GB as the file system reports it, a few bytes on the disk.
        writeFileSync(fd, Buffer.from('end'), { flag: 'r+' });
        execFileSync(process.execPath, [
          '-e',
          `require('fs').truncateSync(${JSON.stringify(join(folder, file))}, 2 ** 30)`,
        ]);
      } finally {
        closeSync(fd);
      }
    };
    sparse('huge.bin');
    sparse('grows.bin');
    const second = await cps.checkpoint(folder, 'second');
    assert.deepEqual(second.skipped.map((s) => [s.path, s.reason, s.bytes]).sort(), [
      ['grows.bin', 'tooLarge', 2 ** 30],
      ['huge.bin', 'tooLarge', 2 ** 30],
    ]);
    assert.deepEqual(await cps.files(folder, second.id), ['small.txt']);
    const result = await cps.restore(folder, first.id);
    assert.deepEqual(result.written, []);
    assert.equal(result.kept.length, 1);
    assert.equal(result.kept[0]!.path, 'grows.bin');
    assert.match(result.kept[0]!.reason, /not in the checkpoint taken before restoring.*nothing is lost/);
    assert.equal(readFileSync(join(folder, 'small.txt'), 'utf8'), 'small\n');
  });

  (posix && process.platform === 'linux' ? it : it.skip)(
    'leaves out a file whose name is not UTF-8, and says so',
    async () => {
      writeFiles(folder, { 'ok.txt': 'ok\n' });
      const bad = Buffer.concat([Buffer.from(folder + '/bad-'), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]);
      writeFileSync(bad, 'bytes\n');
      const cps = checkpointsIn(storage);
      const cp = await cps.checkpoint(folder, 'names');
      assert.deepEqual(await cps.files(folder, cp.id), ['ok.txt']);
      assert.deepEqual(cp.skipped, [{ path: '', reason: 'nameNotUtf8' }]);
      const result = await cps.restore(folder, cp.id);
      assert.deepEqual(result.written, []);
      assert.equal(readFileSync(bad, 'utf8'), 'bytes\n', 'the file is still there');
    },
  );

  (posix && process.getuid?.() !== 0 ? it : it.skip)(
    'leaves out a file it cannot read, and keeps the rest',
    async () => {
      writeFiles(folder, { 'ok.txt': 'ok\n', 'secret.txt': 'secret\n' });
      chmodSync(join(folder, 'secret.txt'), 0o000);
      const cps = checkpointsIn(storage);
      const cp = await cps.checkpoint(folder, 'unreadable');
      assert.deepEqual(await cps.files(folder, cp.id), ['ok.txt']);
      assert.deepEqual(cp.skipped, [{ path: 'secret.txt', reason: 'unreadable' }]);
      chmodSync(join(folder, 'secret.txt'), 0o644);
    },
  );

  (posix ? it : it.skip)(
    'says the storage is full, and a restore that cannot keep the present first changes nothing',
    async () => {
      const disk = tinyDisk(storage, 1024);
      try {
        writeFiles(folder, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
        const cps = checkpointsIn(storage, disk.gitPath ? { gitPath: disk.gitPath } : {});
        const first = await cps.checkpoint(folder, 'fits');
        writeFiles(folder, { 'a.txt': 'changed\n', 'random.bin': randomBytes(3 * 1024 * 1024) });
        const before = treeState(folder);
        await assert.rejects(cps.checkpoint(folder, 'too big'), (e: unknown) => {
          assert.ok(e instanceof StorageFull, String(e));
          assert.match(e.message, /the disk that holds them .* is full\. Nothing in the folder was changed/);
          return true;
        });
        await assert.rejects(cps.restore(folder, first.id), StorageFull);
        assert.deepEqual(treeState(folder), before, 'nothing restored without the undo checkpoint');
        rmSync(join(folder, 'random.bin'));
        const again = await cps.checkpoint(folder, 'fits again');
        assert.deepEqual(await cps.files(folder, again.id), ['a.txt', 'b.txt']);
      } finally {
        disk.release();
      }
    },
  );

  it('says the folder is missing', async () => {
    const cps = checkpointsIn(storage);
    await assert.rejects(cps.checkpoint(join(dir.path, 'nowhere'), 'x'), FolderMissing);
    writeFileSync(join(dir.path, 'file'), 'x');
    await assert.rejects(cps.checkpoint(join(dir.path, 'file'), 'x'), /does not exist or is not a folder/);
  });

  it('says once that git is missing, too old or broken, and each call then fails with that', async () => {
    writeFiles(folder, { 'a.txt': 'a\n' });
    const before = treeState(folder);
    const told: GitUnavailable[] = [];
    const missing = checkpointsIn(storage, { gitPath: join(dir.path, 'no-git'), onUnavailable: (e) => told.push(e) });
    await assert.rejects(
      missing.checkpoint(folder, 'x'),
      (e: unknown) => e instanceof GitUnavailable && e.problem === 'missing',
    );
    await assert.rejects(missing.diff(folder, 'a'.repeat(40), WORKING), GitUnavailable);
    await assert.rejects(missing.restore(folder, 'a'.repeat(40)), GitUnavailable);
    assert.equal(told.length, 1, 'told once');
    assert.match(told[0]!.message, /Checkpoints need git 2\.20 or newer, which was not found at .*no-git/);
    assert.match(told[0]!.message, /everything else works/);
    if (posix) {
      for (const [script, problem, words] of [
        ['echo "git version 2.9.5"', 'tooOld', /git 2\.9\.5/],
        ['echo "cannot run" >&2; exit 3', 'broken', /did not run \(cannot run\)/],
      ] as const) {
        const fake = join(dir.path, `git-${problem}`);
        writeFileSync(fake, `#!/bin/sh\n${script}\n`);
        chmodSync(fake, 0o755);
        const cps = checkpointsIn(storage, { gitPath: fake });
        await assert.rejects(cps.checkpoint(folder, 'x'), (e: unknown) => {
          assert.ok(e instanceof GitUnavailable);
          assert.equal(e.problem, problem);
          assert.match(e.message, words);
          assert.match(e.message, /everything else works/i);
          return true;
        });
      }
    }
    assert.deepEqual(treeState(folder), before);
  });
});
