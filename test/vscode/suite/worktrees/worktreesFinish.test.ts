// The setup a new worktree is offered (acp.worktrees.setupCommand, run in a terminal there once
// the user agrees) and a merge that conflicts (left in the base's folder, the conflicting file
// opened in VS Code's merge editor, nothing committed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WorktreeNode } from '../../../../src/ui/sessionsView/treeNodes';
import type { Created, MergeResult } from '../../../../src/worktrees/worktrees';
import { suiteContext } from '../../../host/suiteContext';
import { api, catchMessages } from '../../support';
import { waitFor } from '../../../support/wait';

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('Setting up and finishing worktrees', function () {
  this.timeout(180_000);
  const folder = () => suiteContext().folders[0]!;
  const made: Created[] = [];

  before(() => {
    if (existsSync(join(folder(), '.git'))) return;
    git(folder(), ['init', '-q', '-b', 'main']);
    git(folder(), ['config', 'user.name', 'Test']);
    git(folder(), ['config', 'user.email', 'test@example.com']);
    writeFileSync(join(folder(), 'shared.txt'), 'base\n');
    git(folder(), ['add', '-A']);
    git(folder(), ['commit', '-qm', 'base']);
  });

  afterEach(async () => {
    const a = await api();
    a.setConfirm(async () => false);
    for (const chat of a.chats.all) chat.panel.dispose();
    await waitFor('no chats', () => a.chats.all.length === 0);
    for (const t of vscode.window.terminals) t.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    for (const m of made.splice(0)) {
      git(folder(), ['worktree', 'remove', '--force', m.path]);
      git(folder(), ['branch', '-D', m.branch]);
    }
    await (await api()).tree.getChildren();
  });

  it('runs the setup command in a terminal in the new worktree once the user agrees', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const command = vscode.workspace.getConfiguration('acp.worktrees').get<string>('setupCommand');
    assert.equal(command, 'echo set up > setup-ran.txt', 'the suite sets acp.worktrees.setupCommand');
    const asked: string[] = [];
    a.setConfirm(async (message, action, detail) => {
      asked.push(`${action}: ${message} ${detail ?? ''}`);
      return true;
    });
    const created = await vscode.commands.executeCommand<Created>('acp.newWorktreeSession', {
      folder: folder(),
      branch: 'with-setup',
      agentId,
      base: 'main',
    });
    assert.ok(created);
    made.push(created);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /^Run Setup: Run "echo set up > setup-ran\.txt" in the new worktree\?/);
    assert.ok(asked[0]!.includes(created.path), 'says where');
    const terminal = vscode.window.terminals.find((t) => t.name === 'Setup: with-setup');
    assert.ok(terminal, 'a terminal named after the branch');
    const pid = await Promise.race([terminal.processId, new Promise((r) => setTimeout(r, 60_000))]);
    assert.ok(pid, `the terminal's shell started (exit: ${JSON.stringify(terminal.exitStatus)})`);
    const ran = join(created.path, 'setup-ran.txt');
    await waitFor(
      'the setup to run in the worktree',
      () => existsSync(ran) && /set up/.test(readFileSync(ran, 'utf8')),
      60_000,
    );
    assert.ok(!existsSync(join(folder(), 'setup-ran.txt')), 'not in the folder');

    // Declined: no terminal, nothing run.
    a.setConfirm(async () => false);
    const second = await vscode.commands.executeCommand<Created>('acp.newWorktreeSession', {
      folder: folder(),
      branch: 'no-setup',
      agentId,
      base: 'main',
    });
    assert.ok(second);
    made.push(second);
    assert.ok(!vscode.window.terminals.some((t) => t.name === 'Setup: no-setup'));
    assert.ok(!existsSync(join(second.path, 'setup-ran.txt')));
  });

  it('leaves a conflicting merge in the base’s folder and opens the file in the merge editor', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const created = await vscode.commands.executeCommand<Created>('acp.newWorktreeSession', {
      folder: folder(),
      branch: 'conflicting',
      agentId,
      base: 'main',
      setup: false,
    });
    assert.ok(created);
    made.push(created);
    writeFileSync(join(created.path, 'shared.txt'), 'theirs\n');
    git(created.path, ['commit', '-qam', 'theirs']);
    writeFileSync(join(folder(), 'shared.txt'), 'ours\n');
    git(folder(), ['commit', '-qam', 'ours']);
    const head = git(folder(), ['rev-parse', 'HEAD']);
    const row = await waitFor('the worktree row', async () => {
      await vscode.commands.executeCommand('acp.refreshWorktrees');
      return a.tree
        .getChildren()
        .find((n): n is WorktreeNode => n.type === 'worktree' && n.row.info.branch === 'conflicting');
    });
    const warnings = catchMessages('showWarningMessage');
    let result: MergeResult | undefined;
    try {
      result = await vscode.commands.executeCommand<MergeResult>('acp.mergeWorktree', row, 'merge');
    } finally {
      warnings.restore();
    }
    const shared = join(folder(), 'shared.txt');
    assert.deepEqual(result, { kind: 'conflicts', into: folder(), conflicts: [shared] });
    assert.match(warnings.shown[0] ?? '', /stopped at 1 conflicting file: resolve it \(Resolve in Merge Editor\)/);
    // Nothing committed: the merge waits in the folder, markers in the file.
    assert.equal(git(folder(), ['rev-parse', 'HEAD']), head);
    assert.ok(existsSync(join(folder(), '.git', 'MERGE_HEAD')));
    assert.match(readFileSync(shared, 'utf8'), /^<<<<<<< /m);
    // VS Code's merge editor, on that file.
    // (The merge editor's tab input, TabInputTextMerge, is newer than the API typings here.)
    const merge = await waitFor('the merge editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input as
        { base?: vscode.Uri; input1?: vscode.Uri; input2?: vscode.Uri; result?: vscode.Uri } | undefined;
      return input?.base && input.input1 && input.input2 && input.result ? { result: input.result } : undefined;
    });
    assert.equal(merge.result.fsPath, shared);
    git(folder(), ['merge', '--abort']);
    git(folder(), ['reset', '-q', '--hard', 'HEAD~1']);
  });
});
