import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PermissionEntry } from '../../../../src/protocol/entries';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import { api } from '../../support';
import { waitFor } from '../../../support/wait';

const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

async function newChat(): Promise<ChatPanel> {
  const a = await api();
  const chat = (await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd: folder() }, 'new'))!;
  await waitFor('attached', () => chat.session.capabilities().canPrompt);
  return chat;
}

const unshown = (chat: ChatPanel) =>
  chat.session.thread.entries.filter((e) => e.type === 'notice' && /could not be shown/.test(e.title));

describe('What an agent sends cannot break the chat panel', function () {
  this.timeout(60_000);
  afterEach(async () => {
    const a = await api();
    for (const chat of a.chats.all) chat.panel.dispose();
  });

  it('a tool call whose raw input is nested 20,000 deep: the chat goes on, and its snapshot still reaches the panel', async () => {
    const chat = await newChat();
    await chat.session.prompt('nested');
    const entries = chat.session.thread.entries;
    assert.ok(entries.some((e) => e.type === 'tool' && e.title === 'Nested input'));
    assert.ok(entries.some((e) => e.type === 'agent' && e.text.includes('Sent a deeply nested tool call.')));
    // VS Code's own serialisation of a message to the webview, as every snapshot and batch goes.
    const posted = await chat.panel.webview.postMessage({
      jsonrpc: '2.0',
      method: 'acp/probe',
      params: chat.session.thread.snapshot(),
    });
    assert.equal(posted, true);
    assert.deepEqual(unshown(chat), []);
  });

  it("a write to the folder's .vscode/tasks.json waits for Allow in the chat, which shows the path and the change", async () => {
    const chat = await newChat();
    mkdirSync(join(folder(), '.vscode'), { recursive: true });
    const tasks = join(folder(), '.vscode', 'tasks.json');
    const turn = chat.session.prompt(`write ${tasks}`);
    const card = await waitFor('the confirmation card', () =>
      chat.session.thread.entries.find((e): e is PermissionEntry => e.type === 'permission' && e.outcome === undefined),
    );
    assert.match(card.title, /tasks\.json\? .*tasks run commands/);
    const tool = chat.session.thread.entries.find((e) => e.type === 'tool' && e.toolCallId === card.toolCallId);
    assert.ok(tool?.type === 'tool' && tool.content[0]?.type === 'diff' && tool.content[0].path === tasks);
    assert.equal(existsSync(tasks), false, 'nothing written while it asks');
    chat.session.answerPermission(card.requestId, 'allow-write');
    await turn;
    assert.match(readFileSync(tasks, 'utf8'), /written by acp-reference-agent/);
  });

  it('a message the panel cannot be sent is not lost silently: the chat says so once and carries on', async () => {
    const chat = await newChat();
    // Nothing from the agent can do this any more (free-form values are bounded); a value JSON
    // cannot carry stands for whatever else might.
    chat.session.thread.apply({
      sessionUpdate: 'tool_call',
      toolCallId: 'unsendable',
      title: 'Unsendable',
      rawInput: { n: 10n },
    });
    await waitFor('the notice', () => unshown(chat).length === 1);
    await chat.session.prompt('hello again');
    assert.ok(chat.session.thread.entries.some((e) => e.type === 'agent' && e.text.includes('hello again')));
    assert.equal(unshown(chat).length, 1, 'said once');
  });
});
