// "ACP: Index This Folder's Sessions" in a real extension host against the reference agent
// (which moves a session's time when it is loaded, as Claude Code does): after the confirmation,
// every session of the folder is loaded in the background and kept, none opened in a chat, so
// Resume Session finds one never opened by a word from the middle of its history. Cancelling
// stops it; a chat whose turn is running holds it until the turn ends.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import type { PermissionEntry } from '../../../../src/protocol/entries';
import { SessionStore } from '../../../agent/store';
import { suiteContext } from '../../../host/suiteContext';
import { recorded } from '../../../support/chat';
import { api, catchMessages } from '../../support';
import { waitFor } from '../../../support/wait';

/** The word said only in the middle of the session added below, which no chat ever opens. */
const WORD = 'xylophonist';

/** What the agent received since `from` (an index into its record). */
const received = (from = 0) => recorded(suiteContext().recordFile!).slice(from);
const count = (method: string, from = 0) => received(from).filter((m) => m.method === method).length;

/**
 * Replaces the progress notification (toasts are hidden in payload mode): what it says, a
 * Cancel the test can press, and whether it ended.
 */
function catchProgress() {
  const original = vscode.window.withProgress;
  const cancel = new vscode.CancellationTokenSource();
  const said: string[] = [];
  let ended = false;
  vscode.window.withProgress = (async (_options, task) => {
    try {
      return await task({ report: (p) => void (p.message && said.push(p.message)) }, cancel.token);
    } finally {
      ended = true;
    }
  }) as typeof original;
  return {
    said,
    cancel: () => cancel.cancel(),
    ended: () => ended,
    restore: () => void (vscode.window.withProgress = original),
  };
}

