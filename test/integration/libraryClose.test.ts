// A session this client closed reopens from the library, though the agent moves its time when
// the session closes (Claude Code rewrites the transcript a moment after answering
// `session/close`): the library takes the agent's time after its own close. Against the
// reference agent imitating that (`--touch-on-close`), and against the real Claude Code adapter
// offline, on a seeded transcript store.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryLogger } from '../../src/agent/log';
import type { AgentConfig } from '../../src/agent/types';
import { ChatSession } from '../../src/chat/chatSession';
import { openPlan, sameTime } from '../../src/library/freshness';
import { chatDeps, hostDeps, registryWith, useRegistries } from '../support/chat';
import { seedClaudeSession } from '../support/claudeStore';
import { LibraryWorld } from '../support/library';
import { waitFor } from '../support/wait';
import { claudeAcp, nodeAtLeast } from '../support/nodes';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

describe('library: reopening a session this client closed', function () {
  this.timeout(120_000);
  const dir = tempDir('acp-library-close-');
  const registries = useRegistries();
  let worlds: LibraryWorld[] = [];
  let n = 0;
  afterEach(async () => {
    await Promise.all(worlds.map((w) => w.service.close()));
    worlds = [];
  });
  after(() => dir.cleanup());

  function world(config: AgentConfig, cwd: string) {
    // Every message's method, as sent: what each open asked of the agent.
    const wire = new MemoryLogger(100_000);
    const registry = registryWith(config, { ...hostDeps(), logger: wire, trace: () => 'messages' });
    registries.push(registry);
    const w = new LibraryWorld(registry, join(dir.path, `library-${n++}`));
    worlds.push(w);
    const agentId = config.id;
    /** The session's `updatedAt` as the agent lists it now. */
    const listed = async (sessionId: string) => {
      const c = await registry.get(agentId)!.connect();
      const rows = (await c.listSessions({ cwd })).sessions;
      const time = rows.find((s) => s.sessionId === sessionId)?.updatedAt;
      assert.ok(time, `the agent lists ${sessionId} with a time`);
      return time;
    };
    /** Waits until the agent lists a time other than `before`: its close moved the session. */
    const movedFrom = (sessionId: string, before: string) =>
      waitFor(
        'the agent to move the session’s time after the close',
        async () => {
          const now = await listed(sessionId);
          return sameTime(now, before) ? undefined : now;
        },
        30_000,
      );
    /** Asserts the library keeps `time` as the session's, whole. */
    const keeps = async (sessionId: string, time: string) => {
      const kept = await w.kept(agentId, sessionId);
      assert.ok(kept?.complete, 'kept whole');
      assert.equal(kept.updatedAt, time, 'the library keeps the agent’s time after the close');
    };
    /** What the chat decides at the next open, as {@link SessionLibrary.showKept} does. */
    const plan = async (sessionId: string) =>
      openPlan({
        kept: await w.kept(agentId, sessionId),
        listed: await listed(sessionId),
        setting: { mode: 'auto', explicit: false },
        canResume: true,
      });
    /** How many `method` requests this client sent. */
    const sent = (method: string) => wire.lines.filter((l) => l.includes(`→ ${method} #`)).length;
    return { w, agentId, listed, movedFrom, keeps, plan, sent };
  }

  describe('with the reference agent moving the time on load and on close', () => {
    const cwd = join(dir.path, 'ref-project');
    before(() => mkdirSync(cwd, { recursive: true }));

    function refWorld() {
      const store = join(dir.path, `store-${n}`);
      seed(store, [cwd], 2, 3);
      return { store, ...world(refAgentConfig(store, ['--touch-on-load', '--touch-on-close', '300']), cwd) };
    }

    it('keeps the time the close left, and the next opens are instant from the library', async () => {
      const { w, listed, movedFrom, keeps, plan, sent } = refWorld();
      const conn = await w.registry.get('ref')!.connect();
      const sessionId = (await conn.listSessions({ cwd })).sessions[0]!.sessionId;

      const first = await w.open({ agentId: 'ref', sessionId, cwd }, 'auto');
      assert.equal(first.fromLibrary, false, 'not kept yet: loaded');
      await first.recording.flush();
      let before = await listed(sessionId);
      assert.equal((await w.keptWhole('ref', sessionId)).updatedAt, before);
      await first.close();
      await first.recording.flush();

      for (let open = 2; open <= 3; open++) {
        await keeps(sessionId, await movedFrom(sessionId, before));
        assert.deepEqual(await plan(sessionId), { kind: 'kept' }, `open ${open}: the kept copy is current`);
        const again = await w.open({ agentId: 'ref', sessionId, cwd }, 'auto');
        assert.equal(again.fromLibrary, true, `open ${open}: shown from the library`);
        assert.equal(sent('session/load'), 1, `open ${open}: resumed, no second replay`);
        assert.equal(sent('session/resume'), open - 1);
        await again.recording.flush();
        before = await listed(sessionId);
        await again.close();
        await again.recording.flush();
      }
    });

    it('still loads a session that moved on elsewhere before the close', async () => {
      const { store, w, movedFrom, plan } = refWorld();
      const conn = await w.registry.get('ref')!.connect();
      const sessionId = (await conn.listSessions({ cwd })).sessions[1]!.sessionId;

      const first = await w.open({ agentId: 'ref', sessionId, cwd }, 'auto');
      await first.recording.flush();
      const afterLoad = (await w.keptWhole('ref', sessionId)).updatedAt!;

      // Another client (another agent process on the same store) carries a turn in it.
      const elsewhere = registryWith(refAgentConfig(store));
      registries.push(elsewhere);
      const other = new ChatSession(elsewhere, { agentId: 'ref', sessionId, cwd }, chatDeps());
      await other.attach('resume');
      await other.prompt('from elsewhere');
      await other.close();
      const afterTurn = await movedFrom(sessionId, afterLoad);

      await first.close();
      await first.recording.flush();
      await movedFrom(sessionId, afterTurn);
      assert.equal((await w.kept('ref', sessionId))?.updatedAt, afterLoad, 'the time before the turn elsewhere');
      assert.equal((await plan(sessionId)).kind, 'agent');
      const again = await w.open({ agentId: 'ref', sessionId, cwd }, 'auto');
      assert.equal(again.fromLibrary, false, 'loaded again: the turn elsewhere is not in the kept copy');
      await again.close();
    });
  });

  describe('with the real Claude Code adapter, offline', () => {
    const home = join(dir.path, 'claude-home');
    const configDir = join(home, '.claude');
    const cwd = join(dir.path, 'claude-project');

    it('reopens a session it loaded and closed from the library', async function () {
      const adapter = claudeAcp();
      const node = nodeAtLeast(22);
      if (!adapter || !node) {
        const missing = !adapter ? '@agentclientprotocol/claude-agent-acp (npm test installs it)' : 'Node 22 or later';
        if (process.env.CI === 'true') assert.fail(`${missing} is not installed`);
        this.test!.title += ` (skipped: ${missing} is not installed)`;
        this.skip();
      }
      mkdirSync(cwd, { recursive: true });
      const sessionId = seedClaudeSession(configDir, cwd, [
        ['What does this project do?', 'It is an ACP client for VS Code.'],
        ['Which agents does it run?', 'Any agent that speaks ACP over stdio.'],
      ]);
      const config: AgentConfig = {
        id: 'claude',
        name: 'Claude Code',
        command: node,
        args: [join(adapter, 'dist', 'index.js')],
        env: {
          HOME: home,
          CLAUDE_CONFIG_DIR: configDir,
          // Nothing is prompted: no key is needed, and none of the machine's is used.
          ANTHROPIC_API_KEY: '',
          // As root, set, it makes the adapter ask Claude Code for a mode Claude Code refuses to root.
          IS_SANDBOX: '',
        },
      };
      const { w, listed, movedFrom, keeps, plan, sent } = world(config, cwd);
      const seeded = await listed(sessionId);

      const first = await w.open({ agentId: 'claude', sessionId, cwd }, 'auto');
      assert.equal(first.fromLibrary, false, 'not kept yet: loaded');
      assert.equal(sent('session/load'), 1);
      await first.recording.flush();
      const kept = await w.keptWhole('claude', sessionId);
      assert.ok(kept.entries >= 4, `the replay was kept (${kept.entries} entries)`);
      const afterLoad = await listed(sessionId);
      assert.ok(!sameTime(afterLoad, seeded), 'Claude Code moves the time on load');
      assert.equal(kept.updatedAt, afterLoad, 'the time after the load');
      await first.close();
      await first.recording.flush();

      // Claude Code rewrites the transcript as the session's process ends, after answering the close.
      await keeps(sessionId, await movedFrom(sessionId, afterLoad));
      assert.deepEqual(await plan(sessionId), { kind: 'kept' }, 'the kept copy is current');
      const again = await w.open({ agentId: 'claude', sessionId, cwd }, 'auto');
      assert.equal(again.fromLibrary, true, 'shown from the library');
      assert.deepEqual([sent('session/load'), sent('session/resume')], [1, 1], 'resumed, no second replay');
      assert.equal(again.session.thread.entries.length, kept.entries);
      await again.recording.flush();
      const afterResume = await listed(sessionId);
      await again.close();
      await again.recording.flush();

      // The resume and its close moved the time again: the third open is instant too.
      await keeps(sessionId, await movedFrom(sessionId, afterResume));
      assert.deepEqual(await plan(sessionId), { kind: 'kept' });
    });
  });
});
