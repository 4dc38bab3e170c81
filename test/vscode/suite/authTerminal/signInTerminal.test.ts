import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from '../../support';
import { waitFor } from '../../../support/wait';

describe('Sign-in with a terminal command from _meta["terminal-auth"] (as Copilot CLI offers it)', function () {
  this.timeout(90_000);

  it('lists signed out; a chat asks for sign-in; acp.signIn shows the command and its environment, runs it in a terminal once allowed, restarts the agent and the chat attaches', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const rows = await waitFor('the sessions, listed without signing in', () => {
      const nodes = a.tree.getChildren();
      return nodes.filter((n) => n.type === 'session').length === 3 ? nodes : undefined;
    });
    assert.ok(!rows.some((n) => n.type === 'state' && n.kind === 'signIn'), 'no sign-in row while listing works');
    const host = a.agents.all[0]!;
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const sessionId = (await (await host.connect()).listSessions({ cwd })).sessions[0]!.sessionId;

    const chat = (await a.chats.open({ agentId: host.config.id, sessionId, cwd }, 'load'))!;
    await waitFor('the sign-in banner', () => {
      const s = chat.session.thread.status;
      return s.state === 'error' && s.signIn === true;
    });
    const pidBefore = host.connection?.pid;
    const opened: string[] = [];
    const watch = vscode.window.onDidOpenTerminal((t) => opened.push(t.name));
    const asked: string[] = [];
    try {
      // Declined: nothing runs.
      a.setConfirm(async (message, action, detail) => (asked.push(`${message}\n${action}\n${detail ?? ''}`), false));
      assert.equal(await vscode.commands.executeCommand('acp.signIn', host.config.id, 'reference-cli-login'), false);
      assert.deepEqual(opened, [], 'declined: no terminal');
      assert.equal(asked.length, 1);
      // What was shown: the agent's program with its arguments, and the environment it sets.
      assert.match(asked[0]!, /^Sign in to Reference Agent: run this command in a terminal\?\nRun in Terminal\n/);
      assert.match(asked[0]!, /Command named by Reference Agent: \S*node\S* \S+ --store \S+ --login/);
      assert.match(
        asked[0]!,
        /Environment set by Reference Agent:\n {2}NODE_OPTIONS=--no-warnings\n {2}ACP_REF_LOGIN=from the agent/,
      );
      a.setConfirm(async () => true);
      assert.equal(await vscode.commands.executeCommand('acp.signIn', host.config.id, 'reference-cli-login'), true);
    } finally {
      watch.dispose();
    }
    assert.deepEqual(opened, ['Reference Login'], 'the terminal carries the name the agent gave');
    const pidAfter = await waitFor('the restarted agent', () => host.connection?.pid);
    assert.notEqual(pidAfter, pidBefore, 'the agent was started again to read its credentials');
    await waitFor('attached after signing in', () => chat.session.capabilities().canPrompt, 30_000);
    assert.ok(
      chat.session.thread.entries.some((e) => e.type === 'user'),
      'the history was loaded',
    );
    chat.panel.dispose();
  });
});
