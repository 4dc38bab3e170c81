import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, loadedRoot, welcomes } from '../../support';
import { waitFor, quietFor } from '../../../support/wait';

/** `inspect()` as the extension host answers it in a remote window. */
interface Inspected {
  globalLocalValue?: unknown;
  globalRemoteValue?: unknown;
}
const remoteAgents = () =>
  (vscode.workspace.getConfiguration('acp').inspect('agents') as Inspected | undefined)?.globalRemoteValue;

// code-server is a remote window: `acp.agents` (machine scope) counts only in the Remote
// settings. This world writes it to the User settings alone, as a user following the local
// instructions would.
describe('acp.agents in the User settings of a remote window', function () {
  this.timeout(90_000);

  it('is not used, the same at every moment after the window opens', async () => {
    const a = await api();
    assert.ok(vscode.env.remoteName, 'code-server is a remote window');
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    // For the first seconds the workbench's merged value still holds the User settings' agents
    // (it drops them later without a change event): the view must not show them meanwhile.
    const end = Date.now() + 5_000;
    while (Date.now() < end) {
      assert.deepEqual(
        a.agents.all.map((h) => h.config.id),
        [],
      );
      assert.equal(a.contextKey('acp.noAgents'), true);
      await quietFor(100);
    }
  });

  it('the view says where the agents are and offers to copy them, instead of "no agent"', async () => {
    const a = await api();
    await waitFor('the ignored agents found', () => a.contextKey('acp.agentsIgnored') === true);
    const shown = welcomes({
      'acp.noAgents': true,
      'acp.agentsIgnored': true,
      workspaceFolderCount: 1,
    });
    assert.equal(shown.length, 1, shown.join('\n---\n'));
    assert.match(shown[0]!, /Your ACP agents are in your User settings, which a remote window does not read/);
    assert.match(shown[0]!, /\[Copy Agents to Remote Settings\]\(command:acp\.copyAgentsToRemote\)/);
    assert.ok(!shown[0]!.includes('No ACP agent is set up yet'));
  });

  it('"Open Agent Settings" opens the Remote settings file at acp.agents', async () => {
    await vscode.commands.executeCommand('acp.openAgentSettings');
    const editor = await waitFor('the Remote settings file', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.path.endsWith('/Machine/settings.json') ? e : undefined;
    });
    const text = editor.document.getText();
    const keyLine = editor.document.positionAt(text.indexOf('"acp.agents"')).line;
    assert.ok(keyLine >= 0, 'the file has the setting');
    const cursor = editor.selection.active.line;
    assert.ok(
      cursor >= keyLine && cursor <= keyLine + 2,
      `the cursor (line ${cursor}) is at acp.agents (line ${keyLine})`,
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('"Copy Agents to Remote Settings" copies them, and the view follows at once', async () => {
    const a = await api();
    const copied = await vscode.commands.executeCommand<number>('acp.copyAgentsToRemote');
    assert.equal(copied, 1);
    await waitFor('the agent in use', () => a.agents.all.length === 1);
    assert.deepEqual(
      (remoteAgents() as { id: string }[]).map((e) => e.id),
      ['reference'],
    );
    assert.equal(a.contextKey('acp.noAgents'), false);
    const rows = await loadedRoot(a);
    assert.equal(rows.filter((n) => n.type === 'session').length, 3);
  });
});
