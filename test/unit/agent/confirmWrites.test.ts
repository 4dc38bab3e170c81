import * as assert from 'node:assert/strict';
import { confirmationReason, globMatches } from '../../../src/agent/confirmWrites';

describe('Files whose writes need confirmation', () => {
  it('asks for Git internals, VS Code settings, tasks and launch files, and workspace files, at any depth and in any case', () => {
    for (const path of [
      '.git/config',
      '.git/hooks/pre-commit',
      'vendor/lib/.git/config',
      '.git',
      'sub/.git',
      '.GIT/Config',
      '.vscode/settings.json',
      'packages/a/.vscode/tasks.json',
      '.vscode/launch.json',
      '.VSCode/Settings.JSON',
      'team.code-workspace',
      'nested/dir/x.code-workspace',
    ])
      assert.ok(confirmationReason(path), path);
  });

  it('lets ordinary files through, including names that only look alike', () => {
    for (const path of [
      'src/index.ts',
      '.gitignore',
      '.github/workflows/ci.yml',
      'git/config',
      '.vscode/extensions.json',
      'a.code-workspace.bak',
    ])
      assert.equal(confirmationReason(path), undefined, path);
  });

  it('adds the patterns of acp.confirmWritesTo, named in the reason', () => {
    assert.equal(confirmationReason('deploy/prod.yml'), undefined);
    assert.match(
      confirmationReason('deploy/prod.yml', ['**/deploy/**']) ?? '',
      /"\*\*\/deploy\/\*\*" in "acp.confirmWritesTo"/,
    );
    assert.ok(confirmationReason('a/b/.env', ['*.env', '.env']));
    assert.ok(confirmationReason('Makefile', ['{Makefile,*.mk}']));
  });

  it('reads globs as .gitignore does', () => {
    assert.ok(globMatches('**/x/**', 'x/y'));
    assert.ok(globMatches('**/x/**', 'a/b/x/y/z'));
    assert.ok(!globMatches('**/x/**', 'ax/y'));
    assert.ok(globMatches('a/*.ts', 'a/b.ts'));
    assert.ok(!globMatches('a/*.ts', 'a/c/b.ts'));
    assert.ok(globMatches('?.md', 'deep/x.md'));
    assert.ok(!globMatches('a.(b)', 'a.b'), 'other characters are literal');
  });
});
