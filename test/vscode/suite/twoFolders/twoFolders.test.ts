import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FolderNode, SessionNode } from '../../../../src/ui/sessionsTree';
import { api, askDriver, loadedRoot, until } from '../../support';

describe('Sessions view (two folders)', function () {
  this.timeout(60_000);

  it('shows each folder with only its own sessions', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const roots = a.tree.getChildren();
    assert.equal(roots.length, 2);
    assert.deepEqual(
      roots.map((r) => (r as FolderNode).folder.name),
      vscode.workspace.workspaceFolders!.map((f) => f.name),
    );
    const seen = new Set<string>();
    for (const root of roots as FolderNode[]) {
      const rows = (await loadedRoot(a, root)).filter((n): n is SessionNode => n.type === 'session');
      assert.ok(rows.length > 0, `${root.folder.name} has sessions`);
      for (const r of rows) {
        assert.equal(r.row.cwd, root.folder.uri.fsPath);
        assert.ok(!seen.has(r.row.sessionId));
        seen.add(r.row.sessionId);
      }
      assert.equal(a.tree.getParent(rows[0]!), root, 'getParent leads back to the folder (reveal needs it)');
    }
  });

  it('asks for the folder before Resume Session, offering the last one chosen first', async () => {
    const a = await api();
    const [alpha, beta] = vscode.workspace.workspaceFolders!;
    const choose = async (row: number) => {
      void vscode.commands.executeCommand('acp.resumeSession');
      askDriver('chooseQuickPickRow', row);
      const pick = await until('the sessions QuickPick', () => a.currentPick());
      const title = pick.quickPick.title ?? '';
      pick.quickPick.hide();
      await until('closed', () => a.currentPick() === undefined);
      return title;
    };
    assert.match(await choose(0), new RegExp(alpha!.name), 'the first folder by default');
    assert.match(await choose(1), new RegExp(beta!.name), 'the second when chosen');
    assert.match(await choose(0), new RegExp(beta!.name), 'the last one chosen is offered first');
  });
});
