// Snapshots of a watched folder start from the last one held in memory and look only at the
// paths changed since: each must be the very tree a snapshot looking at every file takes (the
// same tree id), whatever changed just before it, with the same files left out; where only git
// can tell, every file is looked at again.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  promises as fs,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Checkpoints } from '../../src/checkpoints/checkpoints';
import { canWatch, FolderWatch } from '../../src/checkpoints/folderWatch';
import { folderKey } from '../../src/checkpoints/shadowRepo';
import { checkpointsIn, treeState, watchWorker, writeFiles } from '../support/checkpoints';
import { tempDir } from '../support/refAgent';

describe('Checkpoints of a watched folder', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  let folder: string;
  let watched: Checkpoints;
  /** Checkpoints of the same folder that look at every file each time: the reference. */
  let scanned: Checkpoints;
  beforeEach(function () {
    if (!canWatch()) this.skip();
    dir = tempDir('acp-cp-watch-');
    folder = join(dir.path, 'project');
    mkdirSync(folder);
    watched = checkpointsIn(join(dir.path, 'watched'), { watchWorker, maxFileBytes: 1000 });
    scanned = checkpointsIn(join(dir.path, 'scanned'), { maxFileBytes: 1000 });
  });
  afterEach(() => {
    watched?.dispose();
    dir?.cleanup();
  });

  const sharedIndex = () => join(dir.path, 'watched', folderKey(folder), 'git', 'index');
  const indexStamp = () => statSync(sharedIndex()).mtimeMs;

  /** Both take a checkpoint; the watched one's must be the same tree, leaving out the same files. */
  async function same(label: string): Promise<string> {
    const a = await watched.checkpoint(folder, label);
    const b = await scanned.checkpoint(folder, label);
    assert.equal(a.id, b.id, `${label}: the watched snapshot is the tree of every file`);
    assert.deepEqual(
      a.skipped.map((s) => `${s.path} ${s.reason}`).sort(),
      b.skipped.map((s) => `${s.path} ${s.reason}`).sort(),
      `${label}: the same files left out`,
    );
    return a.id;
  }

  /**
   * `change`, then a snapshot from memory: git's index is not even read, let alone written. The
   * tree of a full look before is read into memory in the background: a snapshot first waits for it.
   */
  async function quick(label: string, change: () => void): Promise<string> {
    await watched.watchReady(folder);
    await watched.checkpoint(folder, `before ${label}`);
    const before = indexStamp();
    change();
    const id = await same(label);
    assert.equal(indexStamp(), before, `${label}: taken from memory, git's index untouched`);
    return id;
  }

  it('takes the same tree as a full look, change after change, each made just before it', async () => {
    writeFiles(folder, {
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': 'a\n',
      'src/b.ts': 'b\n',
      'src/deep/c.ts': 'c\n',
      'dist/out.js': 'built\n',
      'run.sh': 'echo\n',
    });
    await same('first');
    await quick('a file changed and one added', () =>
      writeFiles(folder, { 'src/a.ts': 'a2\n', 'src/new.ts': 'new\n' }),
    );
    writeFiles(folder, { 'src/deep/c.ts': 'c2\n', 'src/new.ts': 'new2\n' });
    await same('two changed right after');
    await quick('a file deleted, one made executable', () => {
      rmSync(join(folder, 'src/b.ts'));
      chmodSync(join(folder, 'run.sh'), 0o755);
    });
    await quick('ignored files added, one too large', () =>
      writeFiles(folder, { 'dist/more.js': 'ignored\n', 'x.log': 'ignored too\n', 'big.bin': 'x'.repeat(2000) }),
    );
    await quick('the large file shrank, a tracked one grew too large', () =>
      writeFiles(folder, { 'big.bin': 'small now\n', 'src/deep/c.ts': 'x'.repeat(5000) }),
    );
    // A folder with files made in one go: its files may come before its watch does.
    await quick('a new folder tree, with a skipped folder and an ignored one in it', () => {
      mkdirSync(join(folder, 'fresh/one/two'), { recursive: true });
      writeFileSync(join(folder, 'fresh/one/two/x.ts'), 'x\n');
      writeFileSync(join(folder, 'fresh/y.ts'), 'y\n');
      writeFiles(folder, { 'fresh/node_modules/m/index.js': 'skipped\n', 'fresh/dist/d.js': 'ignored\n' });
    });
    await quick('a file in the new folder, after its watch', () =>
      writeFileSync(join(folder, 'fresh/one/two/z.ts'), 'z\n'),
    );
    await quick('a folder moved', () => renameSync(join(folder, 'src/deep'), join(folder, 'moved')));
    await quick('a link added, an ignored file changed', () => {
      symlinkSync('../src/a.ts', join(folder, 'fresh/link'));
      writeFiles(folder, { 'dist/out.js': 'built again\n' });
    });
    await quick('a folder tree deleted', () => rmSync(join(folder, 'fresh/one'), { recursive: true }));
    await quick('a link where a folder was', () => {
      rmSync(join(folder, 'moved'), { recursive: true });
      symlinkSync('src', join(folder, 'moved'));
    });
    const last = await quick('a file where a folder was', () => {
      rmSync(join(folder, 'fresh'), { recursive: true });
      writeFileSync(join(folder, 'fresh'), 'a file where a folder was\n');
    });
    assert.deepEqual(await watched.files(folder, last), [
      '.gitignore',
      'big.bin',
      'fresh',
      'moved',
      'run.sh',
      'src/a.ts',
      'src/new.ts',
    ]);
  });

  it('writes objects git reads: fsck finds nothing wrong, and a restore brings the files back byte for byte', async () => {
    writeFiles(folder, { 'a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c/d.ts': 'd\n' });
    await same('first');
    const id = await quick('three files and a link', () => {
      writeFiles(folder, { 'src/b.ts': 'b2\n', 'src/c/d.ts': 'd2\n', 'src/c/e.ts': 'e\n' });
      symlinkSync('b.ts', join(folder, 'src/link'));
    });
    const before = treeState(folder);
    await quick('changed again', () => {
      writeFiles(folder, { 'src/b.ts': 'b3\n', 'a.ts': 'a3\n' });
      rmSync(join(folder, 'src/c/e.ts'));
    });
    const gitDir = join(dir.path, 'watched', folderKey(folder), 'git');
    execFileSync('git', [`--git-dir=${gitDir}`, 'fsck', '--strict', '--no-dangling'], { stdio: 'pipe' });
    await watched.restore(folder, id);
    assert.deepEqual(treeState(folder), before);
    await same('after the restore');
  });

  it('leaves nested repositories and a changed .gitignore to git', async () => {
    writeFiles(folder, { '.gitignore': 'logs/\n', 'a.ts': 'a\n', 'logs/old.log': 'kept from before\n' });
    writeFiles(folder, { 'sub/x.ts': 'x\n', 'sub/.gitignore': 'y.ts\n' });
    execFileSync('git', ['init', '-q'], { cwd: join(folder, 'sub') });
    await same('first');
    await watched.checkpoint(folder, 'settles');
    writeFiles(folder, { 'sub/y.ts': 'ignored by its own rules\n', 'sub/z.ts': 'z\n' });
    await same('files in a nested repository');
    writeFiles(folder, { 'other/.git/HEAD': 'ref: refs/heads/main\n', 'other/w.ts': 'w\n' });
    await same('a new folder holding a repository');
    writeFileSync(join(folder, '.gitignore'), '');
    const next = await same('logs no longer ignored');
    assert.ok((await watched.files(folder, next)).includes('logs/old.log'));
  });

  it('looks at every file again after a window that changed the skip list, and in a new window', async () => {
    writeFiles(folder, { 'a.ts': 'a\n', 'b.ts': 'b\n' });
    await same('first');
    watched.configure({ skip: ['.cache/'] });
    scanned.configure({ skip: ['.cache/'] });
    writeFiles(folder, { '.cache/x': 'skipped\n', 'b.ts': 'b2\n' });
    await same('after the skip list changed');
    watched.dispose();
    writeFiles(folder, { 'c.ts': 'c\n' });
    watched = checkpointsIn(join(dir.path, 'watched'), { watchWorker, maxFileBytes: 1000, skip: ['.cache/'] });
    await same('a new window after changes no window watched');
  });

  it('names each write to the look that follows it at once, from a callback of the poll phase too', async () => {
    mkdirSync(join(folder, 'sub'));
    const watch = new FolderWatch(watchWorker);
    try {
      watch.watch(folder, []);
      assert.equal(await watch.look(folder), 'all', 'at every file while the watches are put in place');
      await watch.whenReady(folder);
      assert.equal(await watch.look(folder), 'all', 'and at the first look after');
      for (let i = 0; i < 200; i++) {
        // Every other write just after an I/O callback (the event loop's poll phase).
        if (i % 2) await fs.stat(folder);
        writeFileSync(join(folder, i % 3 ? 'sub' : '', `f${i}.txt`), `${i}`);
        const changed = await watch.look(folder);
        assert.notEqual(changed, 'all');
        if (changed === 'all') return;
        assert.ok(changed.includes(i % 3 ? `sub/f${i}.txt` : `f${i}.txt`), `write ${i} is named`);
      }
      writeFileSync(join(folder, '.gitignore'), 'x\n');
      assert.equal(await watch.look(folder), 'all');
      watch.lost(folder);
      assert.equal(await watch.look(folder), 'all', 'after a failed snapshot');
      watch.close();
      assert.equal(await watch.look(folder), 'all', 'once closed');
    } finally {
      watch.close();
    }
  });
});
