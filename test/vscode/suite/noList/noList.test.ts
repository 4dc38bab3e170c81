import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, until, welcomes } from '../../support';

describe('An agent that cannot list sessions', function () {
  this.timeout(60_000);

  it('does not ask the agent for a list, shows the welcome view instead, and still starts a new session', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    a.tree.getChildren();
    const host = a.agents.all[0]!;
    const c = await host.connect();
    assert.equal(c.features.list, false);
    await until('the tree to settle on the welcome view', () => {
      const children = a.tree.getChildren();
      const list = a.lists.all()[0];
      return children.length === 0 && list?.state === 'error' ? true : undefined;
    });
    assert.equal((a.lists.all()[0]!.error as Error).name, 'CannotList', 'refused before any request');
    await until('acp.cannotList', () => a.contextKey('acp.cannotList') === true);
    const shown = welcomes({ 'acp.noAgents': false, 'acp.cannotList': true, workspaceFolderCount: 1, workbenchState: 'folder' });
    assert.equal(shown.length, 1);
    assert.match(shown[0]!, /This agent cannot list sessions[\s\S]*\[New Session\]\(command:acp\.newSession\)/);
    const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const chat = await a.chats.open({ agentId: host.config.id, cwd }, 'new');
    await until('a new session', () => chat!.session.sessionId);
    chat!.panel.dispose();
  });

});
