import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveInRoots } from '../../../src/agent/roots';
import { assertRefused } from './helpers';

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
    assert.equal(resolveInRoots(join(root, 'sub', 'b.txt'), [root]), join(root, 'sub', 'b.txt'));
  });

  it('refuses a relative path', () => {
    assertRefused(() => resolveInRoots('a.txt', [root]), -32602, 'not absolute');
    assertRefused(() => resolveInRoots('./a.txt', [root]), -32602, 'not absolute');
  });

  it('refuses ".." even when it would land inside the root', () => {
    assertRefused(() => resolveInRoots(`${root}/sub/../a.txt`, [root]), -32602, '".."');
    assertRefused(() => resolveInRoots(`${root}/../outside/secret.txt`, [root]), -32602, '".."');
    assertRefused(() => resolveInRoots(`${root}/../`, [root]), -32602, '".."');
  });

  it('refuses a NUL byte', () => {
    assertRefused(() => resolveInRoots(`${root}/a.txt\0.png`, [root]), -32602, 'NUL');
  });

  it('refuses a sibling folder that shares the root as a prefix', () => {
    assertRefused(() => resolveInRoots(join(base, 'root-evil', 'x.txt'), [root]), -32602, 'outside');
    assertRefused(() => resolveInRoots(join(base, 'root-evil', 'x.txt'), [`${root}/`]), -32602, 'outside');
  });

  it('accepts a root given with a trailing slash, and refuses a path with one', () => {
    assert.equal(resolveInRoots(join(root, 'a.txt'), [`${root}/`]), join(root, 'a.txt'));
    assertRefused(() => resolveInRoots(`${root}/sub/`, [root]), -32602, 'separator');
  });

  it('refuses a file symbolic link that points out of the root', () => {
    symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'link.txt'));
    assertRefused(() => resolveInRoots(join(root, 'link.txt'), [root]), -32602, 'resolves to');
  });

  it('refuses a folder symbolic link that points out of the root, for read and for a new file', () => {
    symlinkSync(join(base, 'outside'), join(root, 'out'));
    assertRefused(() => resolveInRoots(join(root, 'out', 'secret.txt'), [root]), -32602, 'outside');
    assertRefused(
      () => resolveInRoots(join(root, 'out', 'new', 'file.txt'), [root], { forWrite: true }),
      -32602,
      'outside',
    );
  });

  it('refuses a dangling symbolic link on write', () => {
    symlinkSync(join(base, 'outside', 'not-yet.txt'), join(root, 'dangling.txt'));
    assertRefused(
      () => resolveInRoots(join(root, 'dangling.txt'), [root], { forWrite: true }),
      -32602,
      'symbolic link',
    );
  });

  it('allows a symbolic link that stays inside the root, and returns its target', () => {
    symlinkSync(join(root, 'sub'), join(root, 'alias'));
    assert.equal(resolveInRoots(join(root, 'alias', 'b.txt'), [root]), join(root, 'sub', 'b.txt'));
  });

  it('compares real paths: a root reached through a symbolic link still contains its files', () => {
    symlinkSync(root, join(base, 'root-link'));
    assert.equal(resolveInRoots(join(root, 'a.txt'), [join(base, 'root-link')]), join(root, 'a.txt'));
    assert.equal(resolveInRoots(join(base, 'root-link', 'a.txt'), [root]), join(root, 'a.txt'));
  });

  it('reports a missing file inside as not found, and outside as refused', () => {
    assertRefused(() => resolveInRoots(join(root, 'missing.txt'), [root]), -32002, 'does not exist');
    assertRefused(() => resolveInRoots(join(base, 'outside', 'missing.txt'), [root]), -32602, 'outside');
  });

  it('resolves a new file on write to its real ancestor plus the rest', () => {
    symlinkSync(join(root, 'sub'), join(root, 'alias'));
    assert.equal(
      resolveInRoots(join(root, 'alias', 'new', 'c.txt'), [root], { forWrite: true }),
      join(root, 'sub', 'new', 'c.txt'),
    );
  });

  it('accepts any of several roots', () => {
    assert.equal(
      resolveInRoots(join(base, 'outside', 'secret.txt'), [root, join(base, 'outside')]),
      join(base, 'outside', 'secret.txt'),
    );
  });

  it('compares case-insensitively only where the platform does', () => {
    // Linux keeps `Root` and `root` apart, which lets one run check both rules.
    const other = join(base, 'Root');
    mkdirSync(other);
    assert.equal(resolveInRoots(join(root, 'a.txt'), [other], { platform: 'darwin' }), join(root, 'a.txt'));
    assertRefused(() => resolveInRoots(join(root, 'a.txt'), [other], { platform: 'linux' }), -32602, 'outside');
  });
});
