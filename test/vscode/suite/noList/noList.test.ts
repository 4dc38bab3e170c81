import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, moveTo, welcomes } from '../../support';
import { waitFor } from '../../../support/wait';

describe('An agent that cannot list sessions', function () {
  this.timeout(60_000);

  it('does not ask the agent for a list, shows the welcome view instead, and still starts a new session', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    a.tree.getChildren();
    const host = a.agents.all[0]!;
    const c = await host.connect();
    assert.equal(c.features.list, false);
    await waitFor('the tree to settle on the welcome view', () => {
      const children = a.tree.getChildren();
      const list = a.lists.all()[0];
      return children.length === 0 && list?.state === 'error' ? true : undefined;
    });
    assert.equal((a.lists.all()[0]!.error as Error).name, 'CannotList', 'refused before any request');
    await waitFor('acp.cannotList', () => a.contextKey('acp.cannotList') === true);
    const shown = welcomes({
      'acp.noAgents': false,
      'acp.cannotList': true,
      workspaceFolderCount: 1,
      workbenchState: 'folder',
    });
    assert.equal(shown.length, 1);
    assert.match(shown[0]!, /This agent cannot list sessions[\s\S]*\[New Session\]\(command:acp\.newSession\)/);
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const chat = await a.chats.open({ agentId: host.config.id, cwd }, 'new');
    await waitFor('a new session', () => chat!.session.sessionId);
    chat!.panel.dispose();
  });

  it('says so in Resume Session too, offering New Session instead of a retry', async () => {
    const a = await api();
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const rows = pick.quickPick.items;
    // First; below it only the session the first test created in this window.
    assert.equal(rows[0]!.label, '$(info) This agent cannot list sessions — New Session');
    assert.equal(rows[0]!.action, 'new');
    assert.ok(
      !rows.some((r) => r.action === 'retry' || r.label.startsWith('$(error)')),
      rows.map((r) => r.label).join(' | '),
    );
    await moveTo(pick.quickPick, rows[0]!);
    const before = a.chats.all.length;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const chat = await waitFor('a new session', () =>
      a.chats.all.length > before && a.chats.all.at(-1)!.session.sessionId ? a.chats.all.at(-1) : undefined,
    );
    chat.panel.dispose();
  });
});
