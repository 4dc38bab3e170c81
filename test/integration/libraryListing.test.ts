// How often recording a chat asks the agent for `session/list` to learn the session's
// `updatedAt`, against the reference agent recording what it receives. The rule stays: what is
// kept is the time the agent reports after the load or the turn (an agent that moves it on
// load, as Claude Code does, is asked after every load), so a kept session reopens at once.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { recorded, registryWith, useRegistries } from '../support/chat';
import { LibraryWorld } from '../support/library';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

describe('library: asking the agent for a session’s time', function () {
  this.timeout(60_000);
  const dir = tempDir('acp-library-listing-');
  const cwd = join(dir.path, 'project');
  const registries = useRegistries();
  let worlds: LibraryWorld[] = [];
  let n = 0;
  before(() => mkdirSync(cwd));
  afterEach(async () => {
    await Promise.all(worlds.map((w) => w.service.close()));
    worlds = [];
  });
  after(() => dir.cleanup());

  /** A store of `sessions` seeded sessions and an agent on it recording what it receives. */
  function world(switches: string[] = [], sessions = 6) {
    const store = join(dir.path, `store-${n}`);
    const record = join(dir.path, `record-${n}.jsonl`);
    seed(store, [cwd], sessions, 3);
    const registry = registryWith(refAgentConfig(store, ['--record', record, ...switches]));
    registries.push(registry);
    const w = new LibraryWorld(registry, join(dir.path, `library-${n++}`));
    worlds.push(w);
    const lists = () => recorded(record).filter((m) => m.method === 'session/list');
    /** The session/list requests `fn` made, with their cursors. */
    const listedDuring = async (fn: () => Promise<unknown>) => {
      const before = lists().length;
      await fn();
      return lists()
        .slice(before)
        .map((m) => (m.params.cursor === undefined ? 'first page' : 'next page'));
    };
    const listed = async () => (await (await registry.get('ref')!.connect()).listSessions({ cwd })).sessions;
    return { w, listedDuring, listed };
  }

  /** Opens, waits until what the recording noted is written, and closes. */
  async function openKept(w: LibraryWorld, sessionId: string | undefined, mode: 'auto' | 'load' | 'new', turns = 0) {
    const chat = await w.open({ agentId: 'ref', cwd, ...(sessionId ? { sessionId } : {}) }, mode);
    for (let i = 0; i < turns; i++) await chat.session.prompt(`turn ${i}`);
    await chat.recording.flush();
    await chat.close();
    return chat;
  }

  it('takes the time from the agent’s own report after a turn, and asks once per agent whether a load moves it', async () => {
    const { w, listedDuring, listed } = world();
    const sessions = await listed();
    const [a, b, c] = sessions.map((s) => s.sessionId) as [string, string, string];

    // The first load: the agent is asked, one page (the session is on it).
    assert.deepEqual(await listedDuring(() => openKept(w, a, 'load')), ['first page']);
    const timeOf = async (id: string) => (await listed()).find((s) => s.sessionId === id)!.updatedAt;
    assert.equal((await w.keptWhole('ref', a)).updatedAt, await timeOf(a));

    // The load left the time as it was: the next loads take the time the replay reported.
    assert.deepEqual(await listedDuring(() => openKept(w, b, 'load')), []);
    assert.equal((await w.keptWhole('ref', b)).updatedAt, await timeOf(b));

    // A turn: the agent said when it ended (session_info_update), nothing is asked.
    assert.deepEqual(await listedDuring(() => openKept(w, c, 'load', 2)), []);
    const afterTurns = await w.keptWhole('ref', c);
    assert.equal(afterTurns.updatedAt, await timeOf(c));
    assert.notEqual(afterTurns.updatedAt, sessions[2]!.updatedAt, 'the turns moved the time');

    // Reopened from the library: the time is compared first (one page), and after the first resume
    // the agent is asked whether resuming moved it; not after the next.
    assert.deepEqual(await listedDuring(() => openKept(w, c, 'auto')), ['first page', 'first page']);
    assert.deepEqual(await listedDuring(() => openKept(w, a, 'auto')), ['first page']);
    const again = await w.open({ agentId: 'ref', sessionId: b, cwd }, 'auto');
    assert.equal(again.fromLibrary, true, 'every kept time is the time the agent lists');
    await again.close();

    // A new session: its time is the agent's, asked for.
    assert.deepEqual(await listedDuring(() => openKept(w, undefined, 'new')), ['first page']);
  });

  it('asks after every load an agent that moves the time on load, and keeps the time after it', async () => {
    const { w, listedDuring, listed } = world(['--touch-on-load']);
    const [a, b] = (await listed()).map((s) => s.sessionId) as [string, string];
    for (const id of [a, b]) {
      assert.deepEqual(await listedDuring(() => openKept(w, id, 'load')), ['first page']);
      const kept = await w.keptWhole('ref', id);
      assert.equal(kept.updatedAt, (await listed()).find((s) => s.sessionId === id)!.updatedAt);
    }
    // Kept as listed after the load: it reopens from the library, not by another load.
    const again = await w.open({ agentId: 'ref', sessionId: a, cwd }, 'auto');
    assert.equal(again.fromLibrary, true);
    await again.close();
  });

  it('pages on only while the session is not found', async () => {
    const { w, listedDuring } = world(['--page-size', '2']);
    const all: string[] = [];
    const conn = await w.registry.get('ref')!.connect();
    for (let cursor: string | undefined, i = 0; i < 3; i++) {
      const page = await conn.listSessions({ cwd, ...(cursor ? { cursor } : {}) });
      all.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.nextCursor;
    }
    assert.deepEqual(await listedDuring(() => openKept(w, all[2], 'load')), ['first page', 'next page']);
    assert.deepEqual(await listedDuring(() => openKept(w, undefined, 'new')), ['first page']);
  });
});
