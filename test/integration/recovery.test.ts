import assert from 'node:assert/strict';
import { AgentHost, type AgentState } from '../../src/agent/agentHost';
import { AgentExited } from '../../src/agent/errors';
import { MemoryLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { join } from 'node:path';
import type { DividerEntry } from '../../src/protocol/entries';
import { chatDeps, hostOf, methods, registryWith, useRegistries } from '../support/chat';
import { refAgentConfig, seed, tempDir, useSeededFolder } from '../support/refAgent';
import { waitFor, quietFor } from '../support/wait';

describe('Recovery when the agent dies', function () {
  this.timeout(40_000);
  const { store, cwd, running: hosts } = useSeededFolder<AgentHost>(5, 3);
  const registries = useRegistries();

  function host(switches: string[], logger = new MemoryLogger()) {
    const h = new AgentHost(refAgentConfig(store, switches), {
      logger,
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
      restartBaseMs: 50,
    });
    hosts.push(h);
    return h;
  }

  it('marks a turn in flight as interrupted, restarts the agent, and re-attaches without duplicating history', async () => {
    const h = host(['--crash-on', 'session/prompt', '--hide-empty']);
    const c = await h.connect();
    const firstPid = c.pid;
    const page = await c.listSessions({ cwd });
    const chat = new ChatSession(
      h,
      { agentId: 'ref', sessionId: page.sessions[0]!.sessionId, cwd },
      { logger: new MemoryLogger(), mcpServers: () => [], describeError: (e) => String(e) },
    );
    await chat.attach('load');
    const users = () => chat.thread.entries.filter((e) => e.type === 'user').length;
    const replayed = users();
    assert.equal(replayed, 3);

    await chat.prompt('this will crash the agent');
    assert.equal(chat.thread.status.state, 'disconnected');
    assert.ok(
      chat.thread.entries.some((e) => e.type === 'divider' && /interrupted/i.test(e.text)),
      'the turn is marked interrupted',
    );
    const draftKept = chat.thread.entries.filter((e) => e.type === 'user').at(-1);
    assert.equal(
      draftKept?.type === 'user' && draftKept.text,
      'this will crash the agent',
      'what the user sent stays visible',
    );

    await waitFor('the automatic restart', () => h.state.kind === 'ready' && h.connection?.pid !== firstPid);
    await chat.reattach();
    assert.equal(chat.thread.status.state, 'idle');
    assert.ok(chat.thread.entries.some((e) => e.type === 'divider' && e.text === 'Reconnected'));
    assert.equal(users(), replayed + 1, 'resume keeps the history without replaying it again');
    chat.dispose();
  });

  it('replaces the history instead of duplicating it when it must load again', async () => {
    const h = host(['--crash-on', 'session/prompt', '--hide-empty', '--no-resume']);
    const c = await h.connect();
    const page = await c.listSessions({ cwd });
    const chat = new ChatSession(
      h,
      { agentId: 'ref', sessionId: page.sessions[1]!.sessionId, cwd },
      { logger: new MemoryLogger(), mcpServers: () => [], describeError: (e) => String(e) },
    );
    await chat.attach('load');
    const before = chat.thread.entries.filter((e) => e.type === 'user').length;
    await chat.prompt('crash');
    await waitFor('the automatic restart', () => h.state.kind === 'ready');
    await chat.reattach();
    assert.equal(
      chat.thread.entries.filter((e) => e.type === 'user').length,
      before,
      'the replay replaced what was shown',
    );
    chat.dispose();
  });

  it('lets the user cancel a long load, keeping what arrived and saying the history is partial', async () => {
    const h = host(['--delay', '30', '--hide-empty']);
    const c = await h.connect();
    const page = await c.listSessions({ cwd });
    const chat = new ChatSession(
      h,
      { agentId: 'ref', sessionId: page.sessions[2]!.sessionId, cwd },
      { logger: new MemoryLogger(), mcpServers: () => [], describeError: (e) => String(e) },
    );
    const attaching = chat.attach('load');
    await waitFor('some history', () => chat.thread.entries.length >= 2);
    chat.cancelLoad();
    await attaching;
    assert.equal(chat.thread.status.state, 'idle');
    const dividers = chat.thread.entries
      .filter((e) => e.type === 'divider')
      .map((e) => (e.type === 'divider' ? e.text : ''));
    assert.ok(
      dividers.some((t) => /partial/.test(t)),
      dividers.join(', '),
    );
    assert.ok(
      chat.thread.entries.some((e) => e.type === 'user'),
      'what arrived stays',
    );
    assert.ok(chat.capabilities().canPrompt);
    const before = chat.thread.entries.length;
    await chat.prompt('still there?');
    assert.ok(
      chat.thread.entries.slice(before).some((e) => e.type === 'agent'),
      'a prompt after the cancel gets its reply',
    );
    chat.dispose();
  });

  it('stops restarting after three crashes in a row and stays stopped', async () => {
    const states: AgentState['kind'][] = [];
    const h = host(['--crash-after', '2']);
    h.onDidChangeState((s) => states.push(s.kind));
    for (let i = 0; i < 4; i++) {
      const c = await h.connect();
      await assert.rejects(c.listSessions({ cwd }), AgentExited);
      await waitFor('the failed state', () => h.state.kind === 'failed');
      if (i < 3) await waitFor(`restart ${i + 1}`, () => h.state.kind === 'ready', 5000);
    }
    await quietFor(1000);
    assert.equal(h.state.kind, 'failed', 'no fourth automatic restart');
    assert.equal(states.filter((s) => s === 'ready').length, 4, 'the first start and three restarts');
  });

  describe('in the middle of a replay', () => {
    const dir = tempDir();
    after(() => dir.cleanup());
    const replayed = (chat: ChatSession) => chat.thread.entries.filter((e) => e.type !== 'divider').length;
    const partial = (chat: ChatSession) =>
      chat.thread.entries.filter((e): e is DividerEntry => e.type === 'divider' && /History is partial/.test(e.text));
    let n = 0;

    /**
     * A chat loading a 10-turn session with an agent that crashes after 20 replayed updates (the
     * first time: a marker in its store remembers), in a registry as the extension has.
     */
    async function crashedLoad() {
      const store = join(dir.path, `store-${++n}`);
      seed(store, [cwd], 1, 10);
      const record = join(dir.path, `record-${n}.jsonl`);
      const config = refAgentConfig(store, ['--crash-after-replayed', '20', '--record', record]);
      const registry = registryWith(config);
      registries.push(registry);
      const c = await hostOf(registry).connect();
      const session = (await c.listSessions({ cwd })).sessions[0]!;
      const chat = new ChatSession(registry, { agentId: 'ref', sessionId: session.sessionId, cwd }, chatDeps());
      await chat.attach('load');
      return { registry, chat, config, record, firstPid: c.pid };
    }

    it('says the history is partial where it stops, then loads it again whole (not a resume) after the restart', async () => {
      const { registry, chat, record, firstPid } = await crashedLoad();
      assert.equal(chat.thread.status.state, 'disconnected');
      const cut = replayed(chat);
      assert.equal(partial(chat).length, 1);
      assert.match(partial(chat)[0]!.text, /History is partial: .*exit code 3/);
      assert.equal(partial(chat)[0]!.retry, true, 'with Retry');

      await waitFor(
        'the automatic restart and reattach',
        () => hostOf(registry).connection?.pid !== firstPid && chat.thread.status.state === 'idle',
      );
      assert.ok(replayed(chat) > cut, `${cut} entries before the crash, ${replayed(chat)} after the load`);
      assert.deepEqual(partial(chat), [], 'the whole history replaced the part');
      assert.equal(chat.history, 'loaded');
      assert.deepEqual(
        methods(record).filter((m) => m.startsWith('session/') && m !== 'session/list'),
        ['session/load', 'session/load'],
        'loaded again, never resumed',
      );
      chat.dispose();
    });

    it('keeps what arrived under the divider, with Retry, when the agent can no longer load it', async () => {
      const { registry, chat, config } = await crashedLoad();
      const cut = replayed(chat);
      // New settings while it is down: the same agent, no longer able to load.
      registry.update([{ ...config, args: [...config.args, '--no-load'] }], 'ref');
      await waitFor('reattached by resume', () => chat.thread.status.state === 'idle');
      assert.equal(replayed(chat), cut, 'what arrived stays');
      assert.equal(partial(chat).length, 1, 'and says it is partial');
      assert.equal(partial(chat)[0]!.retry, true);
      assert.ok(chat.capabilities().canPrompt, 'the chat goes on');
      chat.dispose();
    });
  });
});
