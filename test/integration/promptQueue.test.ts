// Follow-ups queued during a turn, against the reference agent: they go one per turn, in order,
// once the turn ends; Stop keeps them, paused, until the user sends one.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost } from '../../src/agent/agentHost';
import { MemoryLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { refAgentConfig, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

describe('Follow-ups queued while the agent works', function () {
  this.timeout(60_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  let host: AgentHost;
  let chat: ChatSession;

  before(() => {
    mkdirSync(cwd);
    host = new AgentHost(refAgentConfig(store), {
      logger: new MemoryLogger(),
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
    });
  });
  beforeEach(async () => {
    chat = new ChatSession(
      host,
      { agentId: 'ref', cwd },
      { logger: new MemoryLogger(), mcpServers: () => [], describeError: (e) => String(e) },
    );
    await chat.attach('new');
  });
  afterEach(async () => {
    await chat.close();
  });
  after(async () => {
    await host.stop();
    dir.cleanup();
  });

  /** The thread as a list of who spoke: `you: text` for prompts, `agent` for a reply. */
  const turns = () =>
    chat.thread.entries
      .filter((e) => e.type === 'user' || e.type === 'agent')
      .map((e) => (e.type === 'user' ? `you: ${e.text}` : 'agent'))
      .filter((line, i, all) => line !== 'agent' || all[i - 1] !== 'agent');

  it('sends queued follow-ups one per turn, in order, when each turn ends', async () => {
    const first = chat.prompt('a slow answer please');
    await waitFor('the turn to start', () => chat.isPrompting);
    assert.equal(chat.capabilities().canQueue, true);
    await chat.prompt('first follow-up');
    await chat.prompt('second follow-up');
    assert.deepEqual(
      chat.queue.state.items.map((i) => i.text),
      ['first follow-up', 'second follow-up'],
    );
    assert.deepEqual(
      turns().filter((t) => t.startsWith('you')),
      ['you: a slow answer please'],
      'nothing queued was sent during the turn',
    );
    await first;
    await waitFor('both follow-ups to be answered', () => turns().length === 6 && !chat.isPrompting);
    assert.deepEqual(turns(), [
      'you: a slow answer please',
      'agent',
      'you: first follow-up',
      'agent',
      'you: second follow-up',
      'agent',
    ]);
    assert.deepEqual(chat.queue.state, { items: [], paused: false });
  });

  it('keeps the queue after Stop, paused, and sends a follow-up when the user asks', async () => {
    const turn = chat.prompt('a slow answer please');
    await waitFor('the turn to start', () => chat.isPrompting);
    await chat.prompt('kept for later');
    await chat.cancel();
    await turn;
    assert.equal(chat.isPrompting, false);
    assert.deepEqual(
      chat.queue.state.items.map((i) => i.text),
      ['kept for later'],
    );
    assert.equal(chat.queue.state.paused, true);
    assert.ok(!turns().includes('you: kept for later'), 'not sent by itself');
    await chat.sendQueued(chat.queue.state.items[0].id);
    assert.deepEqual(turns().slice(-2), ['you: kept for later', 'agent']);
    assert.deepEqual(chat.queue.state, { items: [], paused: false });
  });

  it('refuses a follow-up past the 50th while the turn runs', async () => {
    const turn = chat.prompt('a slow answer please');
    await waitFor('the turn to start', () => chat.isPrompting);
    for (let i = 0; i < 50; i++) await chat.prompt(`follow-up ${i}`);
    await assert.rejects(chat.prompt('one too many'), /Too many follow-ups are queued/);
    assert.equal(chat.queue.size, 50);
    for (const item of chat.queue.state.items) chat.queue.remove(item.id);
    await turn;
  });

  it('waits for a follow-up being edited, then sends the edited text in its place', async () => {
    const turn = chat.prompt('a slow answer please');
    await waitFor('the turn to start', () => chat.isPrompting);
    await chat.prompt('draft');
    const id = chat.queue.state.items[0].id;
    chat.queue.update(id, { editing: true });
    await turn;
    assert.equal(chat.isPrompting, false);
    assert.deepEqual(
      chat.queue.state.items.map((i) => i.text),
      ['draft'],
      'held while edited',
    );
    chat.queue.update(id, { text: 'edited', editing: false });
    chat.drainQueue();
    await waitFor('the edited follow-up to be answered', () => turns().at(-1) === 'agent' && !chat.isPrompting);
    assert.deepEqual(turns().slice(-2), ['you: edited', 'agent']);
  });
});
