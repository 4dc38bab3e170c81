import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, moveTo } from '../../support';
import { waitFor } from '../../../support/wait';

// The agent answers three pages of 20, then fails every further page: the QuickPick keeps the
// 60 rows it has, and says under them why it stopped, with Retry.
describe('Resume Session when paging fails part way', function () {
  this.timeout(60_000);

  it('keeps the rows it listed and shows the error under them, with Retry', async () => {
    const a = await api();
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    const qp = pick.quickPick;
    const errorRow = () => qp.items.find((i) => i.action === 'retry');
    await waitFor('the error row', errorRow);
    assert.equal(qp.items.filter((i) => i.row).length, 60, 'the three pages listed stay');
    assert.match(errorRow()!.label, /Session store unavailable/);
    assert.equal(qp.items.at(-1), errorRow(), 'under the rows');
    assert.equal(errorRow()!.alwaysShow, true, 'seen whatever is typed');

    // Retry asks again; the agent still fails: the same rows, the error row again, no more.
    const list = a.lists.all()[0]!;
    const firstFailure = list.error;
    await moveTo(qp, errorRow()!);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor('a second failure', () => list.state === 'error' && list.error !== firstFailure);
    await pick.settled;
    await waitFor('the error row again', errorRow);
    assert.equal(qp.items.filter((i) => i.row).length, 60);
    assert.ok(a.currentPick(), 'the QuickPick stays open');
    qp.hide();
  });
});
