import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suiteContext } from '../../../host/suiteContext';
import { PICK_LIMIT } from '../../../../src/ui/pickers/resumePicker';
import { api, moveTo } from '../../support';
import { waitFor } from '../../../support/wait';

/** The folder's session ids in the order the reference agent lists them (newest first, then by id). */
function listedIds(): string[] {
  const { storeDir, folders } = suiteContext();
  const index = JSON.parse(readFileSync(join(storeDir, 'index.json'), 'utf8')) as {
    sessions: { sessionId: string; cwd: string; updatedAt: string }[];
  };
  return index.sessions
    .filter((s) => s.cwd === folders[0])
    .sort((a, b) =>
      a.updatedAt !== b.updatedAt ? (a.updatedAt > b.updatedAt ? -1 : 1) : a.sessionId < b.sessionId ? -1 : 1,
    )
    .map((s) => s.sessionId);
}

// 7,000 sessions in pages of 1,000: background paging stops at the 5,000 cap.
describe('Resume Session at the 5,000-session cap', function () {
  this.timeout(120_000);
  afterEach(async () => {
    const a = await api();
    a.currentPick()?.quickPick.hide();
    await waitFor('the QuickPick closed', () => a.currentPick() === undefined);
    // Back to one page, so each test starts below the cap.
    await vscode.commands.executeCommand('acp.refreshSessions');
  });

  it('stops at 5,000 with a "Load more…" row, which pages on to the end', async () => {
    const a = await api();
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const qp = pick.quickPick;
    const list = a.lists.all()[0]!;
    assert.equal(list.items.length, PICK_LIMIT);
    assert.equal(qp.items.filter((i) => i.row).length, PICK_LIMIT);
    const more = qp.items.find((i) => i.action === 'more');
    assert.ok(more, 'a "Load more…" row');
    assert.equal(more.label, '$(ellipsis) Load more…');
    assert.equal(more.alwaysShow, true);
    await moveTo(qp, more);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor('paging on', () => list.items.length > PICK_LIMIT);
    await pick.settled;
    assert.equal(list.items.length, 7000);
    assert.ok(!qp.items.some((i) => i.action === 'more'), 'no "Load more…" at the end');
  });

  it('pages past the cap for an id prefix only until that session is found', async () => {
    const a = await api();
    const ids = listedIds();
    const target = ids[5500]!;
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const list = a.lists.all()[0]!;
    assert.equal(list.items.length, PICK_LIMIT);
    pick.type(target.slice(0, 12));
    await waitFor('the match', () => pick.quickPick.items.find((i) => i.row?.sessionId === target && i.alwaysShow));
    await pick.settled;
    assert.equal(list.items.length, 6000, 'the page with the session, and no further');
    assert.ok(
      pick.quickPick.items.some((i) => i.action === 'more'),
      '"Load more…" stays for the rest',
    );
  });
});
