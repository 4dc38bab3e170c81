// An agent that does not advertise `session/fork`: neither Fork into Worktree nor Fork From Here
// is offered, and run anyway they say why, making no worktree and sending no fork.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suiteContext } from '../../../host/suiteContext';
import { api, catchMessages, loadedRoot } from '../../support';
import { waitFor } from '../../../support/wait';

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('Forks into worktrees with an agent that cannot fork', function () {
  this.timeout(120_000);
  const folder = () => suiteContext().folders[0]!;

  before(() => {
    git(folder(), ['init', '-q', '-b', 'main']);
    git(folder(), ['config', 'user.name', 'Test']);
    git(folder(), ['config', 'user.email', 'test@example.com']);
    writeFileSync(join(folder(), 'shared.txt'), 'base\n');
    git(folder(), ['add', '-A']);
    git(folder(), ['commit', '-qm', 'base']);
  });

  it('offers no fork, and says why when asked for one anyway', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const row = await waitFor('a session row', async () => (await loadedRoot(a)).find((n) => n.type === 'session'));
    assert.doesNotMatch(a.tree.getTreeItem(row).contextValue ?? '', /\.fork\b/, 'not in the row’s menu');
    assert.equal(a.contextKey('acp.canFork'), false, 'not in the chat’s title bar nor the palette');
    const chat = (await a.chats.open({ agentId, cwd: folder(), additionalDirectories: [] }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
    await chat.session.prompt('hello');
    assert.equal(chat.session.capabilities().canFork, false, 'no Fork From Here on the messages');

    a.setConfirm(async () => true);
    const warnings = catchMessages('showWarningMessage');
    try {
      const args = { branch: 'never' };
      assert.equal(await vscode.commands.executeCommand('acp.forkIntoWorktree', row, args), undefined);
      const sessionId = chat.session.sessionId;
      assert.equal(await vscode.commands.executeCommand('acp.forkFromHere', agentId, sessionId, 0), undefined);
    } finally {
      warnings.restore();
      a.setConfirm(async () => false);
    }
    assert.equal(warnings.shown.length, 2);
    for (const w of warnings.shown) assert.match(w, /cannot fork sessions \(it does not advertise session\/fork\)/);
    assert.ok(!existsSync(`${folder()}.worktrees`), 'no worktree was made');
    const record = suiteContext().recordFile!;
    assert.doesNotMatch(readFileSync(record, 'utf8'), /"session\/fork"/);
  });
});
