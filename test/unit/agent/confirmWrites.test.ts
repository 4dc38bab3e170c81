import * as assert from 'node:assert/strict';
import { confirmationReason, confirmationRule, globMatches } from '../../../src/agent/confirmWrites';

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

  it('asks for the files other tools run on a commit, an install, opening the folder or entering it', () => {
    const cases: [string, RegExp][] = [
      ['.husky/pre-commit', /hooks/],
      ['.husky/_/h', /hooks/],
      ['.githooks/pre-push', /hooks/],
      ['.pre-commit-config.yaml', /pre-commit/],
      ['sub/.pre-commit-config.yml', /pre-commit/],
      ['lefthook.yml', /Lefthook/],
      ['.lefthook-local.yaml', /Lefthook/],
      ['lefthook.toml', /Lefthook/],
      ['.lefthook/pre-commit/lint.sh', /Lefthook/],
      ['.devcontainer/devcontainer.json', /initializeCommand/],
      ['.devcontainer/scripts/setup.sh', /dev container/],
      ['.devcontainer.json', /dev container/],
      ['.vscode/mcp.json', /MCP/],
      ['.envrc', /direnv/],
      ['apps/web/.envrc', /direnv/],
      ['mise.toml', /mise/],
      ['.mise.local.toml', /mise/],
      ['.npmrc', /npm/],
      ['.yarnrc.yml', /yarnPath/],
      ['.yarnrc', /yarnPath/],
      ['.pnpmfile.cjs', /pnpm/],
      ['native/binding.gyp', /node-gyp/],
      ['.mcp.json', /MCP servers/],
      ['.claude/settings.json', /hooks/],
      ['.claude/settings.local.json', /hooks/],
      ['.gemini/settings.json', /MCP/],
      ['.HUSKY/Pre-Commit', /hooks/],
    ];
    for (const [path, reason] of cases) assert.match(confirmationReason(path) ?? '', reason, path);
  });

  it('asks for package.json only when an install would run something else', () => {
    const pkg = (o: object) => JSON.stringify(o);
    const old = pkg({ name: 'a', scripts: { test: 'mocha', postinstall: 'husky' } });
    const ask = (newText: string, oldText: string | null = old) =>
      confirmationReason('packages/a/package.json', [], { ...(oldText !== null ? { oldText } : {}), newText });
    assert.equal(ask(pkg({ name: 'b', version: '2', scripts: { test: 'jest', postinstall: 'husky' } })), undefined);
    for (const key of [
      'preinstall',
      'install',
      'postinstall',
      'prepare',
      'prepack',
      'dependencies',
      'pnpm:devPreinstall',
    ])
      assert.match(
        ask(pkg({ scripts: { [key]: 'node evil.js', ...(key === 'postinstall' ? {} : { postinstall: 'husky' }) } })) ??
          '',
        /lifecycle/,
        key,
      );
    assert.ok(ask(pkg({ scripts: { test: 'mocha' } })), 'taking a script away changes what runs too');
    assert.ok(ask(pkg({ packageManager: 'pnpm@https://example.test/pnpm.tgz', scripts: { postinstall: 'husky' } })));
    assert.ok(ask(`\uFEFF${pkg({ scripts: { postinstall: 'evil' } })}`), 'a byte-order mark is read past, as npm does');
    assert.equal(ask('{ broken', null), undefined, 'a file that does not parse runs nothing');
    assert.ok(ask(pkg({ scripts: { install: 'x' } }), null), 'a new file with install scripts');
    assert.equal(ask(pkg({ scripts: { test: 'x' } }), null), undefined, 'a new file without');
    assert.ok(confirmationReason('package.json'), 'without the change, any write counts');
    assert.ok(confirmationRule('package.json')?.matters);
    assert.equal(
      confirmationRule('package.json', ['**/package.json'])?.matters,
      undefined,
      'a pattern of the setting asks for every write',
    );
  });

  it('lets ordinary files through, including names that only look alike', () => {
    for (const path of [
      'src/index.ts',
      '.gitignore',
      '.github/workflows/ci.yml',
      'git/config',
      '.vscode/extensions.json',
      'a.code-workspace.bak',
      '.gitattributes',
      '.gitmodules',
      '.nvmrc',
      'Makefile',
      'husky/pre-commit',
      '.devcontainerx/a.json',
      'my.envrc',
      '.npmrc.bak',
      'docs/lefthook.md',
      '.claude/commands/review.md',
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
