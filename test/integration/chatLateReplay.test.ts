// Agents that answer session/load before replaying the history (Gemini CLI sends all but the
// first message after the response): the history is whole and its last message is finished,
// so the webview renders it as Markdown instead of as a message still being written.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRegistry } from '../../src/agent/agentHost';
import { ChatSession } from '../../src/chat/chatSession';
import { chatDeps, registryWith } from '../support/chat';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor, quietFor } from '../support/wait';

describe('A load whose replay goes on after the response', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  let registry: AgentRegistry;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 1, 1);
  });
  afterEach(async () => {
    await registry?.stopAll();
    registry?.dispose();
  });
  after(() => dir.cleanup());

  it('keeps every late update and finishes the last message once the agent goes quiet', async () => {
    // The agent sends the second half of the replay only once its response to the load is on
    // the wire (--late-updates), with a pause before each message (shorter than the quiet
    // period that ends an open message).
    registry = registryWith(refAgentConfig(store, ['--late-updates', '--delay', '20']));
    // A session whose history ends with the agent's message (a plain prompt is echoed), as
    // Gemini CLI's do: nothing after that message in the replay ends it.
    const first = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    await first.attach('new');
    await first.prompt('hello there');
    await first.close();

    const chat = new ChatSession(registry, { agentId: 'ref', sessionId: first.sessionId!, cwd }, chatDeps());
    await chat.attach('load');
    const last = () => chat.thread.entries.at(-1);
    // The agent's reply is in the half sent after the response: it arrives all the same.
    await waitFor('the rest of the replay', () => last()?.type === 'agent');
    const finished = () => {
      const e = last();
      return e?.type === 'agent' && e.done ? e : undefined;
    };
    await waitFor('the last message finished', () => finished() !== undefined, 3_000);
    assert.match(finished()!.text, /Try a prompt/);
    assert.equal(chat.thread.status.state, 'idle');
    chat.dispose();
  });

  it("does not end a prompt's message while the turn runs", async () => {
    registry = registryWith(refAgentConfig(store, ['--delay', '500', '--reply-chunks', '6']));
    const chat = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    await chat.attach('new');
    const before = chat.thread.entries.length;
    const turn = chat.prompt('long');
    // The reply streams slowly (500 ms between chunks, longer than the settle time): its message stays open.
    await waitFor('the reply to start', () => chat.thread.entries.slice(before).some((e) => e.type === 'agent'));
    await quietFor(900);
    const open = chat.thread.entries.slice(before).filter((e) => e.type === 'agent' && !e.done);
    assert.equal(open.length, 1, 'the streaming reply is still open mid-turn');
    await chat.cancel();
    await turn;
    chat.dispose();
  });
});
