// Checkpoints of a folder against the machine's git: snapshots, diffs, restore and its undo,
// byte for byte, in a folder that is a repository and in one that is not.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { WORKING } from '../../src/checkpoints/checkpoints';
import { folderKey } from '../../src/checkpoints/shadowRepo';
import { DEFAULT_SKIP } from '../../src/checkpoints/skipRules';
import { UnknownCheckpoint } from '../../src/checkpoints/errors';
import { checkpointsIn, git, treeState, writeFiles } from '../support/checkpoints';
import { tempDir } from '../support/refAgent';

describe('Checkpoints of a folder', function () {
  this.timeout(60_000);
  let dir: ReturnType<typeof tempDir>;
  let folder: string;
  let storage: string;
  beforeEach(() => {
    dir = tempDir('acp-cp-');
    folder = join(dir.path, 'project');
    storage = join(dir.path, 'storage');
    mkdirSync(folder);
  });
  afterEach(() => dir.cleanup());

  for (const repo of [false, true]) {
    it(`restores a checkpoint and undoes the restore, byte for byte (${repo ? 'a git repository' : 'not a git repository'})`, async () => {
      writeFiles(folder, {
        'src/a.ts': 'export const a = 1;\n',
        'src/b.ts': 'export const b = 2;\n',
        'README.md': '# Project\n',
        'data.bin': Buffer.from([0, 1, 2, 255, 0, 10, 13]),
        'latin1.txt': Buffer.from('caf\xe9 cr\xe8me\r\n', 'latin1'),
        'crlf.txt': 'one\r\ntwo\r\n',
      });
      chmodSync(join(folder, 'src/b.ts'), 0o755);
      if (repo) {
        writeFileSync(join(folder, '.gitattributes'), '* text=auto eol=crlf\n');
        git(folder, ['init', '-q']);
        git(folder, ['add', '-A']);
        git(folder, ['commit', '-qm', 'first']);
      }
      const cps = checkpointsIn(storage);
      const start = treeState(folder);
      const first = await cps.checkpoint(folder, 'first');
      // The turn: edits, a new file, a deletion, a rename, a file made read-only, a mode change.
      writeFileSync(join(folder, 'src/a.ts'), 'export const a = 100;\nexport const more = true;\n');
      writeFileSync(join(folder, 'src/new.ts'), 'new\n');
      rmSync(join(folder, 'README.md'));
      renameSync(join(folder, 'latin1.txt'), join(folder, 'moved.txt'));
      writeFileSync(join(folder, 'crlf.txt'), 'one\r\nthree\r\n');
      chmodSync(join(folder, 'crlf.txt'), 0o444);
      chmodSync(join(folder, 'src/b.ts'), 0o644);
      writeFileSync(join(folder, 'data.bin'), Buffer.from([9, 0, 9]));
      const changed = treeState(folder);

      const changes = await cps.diff(folder, first.id, WORKING);
      const byPath = Object.fromEntries(changes.map((c) => [c.path, c]));
      assert.deepEqual(Object.keys(byPath).sort(), [
        'README.md',
        'crlf.txt',
        'data.bin',
        'latin1.txt',
        'moved.txt',
        'src/a.ts',
        'src/b.ts',
        'src/new.ts',
      ]);
      assert.equal(byPath['src/a.ts']!.status, 'modified');
      assert.equal(byPath['src/a.ts']!.added, 2);
      assert.equal(byPath['src/a.ts']!.deleted, 1);
      assert.equal(byPath['src/new.ts']!.status, 'added');
      assert.equal(byPath['README.md']!.status, 'deleted');
      assert.equal(byPath['data.bin']!.binary, true);
      assert.equal(byPath['src/b.ts']!.before?.mode, '100755');
      assert.equal(byPath['src/b.ts']!.after?.mode, '100644');
      const before = await cps.read(folder, byPath['latin1.txt']!.before!.blob);
      assert.deepEqual(before, Buffer.from('caf\xe9 cr\xe8me\r\n', 'latin1'), 'the bytes, not text');

      const result = await cps.restore(folder, first.id);
      assert.deepEqual(result.failed, []);
      assert.deepEqual(result.kept, []);
      assert.deepEqual(treeState(folder), start, 'the files are back as they were');
      assert.deepEqual(result.written.sort(), [
        'README.md',
        'crlf.txt',
        'data.bin',
        'latin1.txt',
        'src/a.ts',
        'src/b.ts',
      ]);
      assert.deepEqual(result.deleted.sort(), ['moved.txt', 'src/new.ts']);
      const undone = await cps.restore(folder, result.undo.id);
      assert.deepEqual(undone.failed, []);
      assert.deepEqual(treeState(folder), changed, 'undo brings the changed files back');
      if (repo) assert.equal(git(folder, ['status', '--porcelain']).includes('src/new.ts'), true);
    });
  }

  it('restores only the files asked for, and lists what it would change first', async () => {
    writeFiles(folder, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const cps = checkpointsIn(storage);
    const cp = await cps.checkpoint(folder, 'cp');
    writeFiles(folder, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const plan = await cps.planRestore(folder, cp.id, ['a.txt']);
    assert.deepEqual(
      plan.changes.map((c) => [c.path, c.added, c.deleted]),
      [['a.txt', 1, 1]],
    );
    const result = await cps.restore(folder, cp.id, { files: ['a.txt'] });
    assert.deepEqual(result.written, ['a.txt']);
    assert.equal(readFileSync(join(folder, 'a.txt'), 'utf8'), 'a\n');
    assert.equal(readFileSync(join(folder, 'b.txt'), 'utf8'), 'B\n');
  });

  it('honours .gitignore files and the skip list, and leaves out files over the size limit', async () => {
    writeFiles(folder, {
      '.gitignore': 'build/\n*.log\n',
      'sub/.gitignore': 'secret.txt\n',
      'src/x.ts': 'x\n',
      'build/out.js': 'built\n',
      'debug.log': 'log\n',
      'sub/secret.txt': 'secret\n',
      'sub/kept.txt': 'kept\n',
      'node_modules/pkg/index.js': 'dep\n',
      'deep/node_modules/pkg/index.js': 'dep\n',
      'vendor/lib.js': 'vendor\n',
      'big.txt': 'x'.repeat(2048),
    });
    const cps = checkpointsIn(storage, { maxFileBytes: 1024, skip: [...DEFAULT_SKIP, 'vendor/'] });
    const cp = await cps.checkpoint(folder, 'cp');
    const listed = (await cps.planRestore(folder, cp.id)).changes;
    assert.deepEqual(listed, [], 'nothing differs from the working tree');
    const all = await cps.files(folder, cp.id);
    assert.deepEqual(all.sort(), ['.gitignore', 'src/x.ts', 'sub/.gitignore', 'sub/kept.txt']);
    assert.deepEqual(cp.skipped, [{ path: 'big.txt', reason: 'tooLarge', bytes: 2048 }]);
    // New settings: what they leave out goes from the next checkpoint, kept files or not.
    cps.configure({ skip: [...DEFAULT_SKIP, 'vendor/', 'sub/'], maxFileBytes: 4096 });
    const next = await cps.checkpoint(folder, 'new settings');
    assert.deepEqual(await cps.files(folder, next.id), ['.gitignore', 'big.txt', 'src/x.ts']);
  });

  it('takes a first snapshot ahead of time without recording it', async () => {
    writeFiles(folder, { 'a.txt': 'a\n' });
    const cps = checkpointsIn(storage);
    await cps.prepare(folder);
    assert.deepEqual(await cps.history(folder), []);
    writeFiles(folder, { 'b.txt': 'b\n' });
    const cp = await cps.checkpoint(folder, 'after prepare');
    assert.deepEqual(await cps.files(folder, cp.id), ['a.txt', 'b.txt']);
    assert.deepEqual(
      (await cps.history(folder)).map((r) => r.kind),
      ['checkpoint'],
    );
  });

  it('packs what a large snapshot wrote, in the background, and the checkpoint stays whole', async () => {
    writeFiles(
      folder,
      Object.fromEntries(
        Array.from({ length: 2500 }, (_, i) => [`src/m${i % 25}/f${i}.ts`, `export const v${i} = ${i};\n`]),
      ),
    );
    const cps = checkpointsIn(storage);
    const cp = await cps.checkpoint(folder, 'large');
    await cps.settled();
    const counts = Object.fromEntries(
      git(dir.path, ['--git-dir', join(storage, folderKey(folder), 'git'), 'count-objects', '-v'])
        .trim()
        .split('\n')
        .map((l) => l.split(': ')),
    );
    assert.equal(counts.count, '0', 'no loose object left');
    assert.equal(counts.packs, '1');
    assert.equal((await cps.files(folder, cp.id)).length, 2500);
    writeFiles(folder, { 'src/m0/f0.ts': 'changed\n' });
    await cps.restore(folder, cp.id);
    assert.equal(readFileSync(join(folder, 'src/m0/f0.ts'), 'utf8'), 'export const v0 = 0;\n');
  });

  it('says a pruned or unknown checkpoint is no longer kept', async () => {
    writeFiles(folder, { 'a.txt': 'a\n' });
    const cps = checkpointsIn(storage);
    await cps.checkpoint(folder, 'cp');
    await assert.rejects(cps.diff(folder, 'f'.repeat(40), WORKING), UnknownCheckpoint);
    await assert.rejects(cps.restore(folder, '../../etc'), UnknownCheckpoint);
    assert.ok(existsSync(join(folder, 'a.txt')));
  });

  it('keeps a link as a link and never follows it out of the folder', async () => {
    const outside = join(dir.path, 'outside');
    writeFiles(outside, { 'target.txt': 'outside\n' });
    writeFiles(folder, { 'a.txt': 'a\n' });
    symlinkSync(outside, join(folder, 'out'));
    symlinkSync(join(outside, 'target.txt'), join(folder, 'file-link'));
    const cps = checkpointsIn(storage);
    const cp = await cps.checkpoint(folder, 'cp');
    assert.deepEqual(await cps.files(folder, cp.id), ['a.txt', 'file-link', 'out']);
    // The agent swaps the link for a file and writes through the other one.
    rmSync(join(folder, 'file-link'));
    writeFileSync(join(folder, 'file-link'), 'now a file\n');
    writeFileSync(join(outside, 'target.txt'), 'changed outside\n');
    const changes = await cps.diff(folder, cp.id, WORKING);
    assert.deepEqual(
      changes.map((c) => [c.path, c.status]),
      [['file-link', 'typeChanged']],
      'what changed outside is not in the folder',
    );
    const result = await cps.restore(folder, cp.id);
    assert.deepEqual(result.written, ['file-link']);
    assert.equal(readFileSync(join(outside, 'target.txt'), 'utf8'), 'changed outside\n', 'nothing written outside');
    assert.equal(treeState(folder)['file-link'], `link ${join(outside, 'target.txt')}`);
  });

  it('restores a file that became a folder and a folder that became a file, and undoes it', async () => {
    writeFiles(folder, { a: 'file a\n', 'c/inner.txt': 'inner\n' });
    const cps = checkpointsIn(storage);
    const cp = await cps.checkpoint(folder, 'cp');
    const start = treeState(folder);
    rmSync(join(folder, 'a'));
    rmSync(join(folder, 'c'), { recursive: true });
    writeFiles(folder, { 'a/b.txt': 'now a folder\n', c: 'now a file\n' });
    const swapped = treeState(folder);
    assert.deepEqual(
      (await cps.diff(folder, cp.id, WORKING)).map((c) => [c.path, c.status]),
      [
        ['a', 'deleted'],
        ['a/b.txt', 'added'],
        ['c', 'added'],
        ['c/inner.txt', 'deleted'],
      ],
    );
    const result = await cps.restore(folder, cp.id);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(treeState(folder), start);
    await cps.restore(folder, result.undo.id);
    assert.deepEqual(treeState(folder), swapped);
  });

  it('never restores through a folder that became a link out of the folder', async () => {
    const outside = join(dir.path, 'outside');
    writeFiles(outside, { 'x.txt': 'outside\n' });
    writeFiles(folder, { 'd/x.txt': 'inside\n' });
    const cps = checkpointsIn(storage);
    const cp = await cps.checkpoint(folder, 'cp');
    rmSync(join(folder, 'd'), { recursive: true });
    symlinkSync(outside, join(folder, 'd'));
    assert.deepEqual(
      (await cps.diff(folder, cp.id, WORKING)).map((c) => [c.path, c.status]),
      [
        ['d', 'added'],
        ['d/x.txt', 'deleted'],
      ],
    );
    const result = await cps.restore(folder, cp.id);
    assert.deepEqual([result.written, result.deleted, result.failed], [['d/x.txt'], ['d'], []]);
    assert.equal(readFileSync(join(outside, 'x.txt'), 'utf8'), 'outside\n', 'nothing written through the link');
    assert.deepEqual(treeState(folder), { 'd/x.txt': treeState(folder)['d/x.txt'] });
    assert.equal(readFileSync(join(folder, 'd/x.txt'), 'utf8'), 'inside\n');
    await cps.restore(folder, result.undo.id);
    assert.equal(treeState(folder)['d'], `link ${outside}`, 'the undo puts the link back');
  });

  it('prunes checkpoints by age and by size, oldest first, never one it is told to keep', async () => {
    const cps = checkpointsIn(storage);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      // Each checkpoint alone holds a file of random bytes: pruning it frees them.
      writeFiles(folder, { 'kept.txt': `version ${i}\n`, [`r${i}.bin`]: randomBytes(256 * 1024) });
      ids.push((await cps.checkpoint(folder, `cp ${i}`)).id);
      rmSync(join(folder, `r${i}.bin`));
    }
    await cps.checkpoint(folder, 'without the random files');
    const young = await cps.prune({ olderThanDays: 30, maxBytes: 1e12, graceMinutes: 0 });
    assert.equal(young.released, 0, 'nothing is old yet');
    const bySize = await cps.prune({
      olderThanDays: 30,
      maxBytes: young.bytesAfter - 400 * 1024,
      keep: [ids[0]!],
      graceMinutes: 0,
    });
    assert.ok(bySize.bytesAfter < bySize.bytesBefore - 400 * 1024, `${bySize.bytesBefore} → ${bySize.bytesAfter}`);
    const left = async (id: string) =>
      cps.files(folder, id).then(
        () => true,
        () => false,
      );
    assert.deepEqual(
      await Promise.all(ids.map(left)),
      [true, false, false, true],
      'the oldest went first, except the one kept',
    );
    const byAge = await cps.prune({
      olderThanDays: 1,
      maxBytes: 1e12,
      now: Date.now() + 2 * 86_400_000,
      keep: [ids[3]!],
      graceMinutes: 0,
    });
    assert.deepEqual(await Promise.all(ids.map(left)), [false, false, false, true]);
    assert.equal(byAge.remaining, 1);
    const history = await cps.history(folder);
    assert.deepEqual(
      history.map((r) => (r.kind === 'checkpoint' ? r.id : r.kind)),
      [ids[3]],
      'the journal forgets what was pruned',
    );
    await cps.restore(folder, ids[3]!);
    assert.equal(readFileSync(join(folder, 'kept.txt'), 'utf8'), 'version 3\n');
  });

  it("clears a folder's checkpoints, and a folder that is gone goes from the storage once pruned", async () => {
    writeFiles(folder, { 'a.txt': 'a\n' });
    const other = join(dir.path, 'other');
    writeFiles(other, { 'b.txt': 'b\n' });
    const cps = checkpointsIn(storage);
    const cp = await cps.checkpoint(folder, 'cp');
    await cps.checkpoint(other, 'other');
    await cps.clear(folder);
    assert.ok(!existsSync(join(storage, folderKey(folder))));
    await assert.rejects(cps.files(folder, cp.id), /no longer kept/);
    assert.deepEqual(await cps.history(folder), []);
    assert.ok((await cps.checkpoint(folder, 'again')).id, 'checkpoints start again');
    rmSync(other, { recursive: true });
    await cps.prune({ olderThanDays: 0, maxBytes: 1e12, graceMinutes: 0 });
    assert.ok(!existsSync(join(storage, folderKey(other))), "the gone folder's store is removed");
    await cps.clear();
    assert.deepEqual(
      readdirSync(storage).filter((n) => /^[0-9a-f]{24}$/.test(n)),
      [],
    );
    assert.equal(readFileSync(join(folder, 'a.txt'), 'utf8'), 'a\n', 'the folder itself is never touched');
  });
});
