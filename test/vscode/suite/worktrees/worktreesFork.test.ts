// Forks into worktrees in a real extension host with the reference agent (which forks):
// Fork into Worktree carries the folder's uncommitted changes; Fork From Here starts from the
// files of before a message; the agent is sent `session/fork` with the worktree as cwd and the
// fork's chat opens. Bad input: a branch that exists or is invalid, a worktree folder in the
// way, a folder that is not a repository (Fork From Here then offers a fork in place).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import type { Forked } from '../../../../src/ui/worktrees/forkCommands';
import type { WorktreeNode } from '../../../../src/ui/sessionsView/treeNodes';
import { suiteContext } from '../../../host/suiteContext';
import { api, catchMessages, promptAfterCheckpoints } from '../../support';
import { waitFor } from '../../../support/wait';

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** What the agent received, from its --record file. */
function received(method: string): { sessionId: string; cwd: string }[] {
  const file = suiteContext().recordFile ?? '';
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; params: { sessionId: string; cwd: string } })
    .filter((m) => m.method === method)
    .map((m) => m.params);
}

async function newChat(a: AcpTestApi, cwd: string) {
  const chat = (await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd, additionalDirectories: [] }, 'new'))!;
  await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
  return chat;
}

describe('Forks into worktrees', function () {
  this.timeout(180_000);
  const folder = () => suiteContext().folders[0]!;
  const worktree = (branch: string) => join(`${folder()}.worktrees`, branch);
  const made: string[] = [];

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
  });

  after(() => {
    // The folder as the suite's other tests expect it: no changes, no worktree of ours.
    for (const p of made) git(folder(), ['worktree', 'remove', '--force', p]);
    git(folder(), ['checkout', '--', '.']);
    git(folder(), ['clean', '-fdq']);
  });

  it('forks a session into a worktree with the folder’s uncommitted changes, and opens the fork', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    assert.equal(a.agents.all[0]!.connection?.features.fork ?? true, true);
    const source = await newChat(a, folder());
    assert.equal(source.session.capabilities().canFork, true, 'each message offers Fork From Here');
    await source.session.prompt('Fix the login bug');
    const sessionId = source.session.sessionId!;
    writeFileSync(join(folder(), 'shared.txt'), 'changed, not committed\n');
    writeFileSync(join(folder(), 'untracked é.txt'), 'new\n');

    let asked = '';
    a.setConfirm(async (message, action, detail) => {
      asked = `${action}: ${message}\n${detail ?? ''}`;
      return true;
    });
    const forks = received('session/fork').length;
    const forked = await vscode.commands.executeCommand<Forked>('acp.forkIntoWorktree', {
      agentId,
      sessionId,
      cwd: folder(),
      branch: 'fork-now',
    });
    assert.ok(forked, 'forked');
    made.push(worktree('fork-now'));
    assert.match(asked, /^Fork: Fork the session into a new worktree on fork-now\?/);
    assert.match(asked, /2 uncommitted changes are copied into it .*The folder keeps them too/);
    assert.equal(realpathSync(forked.cwd), realpathSync(worktree('fork-now')));
    assert.deepEqual(received('session/fork').slice(forks), [{ sessionId, cwd: forked.cwd, mcpServers: [] }]);
    // The changes are in the worktree, and still in the folder.
    for (const root of [forked.cwd, folder()]) {
      assert.equal(readFileSync(join(root, 'shared.txt'), 'utf8'), 'changed, not committed\n');
      assert.equal(readFileSync(join(root, 'untracked é.txt'), 'utf8'), 'new\n');
    }
    // The fork's chat opens in the worktree with the source's history.
    const chat = await waitFor('the fork’s chat', () => a.chats.get(agentId, forked.sessionId));
    assert.equal(chat.session.target.cwd, forked.cwd);
    await waitFor('its history', () =>
      chat.session.thread.entries.some((e) => e.type === 'user' && e.text === 'Fix the login bug'),
    );
    // Listed under the folder with its branch.
    await waitFor('the worktree row', () =>
      a.tree.getChildren().find((n): n is WorktreeNode => n.type === 'worktree' && n.row.info.branch === 'fork-now'),
    );
  });

  it('forks from a message into a worktree with the files of before it, saying what the agent remembers', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const source = await newChat(a, folder());
    await promptAfterCheckpoints(source, `disk write ${join(folder(), 'first.txt')}`);
    await promptAfterCheckpoints(source, `disk write ${join(folder(), 'second.txt')}`);
    await a.checkpoints.settled();
    const users = source.session.thread.entries.flatMap((e, i) => (e.type === 'user' ? [i] : []));
    const second = users[1]!;

    let asked = '';
    a.setConfirm(async (message, action, detail) => {
      asked = `${action}: ${message}\n${detail ?? ''}`;
      return true;
    });
    const forks = received('session/fork').length;
    const forked = await vscode.commands.executeCommand<Forked>(
      'acp.forkFromHere',
      agentId,
      source.session.sessionId,
      second,
      { branch: 'fork-here' },
    );
    assert.ok(forked, 'forked');
    made.push(worktree('fork-here'));
    assert.match(asked, /^Fork: Fork the conversation from this message into a worktree on fork-here\?/);
    assert.match(asked, /still remembers the later turns/);
    assert.deepEqual(received('session/fork').slice(forks), [
      { sessionId: source.session.sessionId, cwd: forked.cwd, mcpServers: [] },
    ]);
    assert.ok(existsSync(join(forked.cwd, 'first.txt')), 'the first turn’s file was there before the message');
    assert.ok(!existsSync(join(forked.cwd, 'second.txt')), 'the second turn’s file was not');
    assert.ok(existsSync(join(folder(), 'second.txt')), 'the folder keeps its files');
    const chat = await waitFor('the fork’s chat', () => a.chats.get(agentId, forked.sessionId));
    assert.equal(chat.session.target.cwd, forked.cwd);
  });

  it('refuses a branch that exists or is invalid, and a worktree folder in the way, forking nothing', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const source = await newChat(a, folder());
    await source.session.prompt('hello');
    a.setConfirm(async () => true);
    mkdirSync(worktree('taken'), { recursive: true });
    git(folder(), ['branch', 'exists']);
    const errors = catchMessages('showErrorMessage');
    const forks = received('session/fork').length;
    try {
      for (const branch of ['exists', 'bad..name', 'taken']) {
        const args = { agentId, sessionId: source.session.sessionId, cwd: folder(), branch };
        assert.equal(await vscode.commands.executeCommand('acp.forkIntoWorktree', args), undefined);
      }
    } finally {
      errors.restore();
      rmSync(worktree('taken'), { recursive: true, force: true });
      git(folder(), ['branch', '-D', 'exists']);
    }
    assert.equal(errors.shown.length, 3, errors.shown.join('\n'));
    assert.match(errors.shown[0]!, /A branch named "exists" exists already/);
    assert.match(errors.shown[1]!, /"bad\.\.name" is not a valid branch name/);
    assert.match(errors.shown[2]!, /taken exists already: remove it or choose another branch name/);
    assert.equal(received('session/fork').length, forks, 'no fork was asked for');
  });

  it('outside a git repository: no worktree, and Fork From Here offers a fork in place', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'acp-not-a-repo-')));
    try {
      const source = await newChat(a, plain);
      await source.session.prompt('hello there');
      const sessionId = source.session.sessionId!;
      const errors = catchMessages('showErrorMessage');
      try {
        a.setConfirm(async () => true);
        const args = { agentId, sessionId, cwd: plain, branch: 'x' };
        assert.equal(await vscode.commands.executeCommand('acp.forkIntoWorktree', args), undefined);
      } finally {
        errors.restore();
      }
      assert.match(errors.shown[0] ?? '', /is not in a git repository: worktree sessions need one/);

      let asked = '';
      a.setConfirm(async (message, action, detail) => {
        asked = `${action}: ${message}\n${detail ?? ''}`;
        return true;
      });
      const forks = received('session/fork').length;
      const forked = await vscode.commands.executeCommand<Forked>('acp.forkFromHere', agentId, sessionId, 0);
      assert.match(asked, /^Fork in Place: .* is not a git repository: fork the conversation in place/);
      assert.ok(forked && forked.created === undefined);
      assert.deepEqual(received('session/fork').slice(forks), [{ sessionId, cwd: plain, mcpServers: [] }]);
      await waitFor('the fork’s chat', () => a.chats.get(agentId, forked.sessionId));
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it('says which change it did not carry because the commit holds a link on its way, writing nothing outside', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const source = await newChat(a, folder());
    await source.session.prompt('hello');
    // A link to a folder outside, committed, hidden from status, and a folder in its place.
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'acp-home-')));
    writeFileSync(join(home, '.bashrc'), 'the user’s own\n');
    symlinkSync(home, join(folder(), 'home'));
    git(folder(), ['add', 'home']);
    git(folder(), ['commit', '-qm', 'a link']);
    git(folder(), ['update-index', '--skip-worktree', 'home']);
    rmSync(join(folder(), 'home'));
    mkdirSync(join(folder(), 'home'));
    writeFileSync(join(folder(), 'home', '.bashrc'), 'written by the agent\n');
    a.setConfirm(async () => true);
    const warnings = catchMessages('showWarningMessage');
    let forked: Forked | undefined;
    try {
      forked = await vscode.commands.executeCommand<Forked>('acp.forkIntoWorktree', {
        agentId,
        sessionId: source.session.sessionId,
        cwd: folder(),
        branch: 'fork-link',
      });
    } finally {
      warnings.restore();
      git(folder(), ['update-index', '--no-skip-worktree', 'home']);
      rmSync(join(folder(), 'home'), { recursive: true, force: true });
      git(folder(), ['reset', '-q', '--hard', 'HEAD~1']);
    }
    assert.ok(forked, 'forked all the same');
    made.push(worktree('fork-link'));
    assert.equal(readFileSync(join(home, '.bashrc'), 'utf8'), 'the user’s own\n', 'nothing outside was written');
    rmSync(home, { recursive: true, force: true });
    assert.deepEqual(warnings.shown, [
      '1 uncommitted change was not copied into the worktree fork-link: home/.bashrc (home on its path is a link; it was not followed). The folder keeps it.',
    ]);
  });
});
