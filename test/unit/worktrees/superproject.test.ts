import assert from 'node:assert/strict';
import { parseSubmodulePaths } from '../../../src/worktrees/superproject';

describe('A .gitmodules file read as text', () => {
  it('takes each submodule’s path, quoted, escaped or with a comment after it', () => {
    const text = [
      '[submodule "lib"]',
      '\tpath = libs/lib',
      '\turl = ../lib',
      '[submodule "odd"]',
      '\tpath = "with space/and \\"quote\\""',
      '  PATH=vendor/kept/ ; a comment',
      '# path = commented/out',
      '[submodule "none"]',
      '\tpath =',
    ].join('\r\n');
    assert.deepEqual(parseSubmodulePaths(text), ['libs/lib', 'with space/and "quote"', 'vendor/kept']);
  });
});
