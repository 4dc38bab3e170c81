import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentNode, StateNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { joinCommandLine } from '../../../../src/agent/commandLine';
import { suiteContext } from '../../../host/suiteContext';
import { api, labels, offered } from '../../support';
import { waitFor } from '../../../support/wait';

interface Inspected {
  globalRemoteValue?: unknown;
}
/** The agents as the Remote settings hold them (code-server is a remote window). */
const remoteIds = () =>
  (
    ((vscode.workspace.getConfiguration('acp').inspect('agents') as Inspected | undefined)?.globalRemoteValue ??
      []) as { id: string; name?: string; command?: string }[]
  ).map((e) => `${e.id}:${e.name ?? ''}`);

/** The reference agent's command line, as a user would type it in "Add Agent". */
function referenceLine(): string {
  const c = suiteContext();
  return joinCommandLine(process.execPath, [c.agentScript, '--store', c.storeDir, '--started-file', c.startedFile]);
}

/**
 * A stand-in for `npx`: a program named npx that takes a while before the agent answers, as a
 * first download does. Its first two arguments (`-y` and the package) are dropped.
 */
function slowNpx(): string {
  const c = suiteContext();
  const script = join(dirname(c.storeDir), 'bin', 'npx');
  mkdirSync(dirname(script), { recursive: true });
  writeFileSync(script, `#!/bin/sh\nsleep 3\nshift 2\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
  chmodSync(script, 0o755);
  return joinCommandLine(script, [
    '-y',
    '@example/slow-agent',
    c.agentScript,
    '--store',
    c.storeDir,
    '--started-file',
    c.startedFile,
  ]);
}

describe('Agents set up without writing JSON', function () {
  this.timeout(90_000);

  it('does not offer Sign In for an agent that has no way to sign in', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await waitFor('ready', () => a.agents.all[0]?.state.kind === 'ready', 30_000);
    assert.equal(a.contextKey('acp.canSignIn'), false);
    const palette = offered('commandPalette', { 'acp.noAgents': false, 'acp.canSignIn': false });
    assert.ok(!palette.includes('acp.signIn'));
  });

  it('"Add Agent" refuses a command that is not on this machine (a typo) and writes nothing', async () => {
    const before = remoteIds();
    const added = await vscode.commands.executeCommand('acp.addAgent', { command: 'my-agnet --acp', name: 'Typo' });
    assert.equal(added, undefined);
    assert.deepEqual(remoteIds(), before);
  });

  it('"Add Agent" writes a found command to the Remote settings, where a remote window reads it', async () => {
    const a = await api();
    const id = await vscode.commands.executeCommand<string>('acp.addAgent', {
      command: referenceLine(),
      name: 'Second Agent',
    });
    assert.equal(id, 'second-agent');
    assert.ok(remoteIds().includes('second-agent:Second Agent'), remoteIds().join(', '));
    await waitFor('the second agent in use', () => a.agents.get('second-agent'));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const agentsShown = await waitFor('two agent rows', () => {
      const rows = a.tree.getChildren().filter((n): n is AgentNode => n.type === 'agent');
      return rows.length === 2 ? rows : undefined;
    });
    assert.deepEqual(labels(a, agentsShown), ['Reference Agent', 'Second Agent']);
  });

  it('the agent rows offer Edit Agent… and Remove Agent…; the agents menu is "Manage Agents…"', async () => {
    const a = await api();
    const row = a.tree.getChildren().find((n): n is AgentNode => n.type === 'agent')!;
    const actions = offered('view/item/context', {
      view: 'acp.sessions',
      viewItem: a.tree.getTreeItem(row).contextValue,
    });
    for (const command of ['acp.editAgent', 'acp.removeAgent', 'acp.openAgentSettings'])
      assert.ok(actions.includes(command), `${command}: ${actions.join(', ')}`);
    const ext = vscode.extensions.getExtension('acp-tools.acp-client')!;
    const commands = (ext.packageJSON as { contributes: { commands: { command: string; title: string }[] } })
      .contributes.commands;
    assert.equal(commands.find((c) => c.command === 'acp.agentMenu')?.title, 'Manage Agents…');
    assert.ok(offered('view/title', { view: 'acp.sessions', 'acp.noAgents': false }).includes('acp.agentMenu'));
  });

  it('"Edit Agent…" renames it, and checks a new command like a new agent', async () => {
    const a = await api();
    assert.equal(await vscode.commands.executeCommand('acp.editAgent', 'second-agent', 'name', 'Renamed Agent'), true);
    await waitFor('the new name', () => a.agents.get('second-agent')?.config.name === 'Renamed Agent');
    assert.ok(remoteIds().includes('second-agent:Renamed Agent'));
    const command = a.agents.get('second-agent')!.config.command;
    assert.equal(await vscode.commands.executeCommand('acp.editAgent', 'second-agent', 'command', 'my-agnet'), false);
    assert.equal(a.agents.get('second-agent')!.config.command, command, 'unchanged');
  });

  it('"Remove Agent…" asks first, then removes it from the settings and the view', async () => {
    const a = await api();
    a.setConfirm(async () => false);
    assert.equal(await vscode.commands.executeCommand('acp.removeAgent', 'second-agent'), false);
    assert.ok(a.agents.get('second-agent'));
    a.setConfirm(async () => true);
    assert.equal(await vscode.commands.executeCommand('acp.removeAgent', 'second-agent'), true);
    await waitFor('gone', () => a.agents.get('second-agent') === undefined);
    assert.ok(!remoteIds().some((e) => e.startsWith('second-agent:')));
  });

  it('a first start through npx says it is downloading, not a silent "Loading…"; later starts do not', async () => {
    const a = await api();
    const id = await vscode.commands.executeCommand<string>('acp.addAgent', { command: slowNpx(), name: 'Npx Agent' });
    await waitFor('the agent in use', () => a.agents.get(id));
    const loadingLabel = (agentId: string) => {
      const row = a.tree.getChildren().find((n): n is AgentNode => n.type === 'agent' && n.host.config.id === agentId);
      if (!row) return undefined;
      const state = a.tree.getChildren(row).find((n): n is StateNode => n.type === 'state' && n.kind === 'loading');
      return state && labels(a, [state])[0];
    };
    const first = await waitFor('the loading row', () => loadingLabel(id));
    assert.equal(first, 'Starting Npx Agent: its first start downloads @example/slow-agent, which can take a minute…');
    await waitFor('ready', () => a.agents.get(id)?.state.kind === 'ready', 30_000);
    // The same launch again (another entry): it has been downloaded, so it only says it starts.
    const again = await vscode.commands.executeCommand<string>('acp.addAgent', {
      command: slowNpx(),
      name: 'Npx Again',
    });
    await waitFor('the agent in use', () => a.agents.get(again));
    assert.equal(
      await waitFor('the loading row of the second entry', () => loadingLabel(again)),
      'Starting Npx Again…',
    );
    // Stopped here: a start still in its pause has not written its pid for the world's cleanup.
    await Promise.all([id, again].map((agent) => a.agents.get(agent)?.stop()));
  });
});
