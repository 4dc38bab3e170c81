import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ElicitationEntry } from '../../../../src/protocol/entries';
import type { SessionNode } from '../../../../src/ui/sessionsView/sessionsTree';
import { api, loadedRoot } from '../../support';
import { waitFor } from '../../../support/wait';

describe('Chat panel from the Sessions view', function () {
  this.timeout(60_000);

  it('opens a session with its history replayed, and reveals the same panel when opened again', async () => {
    const a = await api();
    const node = (await loadedRoot(a)).find((n): n is SessionNode => n.type === 'session')!;
    await vscode.commands.executeCommand('acp.openSessionWithHistory', node);
    const chat = await waitFor('the panel', () => a.chats.get(node.host.config.id, node.row.sessionId));
    await waitFor('the replay', () => chat.session.thread.status.state === 'idle' && chat.session.history === 'loaded');
    const entries = chat.session.thread.entries;
    assert.equal(entries.filter((e) => e.type === 'user').length, 2, 'two seeded turns');
    assert.ok(entries.some((e) => e.type === 'agent'));
    await vscode.commands.executeCommand('acp.openSessionWithHistory', node);
    assert.equal(a.chats.all.filter((c) => c.session.sessionId === node.row.sessionId).length, 1);
    chat.panel.dispose();
  });

  it('resumes a session without a replay', async () => {
    const a = await api();
    const node = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session')[1]!;
    await vscode.commands.executeCommand('acp.resumeSessionRow', node);
    const chat = await waitFor('the panel', () => a.chats.get(node.host.config.id, node.row.sessionId));
    await waitFor(
      'attached',
      () => chat.session.thread.status.state === 'idle' && chat.session.capabilities().canPrompt,
    );
    assert.equal(chat.session.history, 'resumed');
    assert.equal(chat.session.thread.entries.length, 0);
    chat.panel.dispose();
  });

  it('sends a prompt and streams the reply into the thread', async () => {
    const a = await api();
    const node = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session')[2]!;
    const chat = (await a.chats.open(
      { agentId: node.host.config.id, sessionId: node.row.sessionId, cwd: node.row.cwd },
      'load',
    ))!;
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    const before = chat.session.thread.entries.length;
    await chat.session.prompt('Hello there');
    const after = chat.session.thread.entries.slice(before);
    assert.equal(after[0]?.type, 'user');
    assert.ok(after.some((e) => e.type === 'agent' && e.text.length > 0));
    chat.panel.dispose();
  });

  it('shows the output of a terminal the agent runs under its tool call', async () => {
    const a = await api();
    // A listed session, not a new one: the paging tests count this folder's sessions.
    const node = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session')[3]!;
    const chat = (await a.chats.open(
      { agentId: node.host.config.id, sessionId: node.row.sessionId, cwd: node.row.cwd },
      'resume',
    ))!;
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    await chat.session.prompt('show me all update kinds');
    const tool = await waitFor('terminal output under the tool call', () =>
      chat.session.thread.entries.find(
        (e) => e.type === 'tool' && Object.values(e.terminalOutput ?? {}).some((t) => t.output.includes('hello')),
      ),
    );
    assert.equal(tool.type === 'tool' && Object.values(tool.terminalOutput ?? {})[0]?.exitCode, 0);
    chat.panel.dispose();
  });

  it('lets the session go when its panel closes with changes waiting to be sent, so it opens again', async () => {
    const a = await api();
    const node = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session')[5]!;
    const target = { agentId: node.host.config.id, sessionId: node.row.sessionId, cwd: node.row.cwd };
    const chat = (await a.chats.open(target, 'resume'))!;
    await waitFor('attached and shown', () => chat.session.capabilities().canPrompt && chat.isShowing);
    // A change the batcher holds for its next frame: the panel's teardown flushes it.
    chat.session.thread.addNotice('info', 'waiting to be sent');
    chat.panel.dispose();
    assert.equal(a.sessions.isOpen(target.agentId, target.sessionId), false, 'out of the registry at once');
    await waitFor('the session closed', () => chat.session.isDisposed);
    const again = (await a.chats.open(target, 'resume'))!;
    assert.notEqual(again, chat);
    await waitFor('attached again', () => again.session.capabilities().canPrompt);
    again.panel.dispose();
  });

  it("routes the agent's elicitation to the chat of its session, and answers cancel when the panel closes", async () => {
    const a = await api();
    const node = (await loadedRoot(a)).filter((n): n is SessionNode => n.type === 'session')[4]!;
    const chat = (await a.chats.open(
      { agentId: node.host.config.id, sessionId: node.row.sessionId, cwd: node.row.cwd },
      'resume',
    ))!;
    await waitFor('attached', () => chat.session.capabilities().canPrompt);
    const card = () =>
      chat.session.thread.entries.find(
        (e): e is ElicitationEntry => e.type === 'elicitation' && e.outcome === undefined,
      );
    const turn = chat.session.prompt('elicit');
    const first = await waitFor('the form card', card);
    const values = { name: 'Atlas', seats: '4', languages: ['Go'] };
    assert.equal(chat.session.elicitations.answer(first.requestId, 'accept', values), true);
    await turn;
    const reply = chat.session.thread.entries.filter((e) => e.type === 'agent').at(-1);
    assert.match(reply?.type === 'agent' ? reply.text : '', /"name":"Atlas".*"seats":4/);

    void chat.session.prompt('elicit').catch(() => undefined);
    const second = await waitFor('a second card', card);
    chat.panel.dispose();
    await waitFor(
      'the cancel',
      () =>
        second.requestId &&
        chat.session.thread.entries.some(
          (e) => e.type === 'elicitation' && e.requestId === second.requestId && e.outcome === 'cancel',
        ),
    );
  });
});
