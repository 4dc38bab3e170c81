import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { agentStarts } from '../../../host/suiteContext';
import { api, welcomes } from '../../support';

// A multi-root workspace (.code-workspace) with no folder in it: the workbench state is
// "workspace", not "empty", yet there is no folder to list sessions for.
describe('A workspace with no folder', function () {
  this.timeout(60_000);

  it('shows the "Open a folder" welcome and starts no agent', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    assert.ok(vscode.workspace.workspaceFile, 'a multi-root workspace is open');
    const count = vscode.workspace.workspaceFolders?.length ?? 0;
    assert.equal(count, 0);
    assert.equal(a.contextKey('acp.noAgents'), false, 'an agent is configured');
    assert.deepEqual(a.tree.getChildren(), []);
    // The context the workbench evaluates the welcome clauses in, for this window.
    const shown = welcomes({
      'acp.noAgents': false,
      'acp.cannotList': a.contextKey('acp.cannotList') as boolean | undefined,
      workspaceFolderCount: count,
      workbenchState: vscode.workspace.workspaceFile ? 'workspace' : count > 0 ? 'folder' : 'empty',
    });
    assert.equal(shown.length, 1, shown.join('\n---\n'));
    assert.match(shown[0]!, /Open a folder to see its agent sessions/);
    // Every start goes through an agent's host, which says "starting" at once: none was asked.
    assert.ok(
      a.agents.all.every((h) => h.state.kind === 'stopped'),
      a.agents.all.map((h) => h.state.kind).join(),
    );
    assert.deepEqual(agentStarts(), []);
  });
});
