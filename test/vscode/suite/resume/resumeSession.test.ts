import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { SessionNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, catchMessages, loadedRoot, moveTo } from '../../support';
import { waitFor } from '../../../support/wait';

/** Every session of the folder in the agent's order, straight from the agent. */
async function allSessions(): Promise<SessionInfo[]> {
  const a = await api();
  const c = await a.agents.all[0]!.connect();
  const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const out: SessionInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await c.listSessions({ cwd, ...(cursor ? { cursor } : {}) });
    out.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

async function closeAllChats(): Promise<void> {
  const a = await api();
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}

describe('ACP: Resume Session', function () {
  this.timeout(90_000);
  afterEach(async () => {
    const a = await api();
    a.currentPick()?.quickPick.hide();
    await waitFor('the QuickPick closed', () => a.currentPick() === undefined);
    a.setConfirm(async () => true);
    await closeAllChats();
  });

  it('opens at once, sorted newest first, and pages on in the background without losing the filter', async () => {
    const a = await api();
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    const qp = pick.quickPick;
    assert.ok(qp.matchOnDescription && qp.matchOnDetail);
    await waitFor('the first rows', () => qp.items.some((i) => i.row));
    qp.value = 'session';
    await pick.settled;
    const rows = qp.items.filter((i) => i.row);
    assert.equal(rows.length, 300, 'every page arrived');
    assert.equal(qp.value, 'session', 'what the user typed stays');
    const times = rows.map((i) => i.row!.updatedAtMs ?? 0);
    assert.deepEqual(
      times,
      [...times].sort((x, y) => y - x),
      'newest first',
    );
    assert.ok(
      rows[0]!.detail!.includes(rows[0]!.row!.sessionId.slice(0, 8)) && rows[0]!.detail!.includes(rows[0]!.row!.cwd),
    );
  });

  it('finds a session on the last page by an id prefix and opens it with Enter', async () => {
    const a = await api();
    const sessions = await allSessions();
    const last = sessions.at(-1)!;
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    pick.type(last.sessionId.slice(0, 12));
    const hit = await waitFor('the prefix match', () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === last.sessionId && i.alwaysShow),
    );
    await moveTo(pick.quickPick, (i) => i.row?.sessionId === hit.row!.sessionId);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const chat = await waitFor('the chat', () => a.chats.get(a.agents.all[0]!.config.id, last.sessionId));
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
  });

  it('opens a row with its "Resume" and "Open with history" buttons', async () => {
    const a = await api();
    const [one, two] = await allSessions();
    void vscode.commands.executeCommand('acp.resumeSession');
    let pick = await waitFor('the QuickPick', () => a.currentPick());
    await waitFor('rows', () => pick.quickPick.items.some((i) => i.row?.sessionId === one!.sessionId));
    const item = pick.quickPick.items.find((i) => i.row?.sessionId === one!.sessionId)!;
    assert.equal(item.buttons?.length, 2, 'both buttons, since the agent can load and resume');
    // Plain words, and no debugger icon for a chat.
    assert.deepEqual(item.buttons!.map((b) => b.tooltip).sort(), [
      'Open Without Earlier Messages (Faster)',
      'Open with Earlier Messages',
    ]);
    assert.ok(!item.buttons!.some((b) => (b.iconPath as vscode.ThemeIcon).id.startsWith('debug')));
    pick.trigger(one!.sessionId, 'resume');
    const resumed = await waitFor('resumed chat', () => a.chats.get(a.agents.all[0]!.config.id, one!.sessionId));
    await waitFor('attached', () => resumed.session.capabilities().canPrompt);
    assert.equal(resumed.session.history, 'resumed');
    assert.equal(resumed.session.thread.entries.length, 0, 'no replay');

    void vscode.commands.executeCommand('acp.resumeSession');
    pick = await waitFor('the QuickPick again', () => a.currentPick());
    await waitFor('rows', () => pick.quickPick.items.some((i) => i.row?.sessionId === two!.sessionId));
    pick.trigger(two!.sessionId, 'history');
    const loaded = await waitFor('loaded chat', () => a.chats.get(a.agents.all[0]!.config.id, two!.sessionId));
    await waitFor(
      'replayed',
      () => loaded.session.history === 'loaded' && loaded.session.thread.status.state === 'idle',
    );
    assert.ok(loaded.session.thread.entries.some((e) => e.type === 'user'));
  });

  it('"Continue Last Session" reopens the session this window opened last', async () => {
    const a = await api();
    const sessions = await allSessions();
    const chosen = sessions[7]!;
    const chat = await a.chats.open(
      { agentId: a.agents.all[0]!.config.id, sessionId: chosen.sessionId, cwd: chosen.cwd },
      'resume',
    );
    await waitFor('attached', () => chat!.session.capabilities().canPrompt);
    await closeAllChats();
    await vscode.commands.executeCommand('acp.continueLastSession');
    await waitFor('the same session again', () => a.chats.get(a.agents.all[0]!.config.id, chosen.sessionId));
  });

  it('opens a session from a link, asks before one from another folder, and names an unknown id', async () => {
    const a = await api();
    const sessions = await allSessions();
    const target = sessions[150]!;
    await a.handleUri(
      vscode.Uri.parse(`vscode://acp-tools.acp-client/resume?session=${encodeURIComponent(target.sessionId)}`),
    );
    await waitFor('the linked chat', () => a.chats.get(a.agents.all[0]!.config.id, target.sessionId));

    const elsewhere = mkdtempSync(join(tmpdir(), 'acp-elsewhere-'));
    const c = await a.agents.all[0]!.connect();
    const created = await c.newSession({ cwd: elsewhere, mcpServers: [] });
    let asked = '';
    a.setConfirm(async (message) => {
      asked = message;
      return false;
    });
    await a.handleUri(vscode.Uri.parse(`vscode://acp-tools.acp-client/resume?session=${created.sessionId}`));
    assert.match(asked, /not a folder of this window/);
    assert.equal(a.chats.get(a.agents.all[0]!.config.id, created.sessionId), undefined, 'declined: nothing opened');

    const before = a.chats.all.length;
    // The answer is a notification: catch what the extension shows.
    const errors = catchMessages('showErrorMessage');
    try {
      await a.handleUri(vscode.Uri.parse('vscode://acp-tools.acp-client/resume?session=sess_does_not_exist'));
    } finally {
      errors.restore();
    }
    assert.equal(a.chats.all.length, before, 'an unknown id opens nothing');
    assert.deepEqual(errors.shown, ['ACP: no configured agent knows the session "sess_does_not_exist".']);
  });

  it('"Copy Session Link" copies a link that opens that session', async () => {
    const a = await api();
    const node = (await loadedRoot(a)).find((n): n is SessionNode => n.type === 'session')!;
    await vscode.commands.executeCommand('acp.copySessionLink', node);
    const link = await vscode.env.clipboard.readText();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const expected = `${vscode.env.uriScheme}://acp-tools.acp-client/resume?${new URLSearchParams({ session: node.row.sessionId, agent: node.host.config.id, folder })}`;
    assert.equal(link, expected);
    await a.handleUri(vscode.Uri.parse(link));
    await waitFor('the linked chat', () => a.chats.get(node.host.config.id, node.row.sessionId));
  });

  it('Escape closes the QuickPick and opens nothing, whatever row was active', async () => {
    const a = await api();
    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    const row = await waitFor('a row', () => pick.quickPick.items.find((i) => i.row));
    await moveTo(pick.quickPick, row);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // A row is opened on accept, before the QuickPick hides: once it is gone, nothing was.
    await waitFor('the QuickPick gone', () => a.currentPick() === undefined);
    assert.equal(a.chats.all.length, 0, 'no chat opened');
  });
});
