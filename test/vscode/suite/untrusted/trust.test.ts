import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { agentStarts } from '../../../host/suiteContext';
import { api, until } from '../../support';

describe('Restricted Mode', function () {
  this.timeout(60_000);

  it('starts no agent until the user allows it, and then lists the sessions', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the folder opened in Restricted Mode');
    const a = await api();
    let asked = 0;
    a.setTrustPrompt(async () => {
      asked++;
      return undefined;
    });
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const refused = await until('the refusal row', () => {
      const nodes = a.tree.getChildren();
      return nodes.find((n) => n.type === 'state' && n.kind === 'error');
    });
    assert.match(String(a.tree.getTreeItem(refused).label), /not trusted/);
    assert.equal(asked, 1);
    assert.deepEqual(agentStarts(), [], 'no agent process started');

    a.setTrustPrompt(async () => 'allowOnce');
    await vscode.commands.executeCommand('acp.retryList', refused);
    await until('sessions', () => a.tree.getChildren().some((n) => n.type === 'session'));
    assert.equal(agentStarts().length, 1, 'one agent process, started after consent');
  });
});
