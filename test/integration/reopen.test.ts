import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost } from '../../src/agent/agentHost';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { silentLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };

/**
 * A chat closed and the same session opened again at once: the first chat waits for the agent
 * to answer `session/close`, and the second must not wait for it, nor fail because the session
 * is still routed to the chat that is going.
 */
describe('Opening a session again while its last chat is closing', function () {
  this.timeout(60_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  let host: AgentHost | undefined;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 1, 3);
  });
  afterEach(async () => {
    await host?.stop();
  });
  after(() => dir.cleanup());

  it('attaches at once with the whole history, and the session’s updates reach the new chat', async () => {
    // The agent never answers session/close: the first chat stays closing.
    host = new AgentHost(refAgentConfig(store, ['--hang', 'session/close']), {
      logger: silentLogger,
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => handlers,
    });
    const deps = { logger: silentLogger, mcpServers: async () => [], describeError: (e: unknown) => String(e) };
    const index = JSON.parse(readFileSync(join(store, 'index.json'), 'utf8')) as { sessions: { sessionId: string }[] };
    const target = { agentId: 'ref', sessionId: index.sessions[0]!.sessionId, cwd };

    const first = new ChatSession(host, target, deps);
    await first.attach('load');
    const history = first.thread.entries.length;
    assert.ok(history > 0);
    let closed = false;
    void first.close().then(() => (closed = true));

    const again = new ChatSession(host, target, deps);
    await again.attach('load');
    assert.equal(
      again.thread.entries.length,
      history,
      `the whole history, once: ${JSON.stringify(again.thread.status)}`,
    );
    await again.prompt('hello again');
    await waitFor('the reply in the new chat', () =>
      again.thread.entries.some((e) => e.type === 'agent' && e.text.includes('hello again')),
    );
    assert.equal(first.thread.entries.length, history, 'the closing chat got none of it');
    assert.equal(closed, false, 'the first chat is still waiting for session/close');
    // Its close would wait for the agent too; stopping the agent (afterEach) ends both.
  });
});
