import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suiteContext } from '../../../host/suiteContext';
import { api } from '../../support';
import { waitFor } from '../../../support/wait';

// Runs after noAgent.test.ts (files run in name order): it adds an agent to the window.
describe('Add Agent: GitHub Copilot CLI', function () {
  this.timeout(90_000);
  const savedPath = process.env.PATH;

  after(async () => {
    process.env.PATH = savedPath;
    await vscode.workspace.getConfiguration('acp').update('agents', undefined, vscode.ConfigurationTarget.Global);
  });

  it('adds `copilot --acp --stdio` when copilot is on PATH; its sessions list without signing in', async () => {
    const a = await api();
    const context = suiteContext();
    const cwd = context.folders[0]!;
    execFileSync(process.execPath, [
      context.agentScript,
      'seed',
      '--store',
      context.storeDir,
      '--cwd',
      cwd,
      '--sessions',
      '2',
      '--turns',
      '1',
    ]);
    // A `copilot` on PATH that records its arguments and serves ACP the way Copilot CLI does
    // (lists signed out, signs in through a terminal command).
    const bin = join(context.storeDir, '..', 'bin');
    mkdirSync(bin, { recursive: true });
    const argsFile = join(bin, 'args.txt');
    writeFileSync(
      join(bin, 'copilot'),
      `#!/bin/sh\necho "$@" > '${argsFile}'\nexec '${process.execPath}' '${context.agentScript}' --store '${context.storeDir}' --started-file '${context.startedFile}' --auth-terminal-meta\n`,
    );
    chmodSync(join(bin, 'copilot'), 0o755);
    process.env.PATH = `${bin}:${savedPath ?? ''}`;

    const id = await vscode.commands.executeCommand('acp.addAgent', 'copilot');
    assert.equal(id, 'copilot');
    assert.deepEqual(vscode.workspace.getConfiguration('acp').get('agents'), [
      { id: 'copilot', name: 'GitHub Copilot CLI', command: 'copilot', args: ['--acp', '--stdio'], env: {} },
    ]);
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await waitFor('the added agent', () => a.agents.all.length === 1);
    const rows = await waitFor(
      'the sessions, listed without signing in',
      () => {
        const nodes = a.tree.getChildren();
        return nodes.filter((n) => n.type === 'session').length === 2 ? nodes : undefined;
      },
      30_000,
    );
    assert.ok(!rows.some((n) => n.type === 'state' && n.kind === 'signIn'));
    assert.equal(readFileSync(argsFile, 'utf8').trim(), '--acp --stdio');
    const methods = a.agents.all[0]!.connection!.features.authMethods;
    assert.deepEqual(
      methods.map((m) => m.id),
      ['reference-cli-login'],
    );
  });
});
