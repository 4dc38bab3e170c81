// Writes inside a user's folder that never follow a link out of it: the platform's FolderWrites,
// as Restore and a fork's carried changes use it, with links planted on the way and a folder
// raced against a link to outside by another process.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FOLDER_HANDLES, FolderWrites, NotInFolder } from '../../src/platform/folderFiles';
import { writeAtomic, writeAtomicSync } from '../../src/platform/atomicWrite';
import { tempDir } from '../support/refAgent';

const posix = process.platform !== 'win32';

describe('Writes inside a folder, never through a link', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  let root: string;
  let outside: string;
  beforeEach(() => {
    dir = tempDir('acp-fw-');
    root = join(dir.path, 'root');
    outside = join(dir.path, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    writeFileSync(join(outside, '.bashrc'), 'mine\n');
  });
  afterEach(() => dir.cleanup());

  it('writes files and links, making the folders on the way; replaces a link at the name, never writing through it', async function () {
    if (!posix) this.skip();
    const w = await FolderWrites.open(root);
    await w.writeFile('src/deep/a.ts', Buffer.from('export {};\n'), () => 0o644);
    assert.equal(readFileSync(join(root, 'src', 'deep', 'a.ts'), 'utf8'), 'export {};\n');
    assert.equal(lstatSync(join(root, 'src', 'deep', 'a.ts')).mode & 0o777, 0o644);
    symlinkSync(join(outside, '.bashrc'), join(root, 'rc'));
    await w.writeFile('rc', Buffer.from('restored\n'), () => 0o644);
    assert.equal(readFileSync(join(outside, '.bashrc'), 'utf8'), 'mine\n', 'the link was not followed');
    assert.ok(lstatSync(join(root, 'rc')).isFile());
    await w.writeLink('home', outside);
    assert.equal(readlinkSync(join(root, 'home')), outside);
    assert.equal(await w.remove('home'), 'removed');
    assert.equal(readFileSync(join(outside, '.bashrc'), 'utf8'), 'mine\n');
    assert.deepEqual(readdirSync(root).sort(), ['rc', 'src'], 'no temporary file is left');
  });

  it('refuses a link or a file on the way, naming it, and writes nothing beyond it', async function () {
    if (!posix) this.skip();
    const w = await FolderWrites.open(root);
    symlinkSync(outside, join(root, 'home'));
    await assert.rejects(
      w.writeFile('home/.bashrc', Buffer.from('evil\n'), () => 0o644),
      (e: unknown) => e instanceof NotInFolder && /home on its path is a link; it was not followed/.test(e.message),
    );
    await assert.rejects(w.writeLink('home/x', '/'), NotInFolder);
    assert.equal(
      await w.remove('home/.bashrc').catch((e: unknown) => (e instanceof NotInFolder ? 'refused' : e)),
      'refused',
    );
    writeFileSync(join(root, 'file'), 'x');
    await assert.rejects(
      w.writeFile('file/a', Buffer.from('y'), () => 0o644),
      /file on its path is a file now/,
    );
    await assert.rejects(
      w.writeFile('../outside/x', Buffer.from('y'), () => 0o644),
      /not a path inside the folder/,
    );
    assert.equal(await w.lstat('home/.bashrc').catch(() => 'refused'), 'refused');
    assert.equal(readFileSync(join(outside, '.bashrc'), 'utf8'), 'mine\n');
    assert.deepEqual(readdirSync(outside), ['.bashrc']);
  });

  it('writes nothing outside while another process swaps a folder on the way for a link', async function () {
    if (!FOLDER_HANDLES) this.skip();
    const raced = join(root, 'd');
    mkdirSync(raced);
    const script = `
      const fs = require('node:fs');
      const [d, away, outside] = process.argv.slice(1);
      const quiet = (f) => { try { f(); } catch {} };
      const hold = (ns) => { const end = process.hrtime.bigint() + ns; while (process.hrtime.bigint() < end); };
      process.stdout.write('ready\\n');
      for (;;) {
        quiet(() => fs.renameSync(d, away));
        quiet(() => fs.symlinkSync(outside, d));
        hold(300000n);
        quiet(() => fs.unlinkSync(d));
        quiet(() => fs.renameSync(away, d));
        hold(100000n);
      }`;
    const swapper: ChildProcess = spawn(process.execPath, ['-e', script, raced, join(root, 'away'), outside], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await new Promise((resolve) => swapper.stdout!.once('data', resolve));
      const w = await FolderWrites.open(root);
      let written = 0;
      let rounds = 0;
      // At least 600 writes, and on until some got through (a loaded machine may hold the link).
      for (; rounds < 600 || (written === 0 && rounds < 12_000); rounds++) {
        const ok = await w
          .writeFile(`d/f-${rounds}.txt`, Buffer.from('x'), () => 0o644)
          .then(() => true)
          .catch(() => false);
        if (ok) written++;
      }
      assert.deepEqual(readdirSync(outside), ['.bashrc'], `writes landed outside (of ${rounds})`);
      assert.equal(readFileSync(join(outside, '.bashrc'), 'utf8'), 'mine\n');
      assert.ok(written > 0, 'the race let writes through at all');
    } finally {
      swapper.kill('SIGKILL');
    }
  });
});

describe('The atomic write of our own files', function () {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir('acp-aw-')));
  afterEach(() => dir.cleanup());

  it('replaces the file whole, a link at its name too, and leaves no temporary file behind', async function () {
    const file = join(dir.path, 'store.json');
    await writeAtomic(file, '{"a":1}');
    writeAtomicSync(file, '{"a":2}', { durable: true });
    assert.equal(readFileSync(file, 'utf8'), '{"a":2}');
    if (posix) {
      const target = join(dir.path, 'elsewhere.txt');
      writeFileSync(target, 'keep');
      const linked = join(dir.path, 'linked.json');
      symlinkSync(target, linked);
      await writeAtomic(linked, 'new');
      assert.equal(readFileSync(target, 'utf8'), 'keep', 'the link was replaced, not followed');
      assert.equal(readFileSync(linked, 'utf8'), 'new');
    }
    await assert.rejects(writeAtomic(join(dir.path, 'no', 'such', 'dir.json'), 'x'));
    assert.deepEqual(
      readdirSync(dir.path).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });
});
