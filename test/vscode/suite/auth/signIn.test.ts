import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StateNode, TreeNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, askDriver, labels, offered } from '../../support';
import { waitFor } from '../../../support/wait';

const signInRow = (nodes: TreeNode[]) => nodes.find((n): n is StateNode => n.type === 'state' && n.kind === 'signIn');

describe('Sign-in (an agent that needs authenticate)', function () {
  this.timeout(90_000);

  it('shows "Sign in to …" in the tree and the status bar; acp.signIn with the method makes the sessions appear', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const row = await waitFor('the sign-in row', () => signInRow(a.tree.getChildren()));
    assert.equal(labels(a, [row])[0], 'Sign in to Reference Agent');
    const item = a.tree.getTreeItem(row);
    assert.equal(item.command?.command, 'acp.signIn');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'account');
    const host = a.agents.all[0]!;
    await waitFor('needs sign-in', () => host.needsSignIn);
    assert.equal(a.statusBar.text, '$(account) ACP: sign in to Reference Agent');
    assert.equal(a.contextKey('acp.canLogout'), false, 'nothing to sign out of yet');

    const ok = await vscode.commands.executeCommand('acp.signIn', row, 'reference-login');
    assert.equal(ok, true);
    const sessions = await waitFor('the sessions', () => {
      const nodes = a.tree.getChildren();
      return nodes.filter((n) => n.type === 'session').length === 5 ? nodes : undefined;
    });
    assert.equal(signInRow(sessions), undefined);
    assert.equal(host.needsSignIn, false);
    await waitFor('the status bar says ready', () => a.statusBar.text === '$(hubot) ACP: 1 ready');
    // The agent advertises auth.logout: once signed in, Sign Out is offered.
    assert.equal(host.connection?.features.logout, true);
    await waitFor('acp.canLogout', () => a.contextKey('acp.canLogout') === true);
    assert.equal(a.contextKey('acp.canSignIn'), true, 'it has ways to sign in, so Sign In is in the palette');
    const context = { view: 'acp.sessions', 'acp.noAgents': false, 'acp.canLogout': true };
    assert.ok(offered('view/title', context).includes('acp.signOut'));
    assert.ok(offered('commandPalette', context).includes('acp.signOut'));
  });

  it('after Sign Out, the QuickPick offers "Sign in to …" instead of an error, and the method is chosen in a QuickPick', async () => {
    const a = await api();
    const host = a.agents.all[0]!;
    await vscode.commands.executeCommand('acp.signOut', host.config.id);
    await waitFor('the sign-in row again', () => signInRow(a.tree.getChildren()));
    assert.equal(a.contextKey('acp.canLogout'), false, 'signed out: no Sign Out');

    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    const offer = await waitFor('the sign-in item', () => pick.quickPick.items.find((i) => i.action === 'signIn'));
    assert.equal(offer.label, '$(account) Sign in to Reference Agent');
    assert.ok(!pick.quickPick.items.some((i) => i.label.startsWith('$(error)')), 'no error row');
    pick.quickPick.hide();
    await waitFor('the QuickPick closed', () => a.currentPick() === undefined);

    // The method pick: one method, accepted as a user would press Enter.
    const signedIn = vscode.commands.executeCommand('acp.signIn', host.config.id);
    askDriver('chooseQuickPickRow', 0);
    assert.equal(await signedIn, true);
    await waitFor('the sessions', () => a.tree.getChildren().filter((n) => n.type === 'session').length === 5);
  });
});
