import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { SessionNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, loadedRoot } from '../../support';
import { waitFor } from '../../../support/wait';

const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

/** The folder's sessions in the agent's order, straight from the agent. */
async function sessions(): Promise<readonly SessionInfo[]> {
  const a = await api();
  return (await (await a.agents.all[0]!.connect()).listSessions({ cwd: folder() })).sessions;
}

async function closeAllChats(): Promise<void> {
  const a = await api();
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}

describe('Chat panels: titles, history, Continue Last Session, new settings', function () {
  this.timeout(90_000);
  afterEach(closeAllChats);

  it('the tab title follows session_info_update: a new session is titled by its first prompt', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd: folder() }, 'new'))!;
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    assert.equal(chat.panel.title, 'New session', 'untitled until the agent names it, though it has an id');
    assert.ok(chat.session.sessionId);
    await chat.session.prompt('Rename the parser module to lexer');
    await waitFor('the title from session_info_update', () => chat.panel.title === 'Rename the parser module to lexer');
  });

  it('a turn the user stops ends with "Stopped", not "Turn interrupted"', async () => {
    const a = await api();
    const chat = (await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd: folder() }, 'new'))!;
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    const turn = chat.session.prompt('slow');
    await waitFor('the turn runs', () => chat.session.thread.status.state === 'prompting');
    await chat.session.cancel();
    await turn;
    const dividers = chat.session.thread.entries.filter((e) => e.type === 'divider').map((e) => e.text);
    assert.deepEqual(dividers, ['Stopped']);
  });

  it('"Open with history" on a panel opened by resume replays the history into that panel', async () => {
    const a = await api();
    const node = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session')[2]!;
    await vscode.commands.executeCommand('acp.resumeSessionRow', node);
    const chat = await waitFor('the resumed chat', () => a.chats.get(node.host.config.id, node.row.sessionId));
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    assert.equal(chat.session.thread.entries.length, 0);
    await vscode.commands.executeCommand('acp.openSessionWithHistory', node);
    await waitFor(
      'the history in the same panel',
      () => chat.session.history === 'loaded' && chat.session.thread.status.state === 'idle',
    );
    assert.equal(chat.session.thread.entries.filter((e) => e.type === 'user').length, 2);
    assert.equal(a.chats.all.length, 1, 'one panel');
  });

  it('"Continue Last Session" finds the last session however the agent spelled its folder', async () => {
    const a = await api();
    const chosen = (await sessions())[3]!;
    // The agent may report the cwd with a trailing separator (or through a symlink).
    const chat = await a.chats.open(
      { agentId: a.agents.all[0]!.config.id, sessionId: chosen.sessionId, cwd: `${chosen.cwd}/` },
      'resume',
    );
    await waitFor('attached', () => chat!.session.capabilities().canPrompt);
    await closeAllChats();
    await vscode.commands.executeCommand('acp.continueLastSession');
    await waitFor('the same session again', () => a.chats.get(a.agents.all[0]!.config.id, chosen.sessionId));
  });

  it('"Continue Last Session" opens the newest session when the last one was deleted, not a chat that fails', async () => {
    const a = await api();
    const node = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session')[4]!;
    await vscode.commands.executeCommand('acp.resumeSessionRow', node);
    const chat = await waitFor('the chat', () => a.chats.get(node.host.config.id, node.row.sessionId));
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    await closeAllChats();
    a.setConfirm(async () => true);
    await vscode.commands.executeCommand('acp.deleteSession', node);
    const newest = [...(await sessions())].sort(
      (x, y) => Date.parse(y.updatedAt ?? '') - Date.parse(x.updatedAt ?? ''),
    )[0]!;
    assert.notEqual(newest.sessionId, node.row.sessionId);

    await vscode.commands.executeCommand('acp.continueLastSession');
    const opened = await waitFor('the newest session', () => a.chats.get(node.host.config.id, newest.sessionId));
    await waitFor('attached', () => opened.session.capabilities().canPrompt);
    assert.equal(a.chats.get(node.host.config.id, node.row.sessionId), undefined, 'the deleted one is not opened');
  });

  // Last: it replaces the agent's host, which the other tests' lists were made with.
  it("a chat follows its agent's new settings: it reattaches on the new process and can prompt", async () => {
    const a = await api();
    const id = a.agents.all[0]!.config.id;
    const chosen = (await sessions())[1]!;
    const chat = (await a.chats.open({ agentId: id, sessionId: chosen.sessionId, cwd: chosen.cwd }, 'load'))!;
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    const firstPid = a.agents.get(id)!.connection!.pid;
    const states: string[] = [];
    chat.session.thread.onDidChange((cs) =>
      cs.forEach((c) => c.kind === 'statusChanged' && states.push(c.status.state)),
    );

    const config = vscode.workspace.getConfiguration('acp');
    const agents = config.get<{ args: string[] }[]>('agents')!;
    await config.update(
      'agents',
      [{ ...agents[0], args: [...agents[0]!.args, '--page-size', '40'] }, ...agents.slice(1)],
      vscode.ConfigurationTarget.Global,
    );
    try {
      await waitFor(
        'reattached on the new process',
        () => a.agents.get(id)!.connection?.pid !== firstPid && chat.session.capabilities().canPrompt,
        20_000,
      );
      assert.ok(!states.includes('error'), states.join(' → '));
      const before = chat.session.thread.entries.length;
      await chat.session.prompt('hello after new settings');
      assert.ok(chat.session.thread.entries.slice(before).some((e) => e.type === 'agent' && e.text.length > 0));
    } finally {
      await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    }
  });
});
