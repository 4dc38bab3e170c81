import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suiteContext } from '../../../host/suiteContext';
import type { SessionNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, loadedRoot } from '../../support';
import { waitFor } from '../../../support/wait';

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
      const item = await a.tree.resolveTreeItem(a.tree.getTreeItem(row), row);
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
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const rows = pick.quickPick.items.filter((i) => i.row);
    assert.ok(rows.length > 0);
    for (const item of rows) {
      assert.doesNotMatch(item.label, INVISIBLE);
      assert.doesNotMatch(item.detail ?? '', INVISIBLE);
    }
    pick.quickPick.hide();
  });

  it('cleans a hostile session id in the QuickPick detail line as it cleans titles', async () => {
    // A session whose id carries bidi, bell and zero-width characters, written into the
    // reference agent's index behind its back (it re-reads the index when another writer changed it).
    const { storeDir, folders } = suiteContext();
    const hostileId = '\u202e\u0007evil\u200bid-0123456789';
    const indexPath = join(storeDir, 'index.json');
    const index = JSON.parse(readFileSync(indexPath, 'utf8')) as { sessions: unknown[] };
    index.sessions.push({
      sessionId: hostileId,
      cwd: folders[0],
      updatedAt: new Date().toISOString(),
      title: 'A session with a hostile id',
      turns: 0,
    });
    writeFileSync(`${indexPath}.tmp`, JSON.stringify(index));
    renameSync(`${indexPath}.tmp`, indexPath);

    const a = await api();
    // The previous test's QuickPick may still be closing: wait, or this would read its rows.
    await waitFor('the previous QuickPick closed', () => a.currentPick() === undefined);
    await vscode.commands.executeCommand('acp.refreshSessions');
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const item = await waitFor('the hostile id row', () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === hostileId),
    );
    assert.doesNotMatch(item.detail ?? '', INVISIBLE, JSON.stringify(item.detail));
    assert.equal(item.detail, `evilid-0 · ${folders[0]}`);
    pick.quickPick.hide();
  });
});
