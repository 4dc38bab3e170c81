// An agent that reads its key from the environment and says so with an `env_var` sign-in method
// (as Codex does for OPENAI_API_KEY): the user gives the key once, it is kept in VS Code's secret
// storage (never in settings), the agent restarts with it, and the sessions appear.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StateNode, TreeNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api } from '../../support';
import { waitFor } from '../../../support/wait';

const signInRow = (nodes: TreeNode[]) => nodes.find((n): n is StateNode => n.type === 'state' && n.kind === 'signIn');
const KEY = 'k-ref-2468';

describe('Sign-in with a key the agent reads from its environment (env_var method)', function () {
  this.timeout(90_000);

  it('offers the key method by name; a wrong key fails clearly and changes nothing', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await waitFor('the sign-in row', () => signInRow(a.tree.getChildren()));
    const host = a.agents.all[0]!;
    const methods = host.connection?.features.authMethods ?? [];
    assert.deepEqual(
      methods.map((m) => [m.id, (m as { type?: string }).type]),
      [['reference-api-key', 'env_var']],
    );

    const failed = await vscode.commands.executeCommand('acp.signIn', host.config.id, 'reference-api-key', {
      ACP_REF_KEY: 'not-the-key',
    });
    assert.notEqual(failed, true, 'a wrong key does not sign in');
    await waitFor('still asking to sign in', () => signInRow(a.tree.getChildren()));
  });

  it('the right key: the agent restarts with it, the sessions appear, and settings never hold it', async () => {
    const a = await api();
    const host = a.agents.all[0]!;
    const before = host.connection?.pid;
    const settingsBefore = JSON.stringify(vscode.workspace.getConfiguration('acp').get('agents'));
    const ok = await vscode.commands.executeCommand('acp.signIn', host.config.id, 'reference-api-key', {
      ACP_REF_KEY: KEY,
    });
    assert.equal(ok, true);
    assert.notEqual(host.connection?.pid, before, 'the agent started again, with the key in its environment');
    await waitFor('the sessions', () => a.tree.getChildren().filter((n) => n.type === 'session').length === 4);
    assert.equal(signInRow(a.tree.getChildren()), undefined);
    // (The reference agent's expected key is in its arguments; what matters is that sign-in wrote nothing.)
    assert.equal(
      JSON.stringify(vscode.workspace.getConfiguration('acp').get('agents')),
      settingsBefore,
      'sign-in left the settings as they were',
    );
    assert.equal(host.config.env.ACP_REF_KEY, undefined, 'the key is not in the agent entry');

    // It lasts: a restart reads the key from secret storage again.
    await vscode.commands.executeCommand('acp.restartAgent', { type: 'agent', host });
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await waitFor(
      'listed again after a restart',
      async () => (await (await host.connect()).listSessions({ cwd }).catch(() => undefined))?.sessions.length === 4,
    );
  });
});
