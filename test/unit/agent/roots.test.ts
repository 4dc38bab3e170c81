import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { deepestReal, pinRoots, resolveInRoots } from '../../../src/agent/roots';
import { assertRefused } from './helpers';
import { posixIt } from '../../support/platform';

const pin = (...paths: string[]) => pinRoots(paths);

describe('resolveInRoots', () => {
  let base: string;
  let root: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'acp-roots-')));
    root = join(base, 'root');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'a.txt'), 'a');
    writeFileSync(join(root, 'sub', 'b.txt'), 'b');
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret.txt'), 'secret');
    mkdirSync(join(base, 'root-evil'));
    writeFileSync(join(base, 'root-evil', 'x.txt'), 'x');
  });

  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('returns the real path of a file inside a root', () => {
    assert.equal(resolveInRoots(join(root, 'sub', 'b.txt'), pin(root)), join(root, 'sub', 'b.txt'));
  });

  it('refuses a relative path', () => {
    assertRefused(() => resolveInRoots('a.txt', pin(root)), -32602, 'not absolute');
    assertRefused(() => resolveInRoots('./a.txt', pin(root)), -32602, 'not absolute');
  });

  it('refuses ".." even when it would land inside the root', () => {
    assertRefused(() => resolveInRoots(`${root}/sub/../a.txt`, pin(root)), -32602, '".."');
    assertRefused(() => resolveInRoots(`${root}/../outside/secret.txt`, pin(root)), -32602, '".."');
    assertRefused(() => resolveInRoots(`${root}/../`, pin(root)), -32602, '".."');
  });

  it('refuses a NUL byte', () => {
    assertRefused(() => resolveInRoots(`${root}/a.txt\0.png`, pin(root)), -32602, 'NUL');
  });

  it('refuses a sibling folder that shares the root as a prefix', () => {
    assertRefused(() => resolveInRoots(join(base, 'root-evil', 'x.txt'), pin(root)), -32602, 'outside');
    assertRefused(() => resolveInRoots(join(base, 'root-evil', 'x.txt'), pin(`${root}/`)), -32602, 'outside');
  });

  it('accepts a root given with a trailing slash, and refuses a path with one', () => {
    assert.equal(resolveInRoots(join(root, 'a.txt'), pin(`${root}/`)), join(root, 'a.txt'));
    assertRefused(() => resolveInRoots(`${root}/sub/`, pin(root)), -32602, 'separator');
  });

  posixIt('symlinks', 'refuses a file symbolic link that points out of the root, without saying where it leads', () => {
    symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'link.txt'));
    symlinkSync('/proc/self/exe', join(root, 'exe'));
    for (const link of ['link.txt', 'exe']) {
      assertRefused(() => resolveInRoots(join(root, link), pin(root)), -32602, 'outside');
      let said = '';
      try {
        resolveInRoots(join(root, link), pin(root));
      } catch (e) {
        said = (e as Error).message;
      }
      assert.doesNotMatch(said, /secret|outside\/|node|resolves/, said);
    }
  });

  posixIt('symlinks', 'refuses a folder symbolic link that points out of the root, for read and for a new file', () => {
    symlinkSync(join(base, 'outside'), join(root, 'out'));
    assertRefused(() => resolveInRoots(join(root, 'out', 'secret.txt'), pin(root)), -32602, 'outside');
    assertRefused(
      () => resolveInRoots(join(root, 'out', 'new', 'file.txt'), pin(root), { forWrite: true }),
      -32602,
      'outside',
    );
  });

  posixIt('symlinks', 'refuses a dangling symbolic link on write', () => {
    symlinkSync(join(base, 'outside', 'not-yet.txt'), join(root, 'dangling.txt'));
    assertRefused(
      () => resolveInRoots(join(root, 'dangling.txt'), pin(root), { forWrite: true }),
      -32602,
      'symbolic link',
    );
  });

  posixIt('symlinks', 'allows a symbolic link that stays inside the root, and returns its target', () => {
    symlinkSync(join(root, 'sub'), join(root, 'alias'));
    assert.equal(resolveInRoots(join(root, 'alias', 'b.txt'), pin(root)), join(root, 'sub', 'b.txt'));
  });

  posixIt('symlinks', 'compares real paths: a root reached through a symbolic link still contains its files', () => {
    symlinkSync(root, join(base, 'root-link'));
    assert.equal(resolveInRoots(join(root, 'a.txt'), pin(join(base, 'root-link'))), join(root, 'a.txt'));
    assert.equal(resolveInRoots(join(base, 'root-link', 'a.txt'), pin(root)), join(root, 'a.txt'));
  });

  it('reports a missing file inside as not found, and outside as refused', () => {
    assertRefused(() => resolveInRoots(join(root, 'missing.txt'), pin(root)), -32002, 'does not exist');
    assertRefused(() => resolveInRoots(join(base, 'outside', 'missing.txt'), pin(root)), -32602, 'outside');
  });

  posixIt('symlinks', 'resolves a new file on write to its real ancestor plus the rest', () => {
    symlinkSync(join(root, 'sub'), join(root, 'alias'));
    assert.equal(
      resolveInRoots(join(root, 'alias', 'new', 'c.txt'), pin(root), { forWrite: true }),
      join(root, 'sub', 'new', 'c.txt'),
    );
  });

  it('refuses a write whose names Windows reads as another file or a device, on every platform', () => {
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'tasks.json'), '{}');
    // The host's paths are read by the host's rules: on Windows, Windows' are the ones tried.
    const platforms = process.platform === 'win32' ? (['win32'] as const) : (['linux', 'darwin'] as const);
    for (const platform of platforms) {
      const pinned = pinRoots([root], { platform });
      for (const [path, words] of [
        [join(root, '.vscode', 'tasks.json.'), 'ends with a dot'],
        [join(root, '.vscode', 'tasks.json '), 'ends with a space'],
        [join(root, '.vscode', 'tasks.json::$DATA'), 'NTFS stream'],
        [join(root, '.vscode.', 'tasks.json'), '".vscode."'],
        [join(root, 'sub', 'nul.txt'), 'device name'],
        [join(root, 'sub', 'CON'), 'device name'],
        // On Windows a backslash is a separator, not part of a name.
        ...(process.platform === 'win32' ? [] : [[join(root, '.vscode\\tasks.json'), 'folder separator']]),
      ])
        assertRefused(() => resolveInRoots(path, pinned, { platform, forWrite: true }), -32602, words);
      // A read names what exists; only writes create names.
      assert.equal(resolveInRoots(join(root, 'a.txt'), pinned, { platform }), join(root, 'a.txt'));
    }
  });

  it('on Windows, refuses such names as written, before anything is resolved, and not the drive of the root', () => {
    const drive = [{ path: 'C:\\proj', real: 'C:\\proj', foldCase: true }];
    const opts = { platform: 'win32' as const, forWrite: true };
    for (const [path, words] of [
      ['C:\\proj\\.vscode\\nul.txt', 'device name'],
      ['C:/proj/.vscode/CON', 'device name'],
      ['c:\\PROJ\\.vscode\\tasks.json::$DATA', 'NTFS stream'],
      ['C:\\proj\\.vscode\\tasks.json.', 'ends with a dot'],
    ])
      assertRefused(() => resolveInRoots(path, drive, opts), -32602, words);
    // A plain name passes the check (and then may fail for what this host has, or has not, at C:).
    try {
      resolveInRoots('C:\\proj\\.vscode\\tasks.json', drive, opts);
    } catch (e) {
      assert.doesNotMatch((e as Error).message, /is refused: the name/);
    }
  });

  it("checks only the names inside the root: the root's own path may hold a drive's colon", function () {
    // A folder named "C:" exists only on a POSIX host.
    if (process.platform === 'win32') this.skip();
    const drive = join(base, 'C:', 'proj');
    mkdirSync(drive, { recursive: true });
    assert.equal(resolveInRoots(join(drive, 'new.txt'), pin(drive), { forWrite: true }), join(drive, 'new.txt'));
  });

  it('accepts any of several roots', () => {
    assert.equal(
      resolveInRoots(join(base, 'outside', 'secret.txt'), pin(root, join(base, 'outside'))),
      join(base, 'outside', 'secret.txt'),
    );
  });

  it("compares without case only where the root's volume does, whatever the platform", () => {
    // Linux keeps `Root` and `root` apart, as a case-sensitive volume on macOS does; Windows'
    // volumes (and macOS' by default) fold them.
    const other = join(base, 'Root');
    const folds = existsSync(other);
    if (!folds) mkdirSync(other);
    const platforms = process.platform === 'win32' ? (['win32'] as const) : (['darwin', 'linux'] as const);
    for (const platform of platforms) {
      const [pinned] = pinRoots([other], { platform });
      assert.equal(pinned!.foldCase, folds, platform);
      if (folds) assert.equal(resolveInRoots(join(root, 'a.txt'), [pinned!], { platform }), join(root, 'a.txt'));
      else assertRefused(() => resolveInRoots(join(root, 'a.txt'), [pinned!], { platform }), -32602, 'outside');
    }
    // Where the volume folds (as the probe would find), names compare without case.
    assert.equal(
      resolveInRoots(join(root, 'a.txt'), [{ path: other, real: other, foldCase: true }]),
      join(root, 'a.txt'),
    );
  });

  posixIt(
    'symlinks',
    'keeps a root as it was pinned: replaced by a link to "/" later, it does not widen to the disk',
    () => {
      const dir = join(root, 'sub');
      const pinned = pin(root, dir);
      rmSync(dir, { recursive: true });
      symlinkSync('/', dir);
      assertRefused(() => resolveInRoots(join(dir, 'etc', 'hostname'), pinned), -32602, 'outside');
      assertRefused(() => resolveInRoots(join(dir, 'etc', 'passwd'), pin(dir).slice(0, 0)), -32602, 'no existing root');
    },
  );

  it('finds the deepest existing folder of a long missing path in a few look-ups, and refuses an over-long path', () => {
    let calls = 0;
    const counted = (p: string) => {
      calls++;
      return realpathSync.native(p);
    };
    const missing = join(root, ...Array.from({ length: 2000 }, () => 'x'));
    const { base: found, rest } = deepestReal(missing, process.platform === 'win32' ? win32 : posix, counted);
    assert.equal(found, root);
    assert.equal(rest.length, 2000);
    assert.ok(calls <= 16, `${calls} look-ups`);
    assertRefused(() => resolveInRoots(join(root, 'y'.repeat(5000)), pin(root)), -32602, 'longer than');
  });
});
