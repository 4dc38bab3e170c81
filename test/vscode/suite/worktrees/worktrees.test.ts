// Worktree sessions in a real extension host with the reference agent: two sessions in two
// worktrees of one folder, their changes kept apart, listed under the folder; one reviewed and
// merged into the base, the other discarded after the user was told what it loses.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ChangeResource } from '../../../../src/ui/checkpoints/changesEditor';
import type { TreeNode, WorktreeNode } from '../../../../src/ui/sessionsView/treeNodes';
import type { Created, MergeResult } from '../../../../src/worktrees/worktrees';
import { suiteContext } from '../../../host/suiteContext';
import { api, catchMessages, labels } from '../../support';
import { waitFor } from '../../../support/wait';

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('Sessions in worktrees', function () {
  this.timeout(180_000);
  const folder = () => suiteContext().folders[0]!;

  before(() => {
    git(folder(), ['init', '-q', '-b', 'main']);
    // The identity a merge commit needs, as a user's repository has it.
    git(folder(), ['config', 'user.name', 'Test']);
    git(folder(), ['config', 'user.email', 'test@example.com']);
    writeFileSync(join(folder(), 'shared.txt'), 'base\n');
    git(folder(), ['add', '-A']);
    git(folder(), ['commit', '-qm', 'base']);
  });

  afterEach(async () => {
    const a = await api();
    for (const chat of a.chats.all) chat.panel.dispose();
    await waitFor('no chats', () => a.chats.all.length === 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('keeps two sessions apart in two worktrees, merges one and discards the other', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const info = catchMessages('showInformationMessage');
    const created: Created[] = [];
    try {
      for (const branch of ['one', 'two']) {
        const made = await vscode.commands.executeCommand<Created>('acp.newWorktreeSession', {
          folder: folder(),
          branch,
          agentId,
          base: 'main',
          setup: false,
        });
        assert.ok(made, `the worktree ${branch} was created`);
        assert.equal(made.path, join(`${folder()}.worktrees`, branch));
        created.push(made);
      }
      const [one, two] = created as [Created, Created];
      for (const made of created) {
        const chat = await waitFor('its chat', () => a.chats.all.find((c) => c.session.target.cwd === made.path));
        assert.deepEqual(chat.session.target.additionalDirectories ?? [], [], 'no other root than the worktree');
        await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
        const go = join(made.path, '..', `go-${made.branch}`);
        const turn = chat.session.prompt(`disk write ${join(made.path, `${made.branch}.txt`)} wait for ${go}`);
        // The worktree's row says its session is running, while it runs.
        await waitFor('the row to say running', () => {
          const node = a.tree.getChildren().find((n) => n.type === 'worktree' && n.path === made.path);
          return node && String(a.tree.getTreeItem(node).description).startsWith('running') ? node : undefined;
        });
        writeFileSync(go, '');
        await turn;
      }
      assert.ok(existsSync(join(one.path, 'one.txt')) && !existsSync(join(one.path, 'two.txt')));
      assert.ok(existsSync(join(two.path, 'two.txt')) && !existsSync(join(two.path, 'one.txt')));
      assert.ok(
        !existsSync(join(folder(), 'one.txt')) && !existsSync(join(folder(), 'two.txt')),
        'the folder untouched',
      );

      // Listed under the folder: branch, changed files (read again when each turn ended), and
      // each worktree's own session.
      const rows = await waitFor('the worktree rows', () => {
        const nodes = a.tree.getChildren().filter((n): n is WorktreeNode => n.type === 'worktree');
        return nodes.length === 2 && nodes.every((n) => n.row.summary?.changed === 1) ? nodes : undefined;
      });
      assert.deepEqual(labels(a, rows), ['one', 'two']);
      // A chat whose turn ended while hidden adds "finished" in front.
      for (const n of rows) assert.match(String(a.tree.getTreeItem(n).description), /^(finished · )?1 file changed$/);
      for (const node of rows) {
        const sessions = await waitFor('the worktree’s sessions', () => {
          const children: TreeNode[] = a.tree.getChildren(node);
          const found = children.filter((c) => c.type === 'session');
          return found.length > 0 ? found : undefined;
        });
        assert.equal(sessions.length, 1, `one session in ${node.row.info.branch}`);
        assert.equal(a.tree.getParent(sessions[0]!), node);
      }

      // Resume Session lists them too, each row naming its worktree's branch.
      void vscode.commands.executeCommand('acp.resumeSession');
      const pick = await waitFor('the QuickPick', () => a.currentPick());
      const branches = await waitFor('both worktrees’ sessions', () => {
        const named = pick.quickPick.items
          .map((i) => /worktree (\S+)$/.exec(i.description ?? '')?.[1])
          .filter((b): b is string => b !== undefined)
          .sort();
        return named.length === 2 ? named : undefined;
      });
      assert.deepEqual(branches, ['one', 'two']);
      pick.quickPick.hide();

      // Review one: the multi-file diff editor on exactly its file.
      const resources = (await vscode.commands.executeCommand<ChangeResource[]>('acp.reviewWorktree', rows[0]))!;
      assert.deepEqual(
        resources.map(([file, before, after]) => [file.fsPath, before, after?.fsPath]),
        [[join(one.path, 'one.txt'), undefined, join(one.path, 'one.txt')]],
      );

      // Merge one: its uncommitted work is committed only because the user agreed.
      const asked: string[] = [];
      a.setConfirm(async (message, action) => {
        asked.push(`${action}: ${message}`);
        return true;
      });
      const merged = await vscode.commands.executeCommand<MergeResult>('acp.mergeWorktree', rows[0], 'merge');
      assert.deepEqual(merged, { kind: 'merged', into: folder() });
      assert.match(asked[0]!, /^Commit and Merge: one has 1 uncommitted change/);
      assert.match(readFileSync(join(folder(), 'one.txt'), 'utf8'), /written to disk by acp-reference-agent/);
      assert.ok(!existsSync(join(folder(), 'two.txt')), 'two is not merged');

      // Discard two: the modal lists what is lost first, an ignored file too.
      writeFileSync(join(folder(), '.git', 'info', 'exclude'), '.env\n');
      writeFileSync(join(two.path, '.env'), 'SECRET=only here\n');
      let detail = '';
      a.setConfirm(async (_message, _action, d) => {
        detail = d ?? '';
        return true;
      });
      assert.equal(await vscode.commands.executeCommand('acp.discardWorktree', rows[1]), true);
      assert.match(
        detail,
        /This is lost \(1 uncommitted file, 1 ignored file or folder\):\nuncommitted: two\.txt\nignored by git: \.env$/,
      );
      assert.ok(!existsSync(two.path));
      assert.equal(git(folder(), ['branch', '--list', 'two']), '');
      await waitFor('two gone from the view', () => {
        const left = a.tree.getChildren().filter((n) => n.type === 'worktree');
        return labels(a, left).join() === 'one' || undefined;
      });
    } finally {
      info.restore();
      a.setConfirm(async () => false);
    }
  });

  it('serves a commit’s file by its object id only: an address whose rev is an option writes nothing', async () => {
    await api();
    const around = dirname(folder());
    const at = (rev: string) =>
      vscode.Uri.file(join(folder(), 'shared.txt')).with({
        scheme: 'acp-worktree',
        query: new URLSearchParams({ cwd: folder(), rev, rel: 'shared.txt' }).toString(),
      });
    const bad = await vscode.workspace.openTextDocument(at(`--output=${join(around, 'written')}`));
    assert.equal(bad.getText(), '');
    assert.deepEqual(
      readdirSync(around).filter((f) => f.startsWith('written')),
      [],
      'no file written',
    );
    const first = git(folder(), ['rev-list', '--max-parents=0', 'HEAD']).trim();
    assert.equal((await vscode.workspace.openTextDocument(at(first))).getText(), 'base\n');
  });
});
