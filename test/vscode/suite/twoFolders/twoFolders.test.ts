import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FolderNode, SessionNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, loadedRoot } from '../../support';
import { waitFor } from '../../../support/wait';

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

  it('Resume Session searches every folder at once, and each row names its folder', async () => {
    const a = await api();
    const folders = vscode.workspace.workspaceFolders!;
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the sessions QuickPick, with no folder asked first', () => a.currentPick());
    await pick.settled;
    assert.match(pick.quickPick.title ?? '', /all folders/);
    const rows = pick.quickPick.items.filter((i) => i.row);
    for (const folder of folders) {
      const mine = rows.filter((i) => i.row!.cwd === folder.uri.fsPath);
      assert.ok(mine.length > 0, `rows of ${folder.name}`);
      for (const i of mine) assert.match(i.description ?? '', new RegExp(`· ${folder.name}$`), i.label);
    }
    pick.quickPick.hide();
    await waitFor('closed', () => a.currentPick() === undefined);
  });
});
