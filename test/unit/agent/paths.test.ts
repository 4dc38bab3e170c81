import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clearPathCache, normalizePath, samePath } from '../../../src/agent/paths';
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
