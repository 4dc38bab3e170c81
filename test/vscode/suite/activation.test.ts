import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { agentStarts, suiteContext } from '../../host/suiteContext';

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

  it('starts no agent process', async () => {
    // Give a spawn that activation might have fired a moment to write its pid.
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(
      agentStarts(),
      [],
      `an agent was started during activation (started-file ${suiteContext().startedFile})`,
    );
    const ms = (extension.exports as { activationMs?: number }).activationMs;
    assert.equal(typeof ms, 'number');
    console.log(`      (activate() took ${ms!.toFixed(1)} ms)`);
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

  it('opens the Sessions view', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.sessions.focus');
  });
});
