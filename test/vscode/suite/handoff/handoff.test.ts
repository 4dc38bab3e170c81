// "Continue in Another Agent…" in a real extension host, from the reference agent to a second
// one: the briefing waits in the new chat's message box, nothing reaches the second agent until
// Enter is pressed there, and both chats (and the library, and the row's tooltip) link the two.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import type { SessionNode, TreeNode } from '../../../../src/ui/sessionsView/treeNodes';
import type { MessageEntry } from '../../../../src/protocol/entries';
import { api, askDriver, catchMessages } from '../../support';
import { recorded } from '../../../support/chat';
import { waitFor } from '../../../support/wait';

/** Both agents record what they receive here; a session's id tells whose it is. */
const record = join(mkdtempSync(join(tmpdir(), 'acp-handoff-suite-')), 'record.jsonl');
const received = (method: string, sessionId: string) =>
  recorded(record).filter((m) => m.method === method && m.params.sessionId === sessionId);

async function closeAll(a: AcpTestApi): Promise<void> {
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}

/** The first agent's seeded session rows. */
async function firstAgentRows(a: AcpTestApi): Promise<SessionNode[]> {
  return waitFor('the first agent’s sessions', () => {
    const agent = a.tree.getChildren().find((n) => n.type === 'agent' && n.host.config.id === 'reference');
    const rows = agent ? a.tree.getChildren(agent).filter((n: TreeNode): n is SessionNode => n.type === 'session') : [];
    return rows.length === 2 ? rows : undefined;
  });
}

/** Opens a row's session and waits until the library keeps its turns. */
async function openKept(a: AcpTestApi, row: SessionNode): Promise<ChatPanel> {
  const chat = (await a.chats.open(
    { agentId: 'reference', sessionId: row.row.sessionId, cwd: row.row.cwd, title: row.row.title ?? undefined },
    'load',
  ))!;
  await waitFor('ready', () => chat.session.capabilities().canPrompt);
  await waitFor('kept', async () => {
    const kept = await a.library.get()!.transcript({ agentId: 'reference', sessionId: row.row.sessionId });
    return kept?.some((e) => e.type === 'user');
  });
  return chat;
}

