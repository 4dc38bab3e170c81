import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StateNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, labels, offered } from '../../support';
import { waitFor } from '../../../support/wait';

// acp.agents names a program that does not exist: the agent can never start.
describe('An agent whose command cannot be started', function () {
  this.timeout(60_000);

  it('says why on its row, with Restart, Show Log and Open Agent Settings', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const row = await waitFor('the start failure row', () => {
      const nodes = a.tree.getChildren();
      return nodes.find((n): n is StateNode => n.type === 'state' && n.kind === 'startFailed');
    });
    const states = a.tree.getChildren().filter((n) => n.type === 'state');
    assert.equal(states.length, 1, `one row says it, no second error row: ${labels(a, states).join(' | ')}`);
    const item = a.tree.getTreeItem(row);
    assert.equal(item.label, 'Broken Agent could not be started');
    assert.equal(
      item.description,
      'the command "/nonexistent/acp-agent-for-tests" was not found. Check "acp.agents" in your settings.',
    );
    assert.match(
      String(item.tooltip),
      /Broken Agent could not be started: the command "\/nonexistent\/acp-agent-for-tests" was not found/,
    );
    assert.equal(item.command?.command, 'acp.restartAgent');
    const actions = offered('view/item/context', { view: 'acp.sessions', viewItem: item.contextValue });
    for (const command of ['acp.restartAgent', 'acp.showLog', 'acp.openAgentSettings'])
      assert.ok(actions.includes(command), `${command} is offered on the row: ${actions.join(', ')}`);
    assert.ok(!actions.includes('acp.retryList'));
    // The reason in full above the rows, where it wraps, not only in a row cut at the view's width.
    assert.equal(
      a.tree.problems.message,
      'Broken Agent could not be started: the command "/nonexistent/acp-agent-for-tests" was not found. Check "acp.agents" in your settings.',
    );
  });

  it('says "failed to start", not "stopped", for an agent that never ran', async () => {
    const a = await api();
    await waitFor('the status bar', () => a.statusBar.text === '$(error) ACP: 1 failed to start');
  });

  it("the row's Open Agent Settings opens the Remote settings file at the agent's entry", async () => {
    const a = await api();
    const row = a.tree.getChildren().find((n): n is StateNode => n.type === 'state' && n.kind === 'startFailed')!;
    await vscode.commands.executeCommand('acp.openAgentSettings', row);
    // code-server is a remote window: acp.agents is read from the Remote (machine) settings.
    const editor = await waitFor('the Remote settings file', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.path.endsWith('/Machine/settings.json') ? e : undefined;
    });
    const line = editor.document.lineAt(editor.selection.active.line).text;
    const entry = editor.document.getText(
      new vscode.Range(editor.selection.active, editor.document.positionAt(editor.document.getText().length)),
    );
    assert.match(line + entry.slice(0, 200), /"id": "broken"/, 'the cursor is at the broken entry');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
