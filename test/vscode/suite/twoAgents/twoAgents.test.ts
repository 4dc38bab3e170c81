import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, askDriver, labels } from '../../support';
import { waitFor } from '../../../support/wait';

describe('Two agents side by side', function () {
  this.timeout(90_000);

  const agentNodes = async () => {
    const a = await api();
    return waitFor('two agent nodes', () => {
      const nodes = a.tree.getChildren();
      return nodes.length === 2 && nodes.every((n) => n.type === 'agent') ? (nodes as AgentNode[]) : undefined;
    });
  };

  it('shows each agent as a node with its state, and lists its sessions under it', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const nodes = await agentNodes();
    assert.deepEqual(labels(a, nodes), ['Reference Agent', 'Second Agent']);
    for (const node of nodes) {
      const sessions = await waitFor(`${node.host.config.name}'s sessions`, () => {
        const children = a.tree.getChildren(node);
        return children.filter((c) => c.type === 'session').length === 4 ? children : undefined;
      });
      assert.ok(sessions.every((s) => s.type !== 'session' || s.host === node.host));
    }
    await waitFor('both ready', () => nodes.every((n) => a.tree.getTreeItem(n).description === 'ready'));
    assert.equal((a.tree.getTreeItem(nodes[0]!).iconPath as vscode.ThemeIcon).id, 'hubot');
    await waitFor('the status bar', () => a.statusBar.text === '$(hubot) ACP: 2 ready');
  });

  it('restarts one agent without touching the other, and stops one', async () => {
    const a = await api();
    const [first, second] = await agentNodes();
    const firstPid = (await first!.host.connect()).pid;
    const secondPid = (await second!.host.connect()).pid;
    await vscode.commands.executeCommand('acp.restartAgent', first);
    await waitFor(
      'restarted',
      () => first!.host.connection?.pid !== undefined && first!.host.connection.pid !== firstPid,
    );
    assert.equal(second!.host.connection?.pid, secondPid, 'the other agent kept its process');

    await vscode.commands.executeCommand('acp.stopAgent', second);
    const [, stopped] = await agentNodes();
    await waitFor('stopped', () => a.tree.getTreeItem(stopped!).description === 'not running');
    assert.equal(a.tree.getTreeItem(stopped!).contextValue, 'agent.stopped');
    assert.equal(first!.host.state.kind, 'ready');
    await waitFor('the status bar', () => a.statusBar.text === '$(hubot) ACP: 1 ready');
  });

  it("names each row's agent in Resume Session", async () => {
    const a = await api();
    // Both agents list the same store: every session appears once per agent, each row named.
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const rows = pick.quickPick.items.filter((i) => i.row);
    assert.equal(rows.length, 8);
    for (const item of rows)
      assert.ok(item.description?.endsWith(` · ${item.host!.config.name}`), String(item.description));
    assert.deepEqual([...new Set(rows.map((i) => i.host!.config.name))].sort(), ['Reference Agent', 'Second Agent']);
    pick.quickPick.hide();
    await waitFor('the QuickPick closed', () => a.currentPick() === undefined);
  });

  it('asks which agent for New Session, with the default first', async () => {
    const a = await api();
    const done = vscode.commands.executeCommand('acp.newSession');
    // Enter on the first row, as a person who takes the default would.
    askDriver('chooseQuickPickRow', 0);
    await done;
    const chat = await waitFor('a chat', () => a.chats.all[0]);
    assert.equal(chat.session.target.agentId, a.agents.default!.config.id);
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    chat.panel.dispose();
  });
});
