import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { agentStarts } from '../../../host/suiteContext';
import { api, offered, welcomes } from '../../support';

// acp.agents is empty: the view's welcome offers Add Agent, and no agent action is offered.
describe('No agent configured', function () {
  this.timeout(60_000);

  it('sets acp.noAgents, so the view shows the "Add Agent" welcome and nothing else', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    assert.equal(a.contextKey('acp.noAgents'), true);
    assert.deepEqual(a.tree.getChildren(), [], 'an empty tree, so the welcome content shows');
    const shown = welcomes({
      'acp.noAgents': true,
      'acp.agentsIgnored': a.contextKey('acp.agentsIgnored') as boolean,
      'acp.cannotList': a.contextKey('acp.cannotList') as boolean,
      workspaceFolderCount: 1,
      workbenchState: 'folder',
    });
    assert.equal(shown.length, 1);
    assert.match(shown[0]!, /No ACP agent is set up yet[\s\S]*\[Add Agent\]\(command:acp\.addAgent\)/);
    assert.deepEqual(agentStarts(), []);
  });

  it('offers no agent action in the title bar or the palette, only Add Agent', async () => {
    const a = await api();
    const context = {
      view: 'acp.sessions',
      'acp.noAgents': a.contextKey('acp.noAgents') as boolean,
      'acp.canLogout': a.contextKey('acp.canLogout') as boolean,
      'acp.canSignIn': a.contextKey('acp.canSignIn') as boolean,
      'acp.hasChat': a.contextKey('acp.hasChat') as boolean,
    };
    assert.equal(context['acp.canLogout'], false);
    const title = offered('view/title', context);
    assert.ok(title.includes('acp.addAgent'));
    for (const command of [
      'acp.restartAgent',
      'acp.stopAgent',
      'acp.setAgentSecret',
      'acp.signOut',
      'acp.newSession',
      'acp.resumeSession',
      'acp.refreshSessions',
      'acp.library.indexFolder',
      'acp.showArchivedSessions',
      'acp.showHiddenSessions',
    ]) {
      assert.ok(!title.includes(command), `${command} is not offered with no agent`);
    }
    assert.ok(title.includes('acp.agentMenu'), 'Manage Agents… (with Add Agent) stays');
    // The palette lists every contributed command unless a commandPalette entry hides it.
    const palette = (
      vscode.extensions.getExtension('acp-tools.acp-client')!.packageJSON as {
        contributes: { menus: { commandPalette: { command: string }[] } };
      }
    ).contributes.menus.commandPalette;
    const shownInPalette = new Set(offered('commandPalette', context));
    for (const command of [
      'acp.restartAgent',
      'acp.stopAgent',
      'acp.signOut',
      'acp.signIn',
      'acp.newSession',
      'acp.resumeSession',
      'acp.continueLastSession',
      'acp.refreshSessions',
      'acp.editAgent',
      'acp.removeAgent',
      'acp.setAgentSecret',
      'acp.focusChatInput',
      'acp.library.indexFolder',
      'acp.renameSession',
      'acp.resetSessionName',
      'acp.archiveSession',
      'acp.unarchiveSession',
      'acp.showArchivedSessions',
      'acp.showHiddenSessions',
      'acp.forkSession',
      'acp.exportMarkdown',
      'acp.reloadHistory',
    ]) {
      assert.ok(
        palette.some((p) => p.command === command) && !shownInPalette.has(command),
        `${command} is hidden from the palette`,
      );
    }
  });
});
