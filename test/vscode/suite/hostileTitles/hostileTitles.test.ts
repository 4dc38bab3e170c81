import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SessionNode } from '../../../../src/ui/sessionsTree';
import { api, loadedRoot, until } from '../../support';

// Control, bidi, zero-width and isolate characters that must never reach a label.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

describe('Hostile session titles', function () {
  this.timeout(60_000);

  it('shows them as one clean line in the tree, with an escaped, untrusted tooltip', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const rows = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session');
    assert.ok(rows.length > 0);
    for (const row of rows) {
      const item = a.tree.resolveTreeItem(a.tree.getTreeItem(row), row);
      const label = String(item.label);
      assert.doesNotMatch(label, INVISIBLE, JSON.stringify(label));
      assert.ok(label.length <= 201);
      assert.ok(!label.includes('\n'));
      const tip = item.tooltip as vscode.MarkdownString;
      assert.equal(tip.isTrusted, false);
      assert.equal(tip.supportHtml, false);
      assert.ok(!tip.value.includes('<script>'), 'HTML in the title is escaped in the tooltip');
      assert.match(tip.value, /\\<script\\>/);
    }
  });

  it('shows them cleaned in the QuickPick too', async () => {
    const a = await api();
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await until('the QuickPick', () => a.currentPick());
    await pick.settled;
    const rows = pick.quickPick.items.filter((i) => i.row);
    assert.ok(rows.length > 0);
    for (const item of rows) {
      assert.doesNotMatch(item.label, INVISIBLE);
      assert.doesNotMatch(item.detail ?? '', INVISIBLE);
    }
    pick.quickPick.hide();
  });
});
