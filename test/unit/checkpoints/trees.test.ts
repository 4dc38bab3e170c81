import assert from 'node:assert/strict';
import { parseBatch } from '../../../src/checkpoints/blobs';
import { restoreSteps } from '../../../src/checkpoints/restore';
import { folderKey, shadowConfig } from '../../../src/checkpoints/shadowRepo';
import { ATTRIBUTES, DEFAULT_MAX_FILE_BYTES, DEFAULT_SKIP, excludeFile } from '../../../src/checkpoints/skipRules';
import { parseDiffTree } from '../../../src/checkpoints/treeDiff';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('Diffs between checkpoints', () => {
  it('reads raw records and their line counts, binary files and links included', () => {
    const out = Buffer.from(
      [
        `:100644 100644 ${A} ${B} M`,
        'src/a.ts',
        `:100644 000000 ${A} ${Z} D`,
        'gone.txt',
        `:000000 100755 ${Z} ${B} A`,
        'run.sh',
        `:120000 100644 ${A} ${B} T`,
        'link',
        `:100644 100644 ${A} ${B} M`,
        'image.png',
        '2\t1\tsrc/a.ts',
        '0\t3\tgone.txt',
        '4\t0\trun.sh',
        '1\t1\tlink',
        '-\t-\timage.png',
        '',
      ].join('\0'),
    );
    const changes = parseDiffTree(out, true);
    assert.deepEqual(
      changes.map((c) => [c.path, c.status, c.added, c.deleted, c.binary]),
      [
        ['src/a.ts', 'modified', 2, 1, false],
        ['gone.txt', 'deleted', 0, 3, false],
        ['run.sh', 'added', 4, 0, false],
        ['link', 'typeChanged', 1, 1, false],
        ['image.png', 'modified', undefined, undefined, true],
      ],
    );
    assert.deepEqual(changes[1]!.before, { blob: A, mode: '100644' });
    assert.equal(changes[1]!.after, undefined);
    assert.deepEqual(changes[2]!.after, { blob: B, mode: '100755' });
    assert.equal(changes[2]!.before, undefined);
    assert.deepEqual(
      parseDiffTree(Buffer.from(`:100644 100644 ${A} ${B} M\0a b\0`), false).map((c) => [c.path, c.added]),
      [['a b', undefined]],
    );
  });

  it('reads cat-file --batch output byte for byte, and skips what is missing', () => {
    const bytes = Buffer.from([0, 10, 255, 10]);
    const out = Buffer.concat([Buffer.from(`${A} blob 4\n`), bytes, Buffer.from(`\n${B} missing\n${Z} blob 0\n\n`)]);
    const map = parseBatch(out);
    assert.deepEqual(map.get(A), bytes);
    assert.equal(map.has(B), false);
    assert.deepEqual(map.get(Z), Buffer.alloc(0));
  });

  it("turns a diff to the checkpoint into writes and deletions, never a nested repository's link", () => {
    const steps = restoreSteps([
      {
        path: 'a',
        status: 'modified',
        binary: false,
        before: { blob: A, mode: '100644' },
        after: { blob: B, mode: '100755' },
      },
      { path: 'new-then', status: 'added', binary: false, after: { blob: B, mode: '120000' } },
      { path: 'added-since', status: 'deleted', binary: false, before: { blob: A, mode: '100644' } },
      { path: 'sub', status: 'added', binary: false, after: { blob: B, mode: '160000' } },
    ]);
    assert.deepEqual(
      steps.map((s) => [s.path, s.action, s.to?.mode]),
      [
        ['a', 'write', '100755'],
        ['new-then', 'write', '120000'],
        ['added-since', 'delete', undefined],
      ],
    );
  });
});

describe('The shadow repository', () => {
  it('keeps one store per folder, the same however the folder is spelled where case does not count', () => {
    assert.equal(folderKey('C:\\Work\\Project', 'win32'), folderKey('c:\\work\\project\\', 'win32'));
    assert.equal(folderKey('/Users/me/Project', 'darwin'), folderKey('/users/me/project', 'darwin'));
    assert.notEqual(folderKey('/home/me/Project', 'linux'), folderKey('/home/me/project', 'linux'));
    assert.match(folderKey('/x', 'linux'), /^[0-9a-f]{24}$/);
  });

  it('writes a config that runs nothing and converts nothing, with Windows paths quoted', () => {
    const win = shadowConfig('C:\\Users\\me\\storage\\k\\git', 'C:\\Work\\"odd"', 'win32');
    assert.match(win, /worktree = "C:\\\\Work\\\\\\"odd\\""/);
    assert.match(win, /hooksPath = "C:\\\\Users\\\\me\\\\storage\\\\k\\\\git\\\\no-hooks"/);
    assert.match(win, /filemode = false/);
    assert.match(win, /symlinks = false/);
    assert.match(win, /ignorecase = true/);
    assert.match(win, /longpaths = true/);
    const mac = shadowConfig('/s/git', '/w', 'darwin');
    assert.match(mac, /ignorecase = true/);
    assert.match(mac, /precomposeunicode = true/);
    const linux = shadowConfig('/s/git', '/w', 'linux');
    for (const line of ['fsmonitor = false', 'autocrlf = false', 'auto = 0', 'ignorecase = false', 'symlinks = true'])
      assert.ok(linux.includes(line), line);
    assert.throws(() => shadowConfig('/s/git', '/w\nx', 'linux'), /line break/);
  });

  it('leaves out the skip list and converts no file', () => {
    assert.equal(
      excludeFile(['node_modules/', ' ', '# note', 'dist/', 'a\nb']).split('\n').slice(1).join('\n'),
      'node_modules/\ndist/\n',
    );
    assert.ok(DEFAULT_SKIP.includes('node_modules/'));
    assert.equal(DEFAULT_MAX_FILE_BYTES, 5 * 1024 * 1024, 'files over 5 MB are left out by default');
    assert.match(ATTRIBUTES, /^\* -text -filter -ident !eol !working-tree-encoding !diff\n$/);
  });
});
