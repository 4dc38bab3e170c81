// The library's size limit against the reference agent: sessions kept through real loads, then
// a limit they do not all fit in. The least recently opened go first (opening one again
// from the library counts); the most recent stays whole and reopens from the library; a session
// evicted while its chat goes on is never shown whole again from what came after.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadEntry } from '../../src/protocol/entries';
import { recorded, registryWith, useRegistries } from '../support/chat';
import { LibraryWorld } from '../support/library';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

const textOf = (e: ThreadEntry) => (e.type === 'user' || e.type === 'agent' ? e.text : e.type);

describe('library: the size limit against the reference agent', function () {
  this.timeout(90_000);
  const dir = tempDir('acp-library-evict-');
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const record = join(dir.path, 'record.jsonl');
  const registries = useRegistries();
  let world: LibraryWorld;
  let ids: string[];

  before(async () => {
    mkdirSync(cwd);
    // Sessions of 60 turns (about 150 KB each in the file): the file's own 100 KB is small beside them.
    seed(store, [cwd], 8, 60);
  });
  beforeEach(async () => {
    const registry = registryWith(refAgentConfig(store, ['--record', record]));
    registries.push(registry);
    world = new LibraryWorld(registry, join(dir.path, `library-${Date.now()}`));
    ids = (await (await registry.get('ref')!.connect()).listSessions({ cwd })).sessions.map((s) => s.sessionId);
  });
  afterEach(async () => {
    await world.service.close();
  });
  after(() => dir.cleanup());

  const methodsFor = (sessionId: string) =>
    recorded(record)
      .filter((m) => m.params?.sessionId === sessionId)
      .map((m) => m.method);

  /** Opens a session as a chat does, waits until it is kept, and closes it; resolves with what it showed. */
  async function open(sessionId: string) {
    const chat = await world.open({ agentId: 'ref', sessionId, cwd }, 'auto');
    await chat.recording.flush();
    const shown = chat.session.thread.entries.map(textOf);
    await world.keptWhole('ref', sessionId);
    await chat.close();
    return { shown, fromLibrary: chat.fromLibrary };
  }

  const keptIds = async () => (await world.service.get()!.sessions()).map((k) => k.sessionId);
  const used = async () => (await world.service.get()!.stats()).bytes;
  const limit = (maxBytes: number) => world.service.configure({ enabled: true, maxBytes: Math.round(maxBytes) });

  /** Those of `order` (least recently opened first) the library keeps: always a tail of it. */
  async function keptTail(order: string[]): Promise<string[]> {
    const kept = new Set(await keptIds());
    const first = order.findIndex((id) => kept.has(id));
    const tail = first < 0 ? [] : order.slice(first);
    assert.deepEqual(
      order.filter((id) => kept.has(id)),
      tail,
      `evicted out of order: kept ${order.map((id) => (kept.has(id) ? 'K' : '-')).join('')}`,
    );
    return tail;
  }

  it('evicts the least recently opened first; the most recent stays whole and reopens from the library', async () => {
    const [s1, s2, s3, s4, s5] = ids as [string, string, string, string, string];
    for (const id of [s1, s2, s3]) assert.equal((await open(id)).fromLibrary, false);
    // Opened again (from the library): now the most recently opened of the three.
    assert.equal((await open(s1)).fromLibrary, true);
    await open(s4);
    // A limit four sessions do not fit in.
    await limit((await used()) * 0.8);
    const tail = await keptTail([s2, s3, s1, s4]);
    assert.ok(!tail.includes(s2), 'the least recently opened went first, though s1 was kept before it');
    assert.ok(tail.includes(s1) && tail.includes(s4), `kept: ${tail.join(', ')}`);

    // Kept while over the limit: the session being written stays, older ones go.
    const last = await open(s5);
    const after = await keptTail([s2, s3, s1, s4, s5]);
    assert.ok(after.length < tail.length + 1, 'the new session pushed another out');
    const stats = await world.service.get()!.stats();
    assert.ok(stats.bytes <= stats.maxBytes, `${stats.bytes} bytes kept, over the limit of ${stats.maxBytes}`);

    // The most recent, whole: it reopens from the library, with every entry the load showed.
    const loads = methodsFor(s5).filter((m) => m === 'session/load').length;
    const again = await world.open({ agentId: 'ref', sessionId: s5, cwd }, 'auto');
    assert.equal(again.fromLibrary, true);
    assert.deepEqual(again.session.thread.entries.map(textOf), last.shown);
    assert.equal(methodsFor(s5).at(-1), 'session/resume');
    assert.equal(methodsFor(s5).filter((m) => m === 'session/load').length, loads, 'no replay');
    await again.close();
  });

  it('never shows whole a session evicted while its chat went on recording', async () => {
    const [s1, s2, s3, s4] = ids as [string, string, string, string];
    await open(s1);
    // Its chat stays open while others are opened, and a lower limit pushes it out of the library.
    const chat = await world.open({ agentId: 'ref', sessionId: s1, cwd }, 'auto');
    assert.equal(chat.fromLibrary, true);
    await chat.recording.flush();
    for (const id of [s2, s3, s4]) await open(id);
    await limit((await used()) * 0.7);
    assert.ok(!(await keptTail([s1, s2, s3, s4])).includes(s1), 'evicted while its chat is open');

    // Its agent restarts: the chat attaches again with session/resume, holding the whole history.
    await chat.session.restartAgent();
    assert.equal(methodsFor(s1).at(-1), 'session/resume');
    await chat.session.prompt('a turn after the eviction, persimmon');
    await chat.recording.flush();
    const part = await world.kept('ref', s1);
    assert.ok(part && part.entries > 0, 'what came after the eviction is kept (searchable)');
    assert.equal(part.complete, false, 'but it is not the whole history');
    assert.equal((await world.service.get()!.search('persimmon', { cwd }))[0]?.sessionId, s1);
    await chat.close();

    const again = await world.open({ agentId: 'ref', sessionId: s1, cwd }, 'auto');
    assert.equal(again.fromLibrary, false, 'loaded from the agent');
    assert.equal(methodsFor(s1).at(-1), 'session/load');
    assert.ok(again.session.thread.entries.length > 100, 'the whole history, not the part kept');
    assert.ok(again.session.thread.entries.some((e) => textOf(e) === 'a turn after the eviction, persimmon'));
    await again.close();
  });
});
