import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentNode, StateNode, TreeNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { agentStarts } from '../../../host/suiteContext';
import { api, askDriver } from '../../support';
import { waitFor } from '../../../support/wait';

const refusal = (nodes: TreeNode[]) => nodes.find((n): n is StateNode => n.type === 'state' && n.kind === 'error');

// Two agents in a folder opened in Restricted Mode: one is allowed once, the other waits for
// the workspace to be trusted.
describe('Restricted Mode', function () {
  this.timeout(90_000);

  const agentNodes = async () => {
    const a = await api();
    return waitFor('two agent nodes', () => {
      const nodes = a.tree.getChildren();
      return nodes.length === 2 && nodes.every((n) => n.type === 'agent') ? (nodes as AgentNode[]) : undefined;
    });
  };

  it('starts no agent until the user allows it, and then lists the sessions', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the folder opened in Restricted Mode');
    const a = await api();
    const asked: string[] = [];
    a.setTrustPrompt(async (config) => {
      asked.push(config.id);
      return undefined;
    });
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const [first, second] = await agentNodes();
    const refused = await waitFor('the refusal rows', () => {
      const rows = [refusal(a.tree.getChildren(first)), refusal(a.tree.getChildren(second))];
      return rows.every(Boolean) ? (rows as StateNode[]) : undefined;
    });
    for (const row of refused) assert.match(String(a.tree.getTreeItem(row).label), /not trusted/);
    assert.deepEqual(asked.sort(), ['reference', 'second']);
    assert.deepEqual(agentStarts(), [], 'no agent process started');

    a.setTrustPrompt(async (config) => (config.id === 'reference' ? 'allowOnce' : undefined));
    await vscode.commands.executeCommand('acp.retryList', refused[0]);
    await waitFor('sessions', () => a.tree.getChildren(first).some((n) => n.type === 'session'));
    assert.equal(agentStarts().length, 1, 'one agent process, started after consent');
    assert.ok(refusal(a.tree.getChildren(second)), 'the other agent still waits');
  });

  it("lists the waiting agent's sessions as soon as the workspace is trusted, without Retry", async () => {
    const a = await api();
    const [, second] = await agentNodes();
    let asked = 0;
    a.setTrustPrompt(async () => {
      asked++;
      return undefined;
    });
    await vscode.commands.executeCommand('workbench.trust.manage');
    askDriver('trustWorkspace');
    await waitFor('the workspace trusted', () => vscode.workspace.isTrusted, 30_000);
    await waitFor(
      "the second agent's sessions",
      () => a.tree.getChildren(second).some((n) => n.type === 'session'),
      30_000,
    );
    assert.equal(refusal(a.tree.getChildren(second)), undefined);
    assert.equal(asked, 0, 'trusted: nobody is asked');
    assert.equal(agentStarts().length, 2);
  });
});