async function listedIds(a: AcpTestApi, cwd: string): Promise<string[]> {
  const c = await a.agents.all[0]!.connect();
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await c.listSessions({ cwd, ...(cursor ? { cursor } : {}) });
    ids.push(...page.sessions.map((s) => s.sessionId));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/** Runs `fn` with the agent started with other switches, then as it was. */
async function withAgentArgs(change: (args: string[]) => string[], fn: () => Promise<void>): Promise<void> {
  const a = await api();
  const id = a.agents.all[0]!.config.id;
  const config = vscode.workspace.getConfiguration('acp');
  const agents = config.get<{ id: string; args: string[] }[]>('agents')!;
  const set = async (list: typeof agents) => {
    const want = list.find((x) => x.id === id)!.args.join(' ');
    await config.update('agents', list, vscode.ConfigurationTarget.Global);
    await waitFor('the new settings', () => a.agents.get(id)!.config.args.join(' ') === want);
    // Started now, and its lists read again, before anything is counted.
    await a.agents.get(id)!.connect();
    await waitFor('the lists read again', () => a.lists.listsOf(id).every((l) => l.state === 'idle'));
  };
  await set(agents.map((x) => (x.id === id ? { ...x, args: change(x.args) } : x)));
  try {
    await fn();
  } finally {
    await set(agents);
  }
}

describe("Index This Folder's Sessions", function () {
  this.timeout(120_000);
  const cwd = () => suiteContext().folders[0]!;
  let confirmed: string[];
  let progress: ReturnType<typeof catchProgress>;
  let info: ReturnType<typeof catchMessages>;
  let sessionId: string;

  before(async () => {
    // A session written elsewhere (in a terminal, say) whose middle turn holds a word of its own.
    const store = new SessionStore(suiteContext().storeDir);
    sessionId = `sess_${'0123456789abcdef'}`;
    const said = (who: 'user' | 'agent', text: string) => ({
      sessionUpdate: who === 'user' ? ('user_message_chunk' as const) : ('agent_message_chunk' as const),
      content: { type: 'text' as const, text },
    });
    store.add(
      {
        sessionId,
        cwd: cwd(),
        updatedAt: new Date(Date.now() - 30 * 60_000).toISOString(),
        title: 'Tuning the orchestra pipeline',
        turns: 3,
      },
      [
        said('user', 'Set up the build for the orchestra project.'),
        said('agent', 'The build runs with one command now.'),
        said('user', `Why does the ${WORD} step fail on the second bar?`),
        said('agent', 'The step reads the score before it is written; I moved the read after the write.'),
        said('user', 'Thanks, that is all for today.'),
        said('agent', 'Glad it works.'),
      ],
    );
  });
  beforeEach(async () => {
    const a = await api();
    confirmed = [];
    a.setConfirm(async (message) => {
      confirmed.push(message);
      return true;
    });
    progress = catchProgress();
    info = catchMessages('showInformationMessage');
  });
  afterEach(async () => {
    progress.restore();
    info.restore();
    const a = await api();
    a.currentPick()?.quickPick.hide();
    for (const chat of a.chats.all) chat.panel.dispose();
    await waitFor('no chats', () => a.chats.all.length === 0);
  });

  it('keeps every session of the folder, none opened, so Resume Session finds one by a word from its middle', async () => {
    const a = await api();
    const ids = await listedIds(a, cwd());
    assert.ok(ids.includes(sessionId) && ids.length === 7, `the agent lists ${ids.length} sessions`);
    const from = received().length;

    await vscode.commands.executeCommand('acp.library.indexFolder');
    assert.ok(progress.ended(), 'the progress ended');
    assert.equal(confirmed.length, 1);
    assert.match(confirmed[0]!, /Some agents \(Claude Code\) mark a loaded session as updated/);
    assert.ok(progress.said.includes('Reference Agent: 7 of 7'), progress.said.join(' | '));
    assert.match(info.shown.at(-1)!, /^Indexed project's sessions\. Reference Agent: 7 indexed, 0 already kept$/);
    assert.equal(a.chats.all.length, 0, 'no chat was opened');
    assert.equal(count('session/load', from), 7);
    assert.equal(count('session/close', from), 7, 'each loaded session is let go');
    const kept = await a.library.get()!.sessions({ cwd: cwd() });
    assert.deepEqual(kept.map((k) => k.sessionId).sort(), [...ids].sort());
    assert.ok(
      kept.every((k) => k.complete),
      'each kept whole',
    );
    console.log(
      `      indexing 7 sessions: ${count('session/list', from)} session/list requests, ${count('session/load', from)} loads`,
    );

    void vscode.commands.executeCommand('acp.resumeSession');
    const pick = await waitFor('the QuickPick', () => a.currentPick());
    await pick.settled;
    await waitFor('every session searchable', () => /· 7 of 7 searchable by content$/.test(pick.quickPick.title ?? ''));
    pick.type(WORD);
    const hit = await waitFor('the content hit', () =>
      pick.quickPick.items.find((i) => i.row?.sessionId === sessionId && i.detail?.includes(WORD)),
    );
    assert.match(hit.detail!, new RegExp(`Why does the ${WORD} step fail on the second bar`));
    pick.quickPick.hide();

    // Again: the agent moved each loaded session's time, and the library kept the time after the
    // load, so nothing needs loading again.
    const again = received().length;
    await vscode.commands.executeCommand('acp.library.indexFolder');
    assert.match(info.shown.at(-1)!, /Reference Agent: 0 indexed, 7 already kept$/);
    assert.equal(count('session/load', again), 0);
  });

  it('stops when cancelled, the load under way too, keeping fewer sessions than the folder has', async () => {
    const a = await api();
    await a.library.clear();
    // Loads that take a while: the cancel comes while one is under way.
    await withAgentArgs(
      (args) => [...args, '--load-delay', '1500'],
      async () => {
        const from = received().length;
        const done = vscode.commands.executeCommand('acp.library.indexFolder');
        await waitFor('a load under way', () => count('session/load', from) === 1, 20_000);
        progress.cancel();
        await done;
        assert.ok(progress.ended());
        assert.equal(count('session/load', from), 1, 'nothing loaded past the cancel');
        assert.deepEqual(await a.library.get()!.sessions(), [], 'the load cut short is not kept');
        assert.match(info.shown.at(-1)!, /^Stopped indexing project's sessions\. Reference Agent: 0 indexed/);
      },
    );
  });

  it('asks the agent for its list twice however many sessions it loads, when loading leaves their time alone', async () => {
    const a = await api();
    await a.library.clear();
    await withAgentArgs(
      (args) => args.filter((x) => x !== '--touch-on-load'),
      async () => {
        const from = received().length;
        await vscode.commands.executeCommand('acp.library.indexFolder');
        assert.match(info.shown.at(-1)!, /Reference Agent: 7 indexed, 0 already kept$/);
        // The folder's list (one page), and once after the first load: did it move the time?
        assert.deepEqual(
          received(from)
            .filter((m) => m.method === 'session/list')
            .map((m) => m.params.cursor ?? 'first page'),
          ['first page', 'first page'],
        );
        const listed = await a.agents.all[0]!.connect().then((c) => c.listSessions({ cwd: cwd() }));
        for (const k of await a.library.get()!.sessions({ cwd: cwd() }))
          assert.equal(k.updatedAt, listed.sessions.find((s) => s.sessionId === k.sessionId)!.updatedAt);
      },
    );
  });

  it('waits while a chat’s turn runs, and goes on once it ended', async () => {
    const a = await api();
    await a.library.clear();
    const chat = (await a.chats.open({ agentId: a.agents.all[0]!.config.id, cwd: cwd() }, 'new'))!;
    await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
    // The agent's turn waits on a permission card: it runs until the card is answered.
    const turn = chat.session.prompt('permission please');
    const card = await waitFor('the permission card', () =>
      chat.session.thread.entries.find((e): e is PermissionEntry => e.type === 'permission' && !e.outcome),
    );
    const from = received().length;
    const done = vscode.commands.executeCommand('acp.library.indexFolder');
    await waitFor(
      'the indexing to say it waits, again and again',
      () => progress.said.filter((m) => m.endsWith('(waiting for a busy chat)')).length >= 4,
    );
    assert.equal(count('session/load', from), 0, 'nothing loaded while the turn runs');

    chat.session.answerPermission(card.requestId, card.options[0]!.optionId);
    await turn;
    await done;
    assert.equal(count('session/load', from), 7, 'every session but the open chat’s');
    assert.equal(chat.session.thread.status.state, 'idle');
    const kept = await a.library.get()!.sessions({ cwd: cwd() });
    assert.equal(kept.length, 8, 'the open chat keeps its own');
  });
});
