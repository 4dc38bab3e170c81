import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost } from '../../src/agent/agentHost';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { silentLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { longReply } from '../agent/replies';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };

/** Every character of the thread's agent messages. */
function agentText(chat: ChatSession): string {
  return chat.thread.entries.map((e) => (e.type === 'agent' ? e.text : '')).join('');
}

/**
 * Two chats on one agent process at once: a long history replays into one while the other
 * streams a 1 MiB reply. The updates of the two sessions interleave on one stdio stream, and
 * each chat must get all of its own and none of the other's.
 */
describe('Two chats on one agent at once', function () {
  this.timeout(120_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  let host: AgentHost | undefined;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 1, 2000);
  });
  afterEach(async () => {
    await host?.stop();
  });
  after(() => dir.cleanup());

  it('loses nothing: the replay is whole and the streamed reply is whole, each in its own chat', async () => {
    host = new AgentHost(refAgentConfig(store, ['--reply-chunks', '2000']), {
      logger: silentLogger,
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => handlers,
    });
    const deps = { logger: silentLogger, mcpServers: async () => [], describeError: (e: unknown) => String(e) };
    const index = JSON.parse(readFileSync(join(store, 'index.json'), 'utf8')) as { sessions: { sessionId: string }[] };
    const sessionId = index.sessions[0]!.sessionId;

    // The replay alone first: what a whole history looks like.
    const alone = new ChatSession(host, { agentId: 'ref', sessionId, cwd }, deps);
    await alone.attach('load');
    const expected = alone.thread.entries.length;
    const expectedText = agentText(alone);
    await alone.close();

    const talking = new ChatSession(host, { agentId: 'ref', cwd }, deps);
    await talking.attach('new');
    // The order the updates of both sessions come in on the one stream.
    const arrivals: ('reply' | 'replay')[] = [];
    const watch = host.connection!.router.onAnyUpdate((n) =>
      arrivals.push(n.sessionId === sessionId ? 'replay' : 'reply'),
    );
    const replaying = new ChatSession(host, { agentId: 'ref', sessionId, cwd }, deps);
    const reply = talking.prompt('long');
    await waitFor('the reply to start streaming', () => arrivals.includes('reply'));
    await Promise.all([replaying.attach('load'), reply]);
    watch.dispose();

    // They really overlapped: replay updates came while the reply streamed, and the other way.
    const first = (k: 'reply' | 'replay') => arrivals.indexOf(k);
    const last = (k: 'reply' | 'replay') => arrivals.lastIndexOf(k);
    assert.ok(first('replay') >= 0 && first('replay') < last('reply'), 'the replay began before the reply ended');
    assert.ok(first('reply') < last('replay'), 'the reply began before the replay ended');
    const switches = arrivals.filter((k, i) => i > 0 && k !== arrivals[i - 1]).length;
    assert.ok(switches >= 2, `the two streams interleave (${switches} switches)`);

    assert.equal(replaying.thread.entries.length, expected, 'the replay is whole');
    assert.equal(agentText(replaying), expectedText, 'and has none of the other chat’s reply');
    assert.equal(agentText(talking), longReply(), 'the reply arrived whole, in order');
    assert.equal(talking.thread.status.state, 'idle');
  });
});
