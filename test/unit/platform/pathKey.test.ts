import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  absoluteIn,
  clearPathCache,
  normalizePath,
  pathKey,
  relativeKey,
  samePath,
} from '../../../src/platform/pathKey';
import { posixIt } from '../../support/platform';

describe('normalizePath / samePath', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-paths-')));
  const real = path.join(root, 'Project');
  before(() => fs.mkdirSync(real));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  afterEach(() => clearPathCache());

  it('resolves and drops trailing separators', () => {
    const expected = normalizePath(real);
    assert.equal(normalizePath(`${real}${path.sep}`), expected);
    assert.equal(normalizePath(`${real}${path.sep}${path.sep}`), expected);
    assert.equal(normalizePath(path.join(real, 'sub', '..')), expected);
    assert.ok(samePath(real, `${real}/`));
  });

  posixIt('symlinks', 'follows links', () => {
    const link = path.join(root, 'link');
    fs.symlinkSync(real, link);
    if (process.platform === 'linux') assert.equal(normalizePath(link, 'linux'), real);
    assert.ok(samePath(link, `${real}/`));
  });

  it('keeps a root as it is', () => {
    assert.equal(normalizePath('/', 'linux'), '/');
    assert.equal(normalizePath('C:\\', 'win32'), 'c:\\');
  });

  it('falls back to the resolved path when it does not exist', () => {
    assert.equal(normalizePath('/no/such/dir/', 'linux'), '/no/such/dir');
    assert.ok(!samePath('/no/such/a', '/no/such/b'));
  });

  it('ignores case on Windows and macOS only', () => {
    assert.equal(normalizePath('C:\\Users\\Me\\Repo\\', 'win32'), 'c:\\users\\me\\repo');
    assert.ok(samePath('C:\\Users\\Me\\Repo', 'c:/users/me/repo/', 'win32'));
    assert.ok(samePath('/Users/Me/Repo', '/users/me/repo', 'darwin'));
    assert.ok(!samePath('/Users/Me/Repo', '/users/me/repo', 'linux'));
  });

  posixIt('symlinks', 'caches real paths: a link changed later is seen after clearPathCache', () => {
    const other = path.join(root, 'Other');
    fs.mkdirSync(other);
    const hop = path.join(root, 'hop');
    fs.symlinkSync(real, hop);
    const first = normalizePath(hop);
    fs.unlinkSync(hop);
    fs.symlinkSync(other, hop);
    assert.equal(normalizePath(hop), first);
    clearPathCache();
    assert.equal(normalizePath(hop), normalizePath(other));
  });
});

describe('path keys on every system', () => {
  it('keys Windows long-path forms like the plain ones', () => {
    assert.equal(pathKey('\\\\?\\C:\\Work\\Repo\\', 'win32'), pathKey('C:\\work\\repo', 'win32'));
    assert.equal(pathKey('\\\\?\\UNC\\server\\share\\x', 'win32'), pathKey('\\\\server\\share\\x', 'win32'));
    assert.equal(pathKey('C:/Work/Repo', 'win32'), 'c:\\work\\repo');
  });

  it('keeps a POSIX path a WSL or remote agent reports as it is on Windows, without a drive letter', () => {
    assert.equal(pathKey('/home/me/Repo/', 'win32'), '/home/me/Repo');
    assert.equal(absoluteIn('/home/me/repo', 'src/a.ts', 'win32'), '/home/me/repo/src/a.ts');
    assert.equal(absoluteIn('C:\\repo', 'src/a.ts', 'win32'), 'C:\\repo\\src\\a.ts');
  });

  it('folds case and Unicode form on macOS, keeps case on Linux', () => {
    assert.equal(pathKey('/Users/Me/Cafe\u0301/', 'darwin'), '/users/me/caf\u00e9');
    assert.equal(pathKey('/home/Me/x/', 'linux'), '/home/Me/x');
  });

  it('keys a path relative to a folder by the same rule', () => {
    assert.equal(relativeKey('Src\\Cafe\u0301.ts', 'darwin'), 'src/caf\u00e9.ts');
    assert.equal(relativeKey('Src\\A.ts', 'win32'), 'src/a.ts');
    assert.equal(relativeKey('Src/A.ts', 'linux'), 'Src/A.ts');
  });

  it('a folder key is the path key of its real path, on every platform alike', () => {
    assert.equal(normalizePath('\\\\?\\C:\\Work\\', 'win32'), pathKey('C:\\work', 'win32'));
    assert.equal(normalizePath('/Users/Me/', 'darwin'), pathKey('/users/me', 'darwin'));
  });
});