describe('Continue in Another Agent', function () {
  this.timeout(120_000);

  before(async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('acp');
    const agents = config.get<{ id: string; args: string[] }[]>('agents')!;
    await config.update(
      'agents',
      agents.map((x) => ({ ...x, args: [...x.args, '--record', record] })),
      vscode.ConfigurationTarget.Global,
    );
    await waitFor('the new settings', () => a.agents.all.every((h) => h.config.args.includes(record)));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });
  afterEach(async () => closeAll(await api()));

  it('drafts the briefing in a new chat of the agent picked, sends it only on Enter, and links both chats', async () => {
    const a = await api();
    const [row] = await firstAgentRows(a);
    const source = await openKept(a, row!);
    const sessionId = row!.row.sessionId;
    const title = a.decor.name('reference', row!.row).label;
    const kept = (await a.library.get()!.transcript({ agentId: 'reference', sessionId }))!;
    const goal = (kept.find((e) => e.type === 'user') as MessageEntry).text;

    // From the chat's title bar: the chat in front is the session continued.
    const done = vscode.commands.executeCommand<ChatPanel | undefined>('acp.continueInAnotherAgent');
    // The other agents come first: the first row is the second agent.
    askDriver('chooseQuickPickRow', 0);
    const chat = (await done)!;
    assert.equal(chat.session.target.agentId, 'second');
    assert.equal(chat.session.target.cwd, row!.row.cwd);
    assert.ok(chat.draft.startsWith(`# Continued from Reference Agent — ${title}\n`), chat.draft);
    assert.ok(chat.draft.includes(`## Goal\n\n${goal.trim()}`), chat.draft);
    assert.match(chat.draft, /## Last turns\n\n\*\*User:\*\* /);

    const newId = await waitFor('the new session', () => chat.session.sessionId);
    await waitFor('ready', () => chat.session.capabilities().canPrompt);
    await waitFor('both headers link', () => chat.links.length > 0 && source.links.length > 0);
    assert.deepEqual(chat.links, [
      { direction: 'from', agentId: 'reference', sessionId, text: `Continued from Reference Agent — ${title}` },
    ]);
    assert.equal(source.links.length, 1);
    assert.equal(source.links[0]!.direction, 'to');
    assert.equal(source.links[0]!.agentId, 'second');
    assert.equal(source.links[0]!.sessionId, newId);
    assert.match(source.links[0]!.text, /^Continued in Second Agent — /);
    // Nothing went to the second agent's session but its creation.
    assert.deepEqual(received('session/prompt', newId), []);

    // Enter in the new chat's message box sends the briefing, as drafted.
    const briefing = chat.draft;
    askDriver('sendChatDraft', '# Continued from Reference Agent');
    const sent = await waitFor('the briefing sent', () => received('session/prompt', newId)[0]);
    const text = (sent.params.prompt as { type: string; text?: string }[]).map((b) => b.text ?? '').join('');
    assert.equal(text.trim(), briefing.trim());
    assert.deepEqual(received('session/prompt', sessionId), [], 'nothing was sent in the session continued');
    // The agent titles the new session by its first prompt: the old chat's link follows.
    await waitFor(
      'the link named by the new title',
      () =>
        chat.panel.title !== 'New session' &&
        source.links[0]!.text === `Continued in Second Agent — ${chat.panel.title}`,
    );

    // The library keeps the link: a reopened chat shows it, and the row's tooltip says it.
    source.panel.dispose();
    const again = (await a.chats.open({ agentId: 'reference', sessionId, cwd: row!.row.cwd }, 'auto'))!;
    await waitFor('the reopened chat links', () => again.links.length === 1 && again.links[0]!.sessionId === newId);
    const [fresh] = await firstAgentRows(a);
    const item = await a.tree.resolveTreeItem(a.tree.getTreeItem(fresh!), fresh!);
    assert.match((item.tooltip as vscode.MarkdownString).value, /Continued in Second Agent — /);
    // Search finds both: the library keeps the new session like any chat.
    const word = goal.match(/[A-Za-z]{6,}/)![0];
    await waitFor('both found', async () => {
      const hits = await a.library.get()!.search(word, {}, 50);
      return (
        hits.some((h) => h.agentId === 'reference' && h.sessionId === sessionId) &&
        hits.some((h) => h.agentId === 'second' && h.sessionId === newId)
      );
    });
  });

  it('says so when the agent is not configured any more, and opens nothing', async () => {
    const a = await api();
    const [, row] = await firstAgentRows(a);
    const source = await openKept(a, row!);
    const errors = catchMessages('showErrorMessage');
    try {
      const chat = await vscode.commands.executeCommand('acp.continueInAnotherAgent', undefined, 'gone');
      assert.equal(chat, undefined);
      assert.deepEqual(errors.shown, [
        'ACP: no agent "gone" is configured any more: nothing was sent, and the session is as it was.',
      ]);
      assert.deepEqual(
        a.chats.all.map((c) => c.session.target.agentId),
        ['reference'],
      );
      assert.ok(source.session.capabilities().canPrompt);
    } finally {
      errors.restore();
    }
  });

  it('offers a one-line briefing for a session the library keeps nothing of, or opens nothing', async () => {
    const a = await api();
    const [row] = await firstAgentRows(a);
    await a.library.get()!.remove({ agentId: 'reference', sessionId: row!.row.sessionId });
    const asked: string[] = [];
    a.setConfirm(async (message) => (asked.push(message), false));
    assert.equal(await vscode.commands.executeCommand('acp.continueInAnotherAgent', row, 'second'), undefined);
    assert.equal(a.chats.all.length, 0);
    assert.match(asked[0]!, /^ACP: ".*" cannot be briefed: the session library keeps nothing of it/);

    a.setConfirm(async () => true);
    const chat = (await vscode.commands.executeCommand<ChatPanel>('acp.continueInAnotherAgent', row, 'second'))!;
    assert.match(
      chat.draft,
      new RegExp(
        `^Continued from Reference Agent — .* \\(session ${row!.row.sessionId} in \`.*\`\\); nothing of it was kept to brief you with\\.$`,
      ),
    );
  });

  it('keeps the briefing in the message box when the agent fails to start', async () => {
    const a = await api();
    const [row] = await firstAgentRows(a);
    await openKept(a, row!);
    const config = vscode.workspace.getConfiguration('acp');
    const agents = config.get<{ id: string; command: string }[]>('agents')!;
    await config.update(
      'agents',
      [...agents, { id: 'broken', name: 'Broken Agent', command: join(tmpdir(), 'no-such-agent-here') }],
      vscode.ConfigurationTarget.Global,
    );
    await waitFor('the broken agent', () => a.agents.get('broken'));
    try {
      const chat = (await vscode.commands.executeCommand<ChatPanel>('acp.continueInAnotherAgent', row, 'broken'))!;
      await waitFor('the error shown', () => ['error', 'disconnected'].includes(chat.session.thread.status.state));
      assert.ok(chat.draft.startsWith('# Continued from Reference Agent — '), chat.draft);
      assert.equal(chat.session.sessionId, undefined);
      assert.deepEqual(chat.links, []);
    } finally {
      await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    }
  });
});
