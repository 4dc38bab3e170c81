import * as assert from 'node:assert/strict';
import {
  promises as fsPromises,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientFileSystemHost } from '../../../src/agent/fileSystem';
import { ClientFileSystem, MAX_READ_BYTES } from '../../../src/agent/fileSystem';
import { MemoryLogger } from '../../../src/agent/log';
import { assertRejected } from './helpers';

describe('ClientFileSystem', () => {
  let base: string;
  let root: string;
  let outside: string;
  let logger: MemoryLogger;

  const make = (extra: Partial<ClientFileSystemHost> = {}) =>
    new ClientFileSystem({ rootsFor: (id) => (id === 's1' ? [root] : undefined), logger, ...extra });

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'acp-fs-')));
    root = join(base, 'root');
    outside = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    writeFileSync(join(root, 'lines.txt'), 'one\ntwo\r\nthree\nfour\n');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    logger = new MemoryLogger();
  });

  afterEach(() => rmSync(base, { recursive: true, force: true }));

  describe('readTextFile', () => {
    it('reads a whole file and logs the path, not the content', async () => {
      const fs = make();
      const { content } = await fs.readTextFile({ sessionId: 's1', path: join(root, 'lines.txt') });
      assert.equal(content, 'one\ntwo\r\nthree\nfour\n');
      assert.ok(logger.lines.some((l) => l.startsWith('debug fs/read_text_file') && l.includes('lines.txt')));
      assert.ok(!logger.lines.some((l) => l.includes('three')));
    });

    it('honours line (1-based) and limit', async () => {
      const fs = make();
      const read = async (line?: number, limit?: number) =>
        (await fs.readTextFile({ sessionId: 's1', path: join(root, 'lines.txt'), line, limit })).content;
      assert.equal(await read(2, 2), 'two\r\nthree\n');
      assert.equal(await read(3), 'three\nfour\n');
      assert.equal(await read(undefined, 1), 'one\n');
      assert.equal(await read(9, 3), '');
      await assertRejected(read(0, 1), -32602, '"line"');
      await assertRejected(read(1, -1), -32602, '"limit"');
    });

    it("prefers an open editor's unsaved text", async () => {
      const fs = make({ openText: (p) => (p === join(root, 'lines.txt') ? 'unsaved\ntext\n' : undefined) });
      assert.equal(
        (await fs.readTextFile({ sessionId: 's1', path: join(root, 'lines.txt'), line: 2 })).content,
        'text\n',
      );
    });

    it('refuses a path outside the roots, through ".." or a symbolic link, without asking the editor', async () => {
      const asked: string[] = [];
      const fs = make({ openText: (p) => (asked.push(p), undefined) });
      symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
      await assertRejected(fs.readTextFile({ sessionId: 's1', path: join(outside, 'secret.txt') }), -32602, 'outside');
      await assertRejected(fs.readTextFile({ sessionId: 's1', path: `${root}/../outside/secret.txt` }), -32602, '".."');
      await assertRejected(fs.readTextFile({ sessionId: 's1', path: join(root, 'link.txt') }), -32602, 'outside');
      assert.deepEqual(asked, []);
    });

    it('reports a missing file as not found', async () => {
      await assertRejected(
        make().readTextFile({ sessionId: 's1', path: join(root, 'nope.txt') }),
        -32002,
        'does not exist',
      );
    });

    it('refuses a file over 10 MB', async () => {
      const big = join(root, 'big.txt');
      writeFileSync(big, '');
      truncateSync(big, MAX_READ_BYTES + 1);
      await assertRejected(make().readTextFile({ sessionId: 's1', path: big }), -32602, '10.0 MB');
    });

    it("refuses an open editor's unsaved text over 10 MB, as it refuses such a file", async () => {
      const big = 'x'.repeat(MAX_READ_BYTES + 1);
      const fs = make({ openText: (p) => (p === join(root, 'lines.txt') ? big : undefined) });
      await assertRejected(fs.readTextFile({ sessionId: 's1', path: join(root, 'lines.txt') }), -32602, '10.0 MB');
      const fits = make({ openText: () => 'y'.repeat(MAX_READ_BYTES) });
      assert.equal(
        (await fits.readTextFile({ sessionId: 's1', path: join(root, 'lines.txt') })).content.length,
        MAX_READ_BYTES,
      );
    });

    it('refuses an unknown session', async () => {
      await assertRejected(make().readTextFile({ sessionId: 'nope', path: join(root, 'lines.txt') }), -32002);
    });
  });

  describe('writeTextFile', () => {
    it('writes a file and creates its parent folders inside the root', async () => {
      const fs = make();
      await fs.writeTextFile({ sessionId: 's1', path: join(root, 'a', 'b', 'new.txt'), content: 'hello' });
      assert.equal(readFileSync(join(root, 'a', 'b', 'new.txt'), 'utf8'), 'hello');
      assert.ok(!logger.lines.some((l) => l.includes('hello')));
    });

    it('refuses a path outside the roots and writes nothing', async () => {
      const fs = make();
      await assertRejected(
        fs.writeTextFile({ sessionId: 's1', path: join(outside, 'dir', 'x.txt'), content: 'x' }),
        -32602,
        'outside',
      );
      await assertRejected(
        fs.writeTextFile({ sessionId: 's1', path: join(outside, 'secret.txt'), content: 'x' }),
        -32602,
        'outside',
      );
      await assertRejected(
        fs.writeTextFile({ sessionId: 's1', path: `${root}/sub/../../outside/y.txt`, content: 'x' }),
        -32602,
        '".."',
      );
      assert.deepEqual(readdirSync(outside), ['secret.txt']);
      assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'secret');
      assert.deepEqual(readdirSync(root), ['lines.txt']);
    });

    it('refuses writing through a folder link out of the root, creating no folder there', async () => {
      symlinkSync(outside, join(root, 'out'));
      await assertRejected(
        make().writeTextFile({ sessionId: 's1', path: join(root, 'out', 'new', 'x.txt'), content: 'x' }),
        -32602,
        'outside',
      );
      assert.ok(!existsSync(join(outside, 'new')));
    });

    it('refuses writing through a dangling link that points out of the root', async () => {
      symlinkSync(join(outside, 'planted.txt'), join(root, 'planted.txt'));
      await assertRejected(
        make().writeTextFile({ sessionId: 's1', path: join(root, 'planted.txt'), content: 'x' }),
        -32602,
        'symbolic link',
      );
      assert.ok(!existsSync(join(outside, 'planted.txt')));
    });

    it('refuses to write over a folder with a message, not a raw EISDIR', async () => {
      mkdirSync(join(root, 'folder'));
      await assertRejected(
        make().writeTextFile({ sessionId: 's1', path: join(root, 'folder'), content: 'x' }),
        -32602,
        'is not a regular file',
      );
      let wrote = false;
      const viaHost = make({ writeText: async () => void (wrote = true) });
      await assertRejected(
        viaHost.writeTextFile({ sessionId: 's1', path: join(root, 'folder'), content: 'x' }),
        -32602,
        'is not a regular file',
      );
      assert.equal(wrote, false, 'the host is not asked to write over a folder');
    });

    it('refuses, and writes nothing outside, when a folder is swapped for a link out of the root during the write', async () => {
      mkdirSync(join(root, 'a'));
      const realMkdir = fsPromises.mkdir;
      // The swap happens after the path was checked and before its folders are created.
      fsPromises.mkdir = (async (...args: Parameters<typeof realMkdir>) => {
        fsPromises.mkdir = realMkdir;
        rmSync(join(root, 'a'), { recursive: true });
        symlinkSync(outside, join(root, 'a'));
        return realMkdir(...args);
      }) as typeof realMkdir;
      try {
        await assertRejected(
          make().writeTextFile({ sessionId: 's1', path: join(root, 'a', 'b', 'new.txt'), content: 'planted' }),
          -32602,
        );
      } finally {
        fsPromises.mkdir = realMkdir;
      }
      assert.ok(!existsSync(join(outside, 'b', 'new.txt')), 'nothing was written outside the root');
    });

    it('refuses when writes are off for the session, and writes nothing', async () => {
      let wrote = false;
      const fs = make({ allowWrite: () => false, writeText: async () => void (wrote = true) });
      await assertRejected(
        fs.writeTextFile({ sessionId: 's1', path: join(root, 'x', 'new.txt'), content: 'x' }),
        -32602,
        'turned off',
      );
      assert.equal(wrote, false);
      assert.deepEqual(readdirSync(root), ['lines.txt']);
    });

    it("goes through the host's writeText when there is one", async () => {
      const writes: Array<[string, string]> = [];
      const fs = make({ writeText: async (p, t) => void writes.push([p, t]) });
      await fs.writeTextFile({ sessionId: 's1', path: join(root, 'lines.txt'), content: 'new' });
      assert.deepEqual(writes, [[join(root, 'lines.txt'), 'new']]);
      assert.equal(readFileSync(join(root, 'lines.txt'), 'utf8'), 'one\ntwo\r\nthree\nfour\n');
    });

    it('refuses an unknown session', async () => {
      await assertRejected(
        make().writeTextFile({ sessionId: 'nope', path: join(root, 'x.txt'), content: 'x' }),
        -32002,
      );
      assert.ok(!existsSync(join(root, 'x.txt')));
    });
  });
});
