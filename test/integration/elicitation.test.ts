// Elicitation end to end against the reference agent: the client announces it, the agent asks
// for a form or a URL, the chat shows a card, and what the user answers is what the agent gets.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { AgentHost } from '../../src/agent/agentHost';
import { MemoryLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import type { ElicitationEntry } from '../../src/protocol/entries';
import { HOSTILE_ADDRESS } from '../agent/replies';
import { refAgentConfig, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

describe('Elicitation', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const answers: CreateElicitationResponse[] = [];
  let host: AgentHost;
  const chats: ChatSession[] = [];

  before(() => mkdirSync(cwd));
  beforeEach(() => {
    answers.length = 0;
    // The bridge ChatPanels is in the extension: the session that the request names answers it.
    host = new AgentHost(refAgentConfig(store), {
      logger: new MemoryLogger(),
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => ({
        requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
        elicit: async (params, signal) => {
          const chat = chats.find((c) => c.sessionId === (params as { sessionId?: string }).sessionId);
          const answer = chat ? await chat.elicitations.request(params, signal) : { action: 'cancel' as const };
          answers.push(answer);
          return answer;
        },
        completeElicitation: ({ elicitationId }) => chats.forEach((c) => c.elicitations.complete(elicitationId)),
      }),
    });
  });
  afterEach(async () => {
    chats.splice(0).forEach((c) => c.dispose());
    await host.stop();
  });
  after(() => dir.cleanup());

  async function newChat(): Promise<ChatSession> {
    const chat = new ChatSession(
      host,
      { agentId: 'ref', cwd },
      { logger: new MemoryLogger(), mcpServers: () => [], describeError: (e) => String(e) },
    );
    chats.push(chat);
    await chat.attach('new');
    return chat;
  }
  const card = (chat: ChatSession) => () =>
    chat.thread.entries.find((e): e is ElicitationEntry => e.type === 'elicitation' && e.outcome === undefined);
  const lastAgentText = (chat: ChatSession) =>
    chat.thread.entries
      .filter((e) => e.type === 'agent')
      .map((e) => (e.type === 'agent' ? e.text : ''))
      .at(-1) ?? '';

  it('shows the form, refuses input that does not match the schema, and sends typed values the agent receives', async () => {
    const chat = await newChat();
    const turn = chat.prompt('elicit');
    const entry = await waitFor('the form card', card(chat));
    assert.equal(entry.mode, 'form');
    assert.equal(entry.message, 'Tell me about the project.');
    assert.ok(entry.schema?.properties?.languages, 'the schema reaches the card');

    assert.equal(
      chat.elicitations.answer(entry.requestId, 'accept', { name: 'x', seats: '3', languages: [] }),
      false,
      'too short a name, no language',
    );
    assert.equal(
      chat.elicitations.answer(entry.requestId, 'accept', { name: 'Atlas', seats: 'three', languages: ['Rust'] }),
      false,
      'seats is not a number',
    );
    const values = {
      name: 'Atlas',
      email: 'dev@example.com',
      homepage: 'https://example.com',
      due: '2025-03-31',
      meeting: '2025-03-01T09:30:00Z',
      seats: '12',
      budget: '2.5',
      public: false,
      licence: 'Apache-2.0',
      size: 'm',
      languages: ['Rust', 'TypeScript'],
      tools: [],
    };
    assert.equal(chat.elicitations.answer(entry.requestId, 'accept', values), true);
    await turn;
    const expected = { ...values, seats: 12, budget: 2.5 };
    const json = /```json\n(.*)\n```/.exec(lastAgentText(chat))?.[1];
    assert.match(lastAgentText(chat), /^Form elicitation: \*\*accept\*\*/);
    assert.deepEqual(JSON.parse(json ?? 'null'), expected, 'the agent got the content, typed as the schema says');
    assert.equal(
      chat.thread.entries.find((e) => e.type === 'elicitation')?.type === 'elicitation' &&
        (chat.thread.entries.find((e) => e.type === 'elicitation') as ElicitationEntry).outcome,
      'accept',
    );
  });

  it('answers decline, and cancel when the turn is cancelled', async () => {
    const chat = await newChat();
    let turn = chat.prompt('elicit');
    chat.elicitations.answer((await waitFor('the card', card(chat))).requestId, 'decline');
    await turn;
    assert.equal(lastAgentText(chat), 'Form elicitation: **decline**');

    turn = chat.prompt('elicit again');
    await waitFor('the second card', card(chat));
    await chat.cancel();
    await turn;
    assert.deepEqual(
      answers.map((a) => a.action),
      ['decline', 'cancel'],
    );
    const entries = chat.thread.entries.filter((e): e is ElicitationEntry => e.type === 'elicitation');
    assert.deepEqual(
      entries.map((e) => e.outcome),
      ['decline', 'cancel'],
    );
  });

  it('refuses to accept an address that shows one site and would open another; Decline still answers', async () => {
    const chat = await newChat();
    const turn = chat.prompt('elicit url hostile');
    const entry = await waitFor('the card', card(chat));
    assert.equal(entry.url, HOSTILE_ADDRESS);
    assert.equal(chat.elicitations.urlOf(entry.requestId), undefined, 'nothing to open');
    assert.equal(chat.elicitations.answer(entry.requestId, 'accept'), false);
    assert.equal(chat.elicitations.answer(entry.requestId, 'decline'), true);
    await turn;
    assert.equal(lastAgentText(chat), 'URL elicitation: **decline**');
  });

  it('accepts a URL elicitation and closes its card when the agent says it completed', async () => {
    const chat = await newChat();
    const turn = chat.prompt('elicit url');
    const entry = await waitFor('the URL card', card(chat));
    assert.equal(entry.mode, 'url');
    assert.match(entry.url ?? '', /^https:\/\/example\.com\/acp-reference\/sign-in\?session=/);
    assert.equal(chat.elicitations.urlOf(entry.requestId), entry.url);
    assert.equal(chat.elicitations.answer(entry.requestId, 'accept'), true);
    await turn;
    assert.equal(lastAgentText(chat), 'URL elicitation: **accept** (completed)');
    const shown = chat.thread.entries.find((e): e is ElicitationEntry => e.type === 'elicitation');
    assert.equal(shown?.outcome, 'accept');
    assert.equal(shown?.completed, true, 'elicitation/complete closed the card');
  });

  it('answers cancel for a card still pending when the chat closes', async () => {
    const chat = await newChat();
    void chat.prompt('elicit').catch(() => undefined);
    await waitFor('the card', card(chat));
    await chat.close();
    await waitFor('the answer', () => answers[0]);
    assert.deepEqual(answers, [{ action: 'cancel' }]);
  });
});
