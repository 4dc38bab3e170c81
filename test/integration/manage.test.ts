// Rename, archive and fork through the agent layer, against the reference agent with each
// capability advertised and withheld. A withheld method is never sent: the agent's record of
// what it received proves it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { ErrorCodes, ProtocolError } from '../../src/agent/errors';
import { MemoryLogger } from '../../src/agent/log';
import { forkSession, setSessionArchived, setSessionTitle } from '../../src/agent/manage';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };

describe('Session management against the reference agent', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const cwd = join(dir.path, 'project');
  const open: AgentConnection[] = [];
  let n = 0;

  before(() => mkdirSync(cwd));
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.stop()));
  });
  after(() => dir.cleanup());

  /** A fresh store of `sessions` sessions and an agent on it that records what it receives. */
  async function start(switches: string[] = [], sessions = 5) {
    const store = join(dir.path, `store-${++n}`);
    const record = join(dir.path, `record-${n}.ndjson`);
    seed(store, [cwd], sessions, 2);
    const logger = new MemoryLogger();
    const c = await AgentConnection.start({
      config: refAgentConfig(store, [...switches, '--record', record]),
      logger,
      handlers,
      clientInfo: { name: 'acp-client-test', version: '0.0.0' },
    });
    open.push(c);
    const received = (method: string) =>
      existsSync(record)
        ? readFileSync(record, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { method: string; params: Record<string, unknown> })
            .filter((m) => m.method === method)
        : [];
    const list = async (archived?: 'only' | 'include') => (await c.listSessions({ cwd, archived })).sessions;
    return { c, logger, received, list };
  }

  const refusedWith = (code: number) => (e: unknown) => e instanceof ProtocolError && e.code === code;

  describe('rename (session/set_title)', () => {
    it('stores the name; the agent answers with what it stored, and lists it in place', async () => {
      const { c, list } = await start();
      assert.equal(c.features.title, true);
      const before = await list();
      const target = before[2]!;
      const stored = await setSessionTitle(c, target.sessionId, '  Release\nchecklist  ');
      assert.equal(stored, 'Release checklist', 'the agent trimmed and joined it');
      const after = await list();
      assert.deepEqual(
        after.map((s) => s.sessionId),
        before.map((s) => s.sessionId),
        'no row moved',
      );
      assert.equal(after[2]!.title, 'Release checklist');
      assert.equal(after[2]!.updatedAt, target.updatedAt);
    });

    it('tells the routed session of the new title with a session_info_update', async () => {
      const { c, list } = await start();
      const id = (await list())[0]!.sessionId;
      const titles: unknown[] = [];
      const route = c.router.register(id, (u) => {
        if (u.update.sessionUpdate === 'session_info_update') titles.push(u.update.title);
      });
      await setSessionTitle(c, id, 'Named');
      await waitFor('the title update', () => titles.length > 0);
      route.dispose();
      assert.deepEqual(titles, ['Named']);
    });

    it('shows the agent refusing an empty title (-32602) and an unknown session (-32002)', async () => {
      const { c, list } = await start();
      const id = (await list())[0]!.sessionId;
      await assert.rejects(setSessionTitle(c, id, '   '), refusedWith(ErrorCodes.InvalidParams));
      await assert.rejects(setSessionTitle(c, 'sess_nope', 'x'), refusedWith(-32002));
    });

    it('is never sent to an agent that withholds it', async () => {
      const { c, received, list } = await start(['--no-title']);
      assert.equal(c.features.title, false);
      const id = (await list())[0]!.sessionId;
      await assert.rejects(setSessionTitle(c, id, 'Named'), /cannot rename sessions/);
      assert.deepEqual(received('session/set_title'), []);
      assert.notEqual((await list())[0]!.title, 'Named');
    });
  });

  describe('archive (session/archive, session/unarchive, the archived filter)', () => {
    it('leaves the default list and shows in the archived one, then comes back', async () => {
      const { c, list, received } = await start();
      assert.equal(c.features.archive, true);
      const rows = await list();
      assert.ok(
        rows.every((r) => r.archived === false),
        'every row says it is not archived',
      );
      const id = rows[1]!.sessionId;
      await setSessionArchived(c, id, true);
      assert.deepEqual(
        (await list()).map((s) => s.sessionId),
        rows.filter((r) => r.sessionId !== id).map((r) => r.sessionId),
      );
      const archived = await list('only');
      assert.deepEqual(
        archived.map((s) => [s.sessionId, s.archived]),
        [[id, true]],
      );
      assert.equal((await list('include')).length, rows.length);
      await setSessionArchived(c, id, false);
      assert.deepEqual(
        (await list()).map((s) => s.sessionId),
        rows.map((r) => r.sessionId),
        'back in its place',
      );
      assert.deepEqual(
        received('session/list').map((m) => m.params.archived),
        [undefined, undefined, 'only', 'include', undefined],
        'the filter goes out only when asked for',
      );
    });

    it('ends a running turn of the session it archives', async () => {
      const { c, list } = await start();
      const id = (await list())[0]!.sessionId;
      let streaming!: () => void;
      const started = new Promise<void>((r) => (streaming = r));
      const route = c.router.register(id, (u) => {
        if (u.update.sessionUpdate === 'agent_message_chunk') streaming();
      });
      await c.resumeSession({ sessionId: id, cwd, mcpServers: [] });
      const turn = c.prompt({ sessionId: id, prompt: [{ type: 'text', text: 'slow' }] });
      await started;
      await setSessionArchived(c, id, true);
      assert.equal((await turn).stopReason, 'cancelled');
      route.dispose();
    });

    it('refuses an unknown session with -32002', async () => {
      const { c } = await start();
      await assert.rejects(setSessionArchived(c, 'sess_nope', true), refusedWith(-32002));
    });

    it('is never sent to an agent that withholds it, nor is the filter', async () => {
      const { c, received, list } = await start(['--no-archive']);
      assert.equal(c.features.archive, false);
      const rows = await list();
      assert.ok(
        rows.every((r) => r.archived === undefined),
        'no archive state reported',
      );
      await assert.rejects(setSessionArchived(c, rows[0]!.sessionId, true), /cannot archive sessions/);
      await assert.rejects(setSessionArchived(c, rows[0]!.sessionId, false), /cannot unarchive sessions/);
      await assert.rejects(list('only'), /cannot list archived sessions/);
      await c.listSessions({ cwd, archived: 'exclude' });
      assert.deepEqual(received('session/archive'), []);
      assert.deepEqual(received('session/unarchive'), []);
      assert.ok(
        received('session/list').every((m) => !('archived' in m.params)),
        'the filter never went out',
      );
    });
  });

  describe('fork (session/fork)', () => {
    it('makes a new session with the whole history, listed at the top, independent of the source', async () => {
      const { c, list } = await start();
      assert.equal(c.features.fork, true);
      const source = (await list())[3]!;
      const fork = await forkSession(c, { sessionId: source.sessionId, cwd });
      assert.notEqual(fork.sessionId, source.sessionId);
      assert.equal(fork.modes?.currentModeId, 'code', 'set up like a new session');
      const rows = await list();
      assert.equal(rows[0]!.sessionId, fork.sessionId);
      assert.equal(rows[0]!.title, source.title);

      const history = async (id: string) => {
        const kinds: string[] = [];
        const route = c.router.register(id, (u) => kinds.push(u.update.sessionUpdate));
        await c.loadSession({ sessionId: id, cwd, mcpServers: [] });
        route.dispose();
        return kinds.filter((k) => k !== 'available_commands_update' && k !== 'session_info_update');
      };
      const before = await history(source.sessionId);
      assert.ok(before.length > 0);
      assert.deepEqual(await history(fork.sessionId), before, 'the fork replays the same history');

      const route = c.router.register(fork.sessionId, () => {});
      await c.prompt({ sessionId: fork.sessionId, prompt: [{ type: 'text', text: 'only in the fork' }] });
      route.dispose();
      assert.deepEqual(await history(source.sessionId), before, 'the source did not move');
    });

    it('refuses an unknown source session with -32002', async () => {
      const { c } = await start();
      await assert.rejects(forkSession(c, { sessionId: 'sess_nope', cwd }), refusedWith(-32002));
    });

    it('is never sent to an agent that withholds it', async () => {
      const { c, received, list } = await start(['--no-fork']);
      assert.equal(c.features.fork, false);
      const id = (await list())[0]!.sessionId;
      await assert.rejects(forkSession(c, { sessionId: id, cwd }), /cannot fork sessions/);
      assert.deepEqual(received('session/fork'), []);
    });
  });

  it('logs the unstable capabilities with the others once initialized', async () => {
    const { logger } = await start(['--no-archive']);
    assert.ok(
      logger.lines.some((l) => /title true, archive false, fork true/.test(l)),
      logger.lines.join('\n'),
    );
  });
});
