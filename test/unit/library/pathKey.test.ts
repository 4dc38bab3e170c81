import assert from 'node:assert/strict';
import { absoluteIn, pathKey } from '../../../src/library/pathKey';

describe('library: path keys on every system', () => {
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
});
