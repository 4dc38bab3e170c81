import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../src/extension';
import { agentStarts, suiteContext } from '../../host/suiteContext';
import { labels, loadedRoot } from '../support';
import { waitFor } from '../../support/wait';

const EXTENSION_ID = 'acp-tools.acp-client';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    viewsContainers: { activitybar: { id: string; title: string }[] };
    views: Record<string, { id: string; name: string }[]>;
  };
}

describe('activation', () => {
  let extension: vscode.Extension<unknown>;

  before(async () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is not loaded`);
    extension = found;
    await extension.activate();
  });

  it('starts no agent process', () => {
    const a = extension.exports as AcpTestApi;
    // Every start goes through an agent's host, which says "starting" at once: none was asked.
    assert.deepEqual(
      a.agents.all.map((h) => [h.config.id, h.state.kind]),
      [['reference', 'stopped']],
      'the configured agent is known and not started',
    );
    assert.deepEqual(
      agentStarts(),
      [],
      `an agent was started during activation (started-file ${suiteContext().startedFile})`,
    );
    assert.ok(a.activationMs > 0 && a.activationMs < 2000, `activate() took ${a.activationMs} ms`);
    console.log(`      (activate() took ${a.activationMs.toFixed(1)} ms)`);
  });

  it('registers every command the manifest contributes', async () => {
    const manifest = extension.packageJSON as Manifest;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });

  it('contributes the ACP view container with the Sessions view', () => {
    const { contributes } = extension.packageJSON as Manifest;
    assert.ok(contributes.viewsContainers.activitybar.some((c) => c.id === 'acp' && c.title === 'ACP'));
    assert.ok(contributes.views.acp?.some((v) => v.id === 'acp.sessions' && v.name === 'Sessions'));
  });

  it("opens the Sessions view, which starts the agent once and shows the folder's sessions", async () => {
    const a = extension.exports as AcpTestApi;
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.sessions.focus');
    // The view asks for its rows when it shows: that, not this test, starts the agent.
    await waitFor('the agent started for the visible view', () => agentStarts().length > 0);
    const rows = (await loadedRoot(a)).filter((n) => n.type === 'session');
    assert.equal(rows.length, 5, labels(a, rows).join(' | '));
    assert.equal(agentStarts().length, 1, 'one process for the view');
    assert.equal(a.agents.all[0]!.state.kind, 'ready');
  });
});
