import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SessionNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, moveTo, offered, welcomes } from '../../support';
import { waitFor } from '../../../support/wait';

// The agent withholds session/delete (--no-delete) and has no sign-in (so no auth.logout); the
// folder starts with no session at all.
describe('An agent with fewer capabilities, in a folder with no sessions', function () {
  this.timeout(60_000);

  it('says the folder has no sessions yet, in the view and in Resume Session, and Enter starts one', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    // One folder, one agent, no session: the welcome view (in full, with New Session), no cut-off row.
    await waitFor('the welcome view', () => a.contextKey('acp.emptyFolder') === true);
    await waitFor('no rows', () => a.tree.getChildren().length === 0);
    const welcome = welcomes({ 'acp.emptyFolder': true, 'acp.noAgents': false, workspaceFolderCount: 1 }).join('\n');
    assert.match(welcome, /No sessions in this folder yet/);
    assert.match(welcome, /\[New Session\]\(command:acp\.newSession\)/);

    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const rows = pick.quickPick.items;
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.label, 'No sessions in project yet — New Session');
    assert.equal(rows[0]!.alwaysShow, true);
    await moveTo(pick.quickPick, rows[0]!);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const chat = await waitFor('a new session', () => a.chats.all.find((c) => c.session.sessionId));
    await waitFor('its row instead of the welcome view', () => a.tree.getChildren().some((n) => n.type === 'session'));
    assert.equal(a.contextKey('acp.emptyFolder'), false);
    chat.panel.dispose();
  });

  it('offers no Delete without session/delete, and no Sign Out without auth.logout', async () => {
    const a = await api();
    await vscode.commands.executeCommand('acp.refreshSessions');
    const row = await waitFor('a session row', () =>
      a.tree.getChildren().find((n): n is SessionNode => n.type === 'session'),
    );
    const host = a.agents.all[0]!;
    assert.equal(host.connection?.features.delete, false);
    const item = a.tree.getTreeItem(row);
    assert.doesNotMatch(String(item.contextValue), /delete/);
    const actions = offered('view/item/context', { view: 'acp.sessions', viewItem: item.contextValue });
    assert.ok(actions.includes('acp.openSession') && actions.includes('acp.copySessionId'), actions.join(', '));
    assert.ok(!actions.includes('acp.deleteSession'), 'Delete is not offered');

    assert.equal(host.connection?.features.logout, false);
    assert.equal(a.contextKey('acp.canLogout'), false);
    assert.equal(a.contextKey('acp.noAgents'), false);
    const title = offered('view/title', { view: 'acp.sessions', 'acp.noAgents': false, 'acp.canLogout': false });
    assert.ok(
      title.includes('acp.restartAgent') && title.includes('acp.stopAgent'),
      'agent actions are offered with an agent',
    );
    assert.ok(!title.includes('acp.signOut'), 'Sign Out is not offered');
  });
});
