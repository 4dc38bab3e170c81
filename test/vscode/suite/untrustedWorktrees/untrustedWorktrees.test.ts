// Worktrees in Restricted Mode, in a folder that is a repository inside another one (an
// extracted archive), both naming programs in their config: an fsmonitor in each, and a clean
// filter, a smudge filter and a post-checkout hook in the folder's own. The Sessions view lists
// the folder and the worktree commands are run: no git runs at all (git's trace2 events show
// none), no program runs, and the commands say to trust the folder first. Once the folder is
// trusted its worktree is listed, no fsmonitor has run, and the archive's repository was never
// opened. (VS Code's Git extension is turned off, so every git here is the extension's.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { WorktreeNode } from '../../../../src/ui/sessionsView/treeNodes';
import { agentStarts, suiteContext } from '../../../host/suiteContext';
import { api, askDriver, catchMessages } from '../../support';
import { waitFor } from '../../../support/wait';

/** The test's own git: traced by nobody, run before any program is configured. */
function git(cwd: string, args: string[]): string {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
  delete env.GIT_TRACE2_EVENT;
  return execFileSync('git', args, { cwd, encoding: 'utf8', env });
}

describe('Worktrees in Restricted Mode', function () {
  this.timeout(120_000);
  const folder = () => suiteContext().folders[0]!;
  /** The fixture's root: the archive around the folder. */
  const archive = () => dirname(folder());
  const marker = () => join(archive(), 'programs-ran.txt');
  const ran = () => (existsSync(marker()) ? readFileSync(marker(), 'utf8').split('\n').filter(Boolean) : []);
  /** The work trees of every repository a git of the extension host opened. */
  const opened = () => {
    const dir = suiteContext().gitTraceDir!;
    const out = new Set<string>();
    for (const f of readdirSync(dir))
      for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
        const e = line ? (JSON.parse(line) as { event: string; worktree?: string }) : undefined;
        if (e?.event === 'def_repo' && e.worktree) out.add(e.worktree);
      }
    return out;
  };
  const program = (name: string, word: string, passThrough = false) => {
    const file = join(archive(), name);
    writeFileSync(file, `#!/bin/sh\necho ${word} >> "${marker()}"\n${passThrough ? 'cat\n' : ''}`);
    chmodSync(file, 0o755);
    return file;
  };

  before(() => {
    git(archive(), ['init', '-q', '-b', 'main']);
    writeFileSync(join(archive(), 'ARCHIVE.txt'), 'an extracted archive\n');
    git(archive(), ['add', 'ARCHIVE.txt']);
    git(archive(), ['commit', '-qm', 'archive']);
    git(folder(), ['init', '-q', '-b', 'main']);
    writeFileSync(join(folder(), '.gitattributes'), '*.txt filter=mark\n');
    writeFileSync(join(folder(), 'shared.txt'), 'base\n');
    git(folder(), ['add', '-A']);
    git(folder(), ['commit', '-qm', 'base']);
    const side = join(`${folder()}.worktrees`, 'side');
    git(folder(), ['worktree', 'add', '-q', '-b', 'side', side]);
    // A change the listing's diff must read through the clean filter.
    writeFileSync(join(side, 'shared.txt'), 'changed in the worktree\n');
    git(archive(), ['config', 'core.fsmonitor', program('archive-monitor', 'archive-fsmonitor')]);
    git(folder(), ['config', 'core.fsmonitor', program('monitor', 'fsmonitor')]);
    git(folder(), ['config', 'filter.mark.clean', program('clean', 'clean', true)]);
    git(folder(), ['config', 'filter.mark.smudge', program('smudge', 'smudge', true)]);
    const hook = join(folder(), '.git', 'hooks', 'post-checkout');
    writeFileSync(hook, `#!/bin/sh\necho post-checkout >> "${marker()}"\n`);
    chmodSync(hook, 0o755);
  });

  it('lists the folder without running git', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the folder opened in Restricted Mode');
    const a = await api();
    a.setTrustPrompt(async () => undefined);
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    // The folder's listing, as the view asks for it; Refresh resolves once its worktrees are read.
    a.tree.getChildren();
    await vscode.commands.executeCommand('acp.refreshWorktrees');
    assert.deepEqual(
      a.tree.getChildren().filter((n) => n.type === 'worktree'),
      [],
    );
    assert.deepEqual(ran(), [], 'no program of either repository ran');
    assert.deepEqual([...opened()], [], 'no git opened a repository');
  });

  it('says to trust the folder first for a worktree, running nothing and asking no agent', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    let asked = 0;
    a.setTrustPrompt(async () => {
      asked++;
      return undefined;
    });
    a.setConfirm(async () => true);
    const warnings = catchMessages('showWarningMessage');
    const side = join(`${folder()}.worktrees`, 'side');
    try {
      const made = await vscode.commands.executeCommand('acp.newWorktreeSession', {
        folder: folder(),
        branch: 'restricted',
        base: 'main',
        agentId,
        setup: false,
      });
      assert.equal(made, undefined);
      const args = { agentId, sessionId: 'any', cwd: folder(), branch: 'restricted-fork' };
      assert.equal(await vscode.commands.executeCommand('acp.forkIntoWorktree', args), undefined);
      assert.equal(await vscode.commands.executeCommand('acp.reviewWorktree', side), undefined);
      assert.equal(await vscode.commands.executeCommand('acp.mergeWorktree', side, 'merge'), undefined);
      assert.equal(await vscode.commands.executeCommand('acp.discardWorktree', side), false);
    } finally {
      warnings.restore();
      a.setConfirm(async () => false);
    }
    assert.equal(warnings.shown.length, 5, warnings.shown.join('\n'));
    for (const w of warnings.shown) assert.match(w, /Restricted Mode.*: trust the folder first\.$/);
    assert.ok(!existsSync(join(`${folder()}.worktrees`, 'restricted')), 'no worktree was made');
    assert.ok(existsSync(side), 'nothing was discarded');
    assert.equal(asked, 0, 'no agent was asked for');
    assert.deepEqual(agentStarts(), []);
    assert.deepEqual(ran(), [], 'no hook, filter or fsmonitor ran');
    assert.deepEqual([...opened()], [], 'no git opened a repository');
  });

  it('lists the worktree once the folder is trusted, with no fsmonitor run and the archive never opened', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.trust.manage');
    askDriver('trustWorkspace');
    await waitFor('the workspace trusted', () => vscode.workspace.isTrusted, 30_000);
    // Without Refresh: trusting reads the worktrees.
    const row = await waitFor(
      'the worktree row',
      () =>
        a.tree
          .getChildren()
          .find((n): n is WorktreeNode => n.type === 'worktree' && n.row.info.branch === 'side' && !!n.row.summary),
      30_000,
    );
    assert.equal(a.tree.getTreeItem(row).description, '1 file changed');
    const programs = ran();
    for (const p of ['archive-fsmonitor', 'fsmonitor', 'smudge', 'post-checkout'])
      assert.ok(!programs.includes(p), `${p} did not run: ${programs.join(', ')}`);
    const seen = opened();
    assert.ok(seen.has(folder()), `git opened the folder's repository: ${[...seen].join(', ')}`);
    assert.ok(!seen.has(archive()), 'and never the archive’s');
  });
});
