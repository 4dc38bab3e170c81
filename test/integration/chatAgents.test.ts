// A chat and its agent's life: new settings, removal, a crash while attaching, the Restart
// button. Chats find their agent through the registry, as in the extension, and nothing here
// calls reattach() by hand: the chat must come back by itself.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ChatSession } from '../../src/chat/chatSession';
import { chatDeps, hostOf, methods, recorded, registryWith } from '../support/chat';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import type { AgentRegistry } from '../../src/agent/agentHost';
import { waitFor } from '../support/wait';

describe('A chat and its agent', function () {
  this.timeout(40_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const registries: AgentRegistry[] = [];
  let n = 0;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 4, 3);
  });
  afterEach(async () => {
    for (const r of registries.splice(0)) {
      await r.stopAll();
      r.dispose();
    }
  });
  after(() => dir.cleanup());

  function setup(switches: string[]) {
    const record = join(dir.path, `record-${++n}.jsonl`);
    const registry = registryWith(refAgentConfig(store, ['--hide-empty', '--record', record, ...switches]));
    registries.push(registry);
    return { registry, record };
  }

  async function firstSession(registry: AgentRegistry, index = 0): Promise<string> {
    const page = await (await hostOf(registry).connect()).listSessions({ cwd });
    return page.sessions[index]!.sessionId;
  }

  function statesOf(chat: ChatSession): string[] {
    const states: string[] = [];
    chat.thread.onDidChange((changes) =>
      changes.forEach((c) => c.kind === 'statusChanged' && states.push(c.status.state)),
    );
    return states;
  }

  const users = (chat: ChatSession) => chat.thread.entries.filter((e) => e.type === 'user').length;
  const dividers = (chat: ChatSession, text: string) =>
    chat.thread.entries.filter((e) => e.type === 'divider' && e.text === text).length;

  it("follows its agent when the agent's settings change: it reattaches on the new process and can prompt", async () => {
    const { registry } = setup([]);
    const chat = new ChatSession(
      registry,
      { agentId: 'ref', sessionId: await firstSession(registry), cwd },
      chatDeps(),
    );
    await chat.attach('load');
    const firstPid = hostOf(registry).connection!.pid;

    registry.update([refAgentConfig(store, ['--hide-empty', '--page-size', '7'])], 'ref');
    await waitFor(
      'the chat on the new agent',
      () => chat.capabilities().canPrompt && hostOf(registry).connection?.pid !== firstPid,
    );
    assert.equal(chat.thread.status.state, 'idle');
    assert.equal(dividers(chat, 'Reconnected'), 1);
    const before = chat.thread.entries.length;
    await chat.prompt('still there after the new settings?');
    assert.ok(
      chat.thread.entries.slice(before).some((e) => e.type === 'agent' && e.text.length > 0),
      'the new agent answers',
    );
    chat.dispose();
  });

  it('says clearly that its agent was removed from the settings, and Retry and Restart say the same', async () => {
    const { registry } = setup([]);
    const chat = new ChatSession(
      registry,
      { agentId: 'ref', sessionId: await firstSession(registry), cwd },
      chatDeps(),
    );
    await chat.attach('load');
    registry.update([], '');
    const removed = /no longer configured in "acp\.agents"/;
    await waitFor('the error', () => chat.thread.status.state === 'error');
    const status = chat.thread.status;
    assert.match(status.state === 'error' ? status.message : '', removed);
    await chat.retry();
    assert.match(chat.thread.status.state === 'error' ? chat.thread.status.message : '', removed);
    await chat.restartAgent();
    assert.match(chat.thread.status.state === 'error' ? chat.thread.status.message : '', removed);
    assert.equal(chat.capabilities().canPrompt, false);
    chat.dispose();
  });

  it('a load cut short by a crash ends "disconnected", and the chat loads again by itself after the automatic restart', async () => {
    const { registry, record } = setup(['--load-delay', '1500']);
    const host = hostOf(registry);
    const chat = new ChatSession(
      registry,
      { agentId: 'ref', sessionId: await firstSession(registry, 1), cwd },
      chatDeps(),
    );
    const states = statesOf(chat);
    const attaching = chat.attach('load');
    await waitFor('session/load sent', () => methods(record).includes('session/load'));
    const firstPid = host.connection!.pid!;
    process.kill(firstPid, 'SIGKILL');
    await attaching;
    assert.ok(!states.includes('error'), `never an error: ${states.join(' → ')}`);
    assert.ok(states.includes('disconnected'), states.join(' → '));

    await waitFor(
      'loaded again on the restarted agent',
      () => chat.history === 'loaded' && chat.thread.status.state === 'idle',
      15_000,
    );
    assert.notEqual(host.connection?.pid, firstPid);
    assert.equal(users(chat), 3, 'the whole history, once');
    assert.ok(chat.capabilities().canPrompt);
    chat.dispose();
  });

  it('a session/new cut short by a crash ends "disconnected", and a session is created after the automatic restart', async () => {
    const { registry, record } = setup(['--delay', '300']);
    const host = hostOf(registry);
    await host.connect();
    const chat = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    const states = statesOf(chat);
    const attaching = chat.attach('new');
    await waitFor('session/new sent', () => methods(record).includes('session/new'));
    const firstPid = host.connection!.pid!;
    process.kill(firstPid, 'SIGKILL');
    await attaching;
    assert.ok(!states.includes('error'), `never an error: ${states.join(' → ')}`);
    assert.ok(states.includes('disconnected'), states.join(' → '));
    await waitFor(
      'a session on the restarted agent',
      () => chat.sessionId !== undefined && chat.capabilities().canPrompt,
      15_000,
    );
    assert.notEqual(host.connection?.pid, firstPid);
    chat.dispose();
  });

  it('the Restart Agent button attaches once: a load-only agent replays the history once, with one "Reconnected"', async () => {
    const { registry, record } = setup(['--no-resume']);
    const chat = new ChatSession(
      registry,
      { agentId: 'ref', sessionId: await firstSession(registry, 2), cwd },
      chatDeps(),
    );
    await chat.attach('load');
    assert.equal(users(chat), 3);
    const loadsBefore = methods(record).filter((m) => m === 'session/load').length;

    await chat.restartAgent();
    await waitFor('idle', () => chat.thread.status.state === 'idle');
    assert.equal(users(chat), 3, 'the history is not doubled');
    assert.equal(dividers(chat, 'Reconnected'), 1);
    assert.equal(
      methods(record).filter((m) => m === 'session/load').length - loadsBefore,
      1,
      'one session/load after the restart',
    );

    await Promise.all([chat.reattach(), chat.reattach(), chat.retry()]);
    assert.equal(users(chat), 3);
    assert.equal(
      methods(record).filter((m) => m === 'session/load').length - loadsBefore,
      2,
      'concurrent reattaches share one load',
    );
    assert.ok(recorded(record).length > 0);
    chat.dispose();
  });
});
