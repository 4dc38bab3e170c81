// The registry of open chat sessions, wired to the reference agent as the extension wires it:
// every request the agent makes about a session (permission, elicitation, roots, terminal
// output) reaches that session's chat, and nobody else's; a session no chat holds gets
// "cancelled". Plain Node: no VS Code is needed to route.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRegistry } from '../../src/agent/agentHost';
import { ChatSession } from '../../src/chat/chatSession';
import type { SessionKey } from '../../src/agent/sessionKey';
import { OpenSessions } from '../../src/chat/openSessions';
import type { ElicitationEntry, PermissionEntry, ToolCallEntry } from '../../src/protocol/entries';
import { chatDeps, hostDeps } from '../support/chat';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { agentTerminals } from '../../src/chat/terminalFeed';
import { silentLogger } from '../../src/agent/log';
import { waitFor } from '../support/wait';

/** The last agent message of a chat's thread. */
const lastAgentText = (chat: ChatSession) =>
  chat.thread.entries
    .filter((e) => e.type === 'agent')
    .map((e) => (e.type === 'agent' ? e.text : ''))
    .at(-1) ?? '';

const cards = (chat: ChatSession) => chat.thread.entries.filter((e): e is PermissionEntry => e.type === 'permission');

describe('Open chat sessions: routing what the agent asks', function () {
  this.timeout(40_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  let sessions: OpenSessions;
  let registry: AgentRegistry;
  const chats: ChatSession[] = [];

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 1, 1);
  });
  beforeEach(() => {
    sessions = new OpenSessions();
    // As activate() wires it: each agent's handlers are the registry's, terminals included.
    registry = new AgentRegistry({
      ...hostDeps(),
      handlers: (config) => ({
        ...sessions.handlersFor(config.id),
        terminals: agentTerminals(config, silentLogger, sessions),
      }),
    });
    registry.update([refAgentConfig(store)], 'ref');
  });
  afterEach(async () => {
    await Promise.all(chats.splice(0).map((c) => sessions.close(c)));
    await registry.stopAll();
    registry.dispose();
    sessions.dispose();
  });
  after(() => dir.cleanup());

  /** A new session in a chat the registry holds, as a chat panel holds it. */
  async function openChat(agentId = 'ref'): Promise<ChatSession> {
    const chat = new ChatSession(registry, { agentId, cwd }, chatDeps());
    chats.push(chat);
    sessions.add(chat);
    await chat.attach('new');
    return chat;
  }

  it('names a new session once the agent created it, and says so', async () => {
    const opened: SessionKey[] = [];
    const created: ChatSession[] = [];
    sessions.onDidChangeOpen((k) => opened.push(k));
    sessions.onDidCreateSession((s) => created.push(s));
    const chat = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    chats.push(chat);
    sessions.add(chat);
    assert.deepEqual(sessions.all, [chat], 'held before it has an id');
    await chat.attach('new');
    const id = chat.sessionId!;
    assert.equal(sessions.get('ref', id), chat);
    assert.ok(sessions.isOpen('ref', id));
    assert.ok(!sessions.isOpen('other', id), 'keyed by agent too');
    assert.deepEqual(opened, [{ agentId: 'ref', sessionId: id }]);
    assert.deepEqual(created, [chat]);
  });

  it("shows a permission request in the chat of the session it names, and sends that chat's answer", async () => {
    const asked = await openChat();
    const bystander = await openChat();
    const turn = asked.prompt('permission');
    await waitFor('the card', () => cards(asked).length === 1);
    assert.equal(cards(bystander).length, 0, 'the other chat shows nothing');
    const card = cards(asked)[0]!;
    assert.match(card.title, /protected\.ts/);
    asked.answerPermission(card.requestId, 'allow-once');
    await turn;
    assert.deepEqual(cards(asked)[0]!.outcome, { optionId: 'allow-once' });
    assert.match(lastAgentText(asked), /\*\*selected\*\* `allow-once` — the edit was made/);
  });

  it('answers "cancelled" for a session no chat holds, and for a chat that was let go', async () => {
    const chat = await openChat();
    sessions.remove(chat);
    assert.ok(!sessions.isOpen('ref', chat.sessionId!));
    await chat.prompt('permission');
    assert.equal(cards(chat).length, 0, 'no card: the request never reached the chat');
    assert.match(lastAgentText(chat), /Permission outcome: \*\*cancelled\*\*/);
    assert.equal(sessions.rootsFor('ref', chat.sessionId!), undefined, 'no roots either');
  });

  it("gives a session's roots only for the agent that holds it", async () => {
    const chat = await openChat();
    assert.deepEqual(
      sessions.rootsFor('ref', chat.sessionId!)?.map((r) => r.path),
      [cwd],
    );
    assert.equal(sessions.rootsFor('other', chat.sessionId!), undefined);
    assert.equal(sessions.handlersFor('other').rootsFor!(chat.sessionId!), undefined);
  });

  it('shows an elicitation in the chat of its session, and closes a URL card on elicitation/complete', async () => {
    const chat = await openChat();
    const other = await openChat();
    const elicitation = () =>
      chat.thread.entries.find((e): e is ElicitationEntry => e.type === 'elicitation' && e.outcome === undefined);
    const turn = chat.prompt('elicit url');
    await waitFor('the URL card', () => elicitation() !== undefined);
    assert.ok(!other.thread.entries.some((e) => e.type === 'elicitation'), 'not in the other chat');
    const card = elicitation()!;
    assert.ok(chat.elicitations.answer(card.requestId, 'accept'));
    await turn;
    const done = chat.thread.entries.find((e): e is ElicitationEntry => e.type === 'elicitation')!;
    assert.equal(done.outcome, 'accept');
    assert.equal(done.completed, true, 'elicitation/complete reached the chat that holds it');
  });

  it('streams terminal output into the tool call of the chat whose session ran it', async () => {
    const chat = await openChat();
    const other = await openChat();
    await chat.prompt('all');
    const tool = () =>
      chat.thread.entries.find(
        (e): e is ToolCallEntry => e.type === 'tool' && e.content.some((c) => c.type === 'terminal'),
      );
    await waitFor('the terminal output', () =>
      /hello/.test(Object.values(tool()?.terminalOutput ?? {})[0]?.output ?? ''),
    );
    assert.ok(!other.thread.entries.some((e) => e.type === 'tool'), 'nothing in the other chat');
  });

  it('lets the session go on close: the open state changes at once, the closed event after the close', async () => {
    const chat = await openChat();
    const id = chat.sessionId!;
    const events: string[] = [];
    sessions.onDidChangeOpen((k) => events.push(`open ${k.sessionId} ${sessions.isOpen(k.agentId, k.sessionId)}`));
    sessions.onDidCloseSession((k) => events.push(`closed ${k.sessionId} ${chat.isDisposed}`));
    chats.splice(chats.indexOf(chat), 1);
    const closing = sessions.close(chat);
    assert.deepEqual(events, [`open ${id} false`], 'out of the registry before the close completes');
    await closing;
    assert.deepEqual(events, [`open ${id} false`, `closed ${id} true`]);
    assert.deepEqual(sessions.all, []);
  });
});
