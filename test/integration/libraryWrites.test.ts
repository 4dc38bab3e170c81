// What the library keeps of a chat when writing goes wrong, against the reference agent and the
// real worker: the window closing while the last changes wait for their batch, a disk that
// refuses writes (a real one: SQLite's journal on /dev/full, a device that is always full), and
// the library turned off while a chat goes on. Never lost: what was kept; never shown: a kept
// copy that misses part of the history as if it were all of it.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRegistry } from '../../src/agent/agentHost';
import { Library } from '../../src/library/library';
import { FILE_NAME } from '../../src/library/schema';
import type { ThreadEntry } from '../../src/protocol/entries';
import { registryWith, useRegistries } from '../support/chat';
import { LibraryWorld, libraryWorker } from '../support/library';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const textOf = (e: ThreadEntry | undefined) => (e?.type === 'user' || e?.type === 'agent' ? e.text : e?.type);

describe('library: writing when things go wrong', function () {
  this.timeout(60_000);
  const dir = tempDir('acp-library-writes-');
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const registries = useRegistries();
  let registry: AgentRegistry;
  let world: LibraryWorld;
  let libraryDir: string;
  let n = 0;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 3, 4);
  });
  beforeEach(() => {
    registry = registryWith(refAgentConfig(store));
    registries.push(registry);
    libraryDir = join(dir.path, `library-${n++}`);
    world = new LibraryWorld(registry, libraryDir);
  });
  afterEach(async () => {
    await world.service.close();
  });
  after(() => dir.cleanup());

  /** Reads the library's file as the next window would. */
  async function reopened<T>(fn: (library: Library) => Promise<T>): Promise<T> {
    const library = new Library({ workerPath: libraryWorker, dir: libraryDir, maxBytes: 1e9 });
    try {
      await library.ready;
      return await fn(library);
    } finally {
      await library.close();
    }
  }

  it('writes what the chats recorded last when the window closes, before its worker goes', async () => {
    const chat = await world.open({ agentId: 'ref', cwd }, 'new');
    await chat.session.prompt('first words');
    await chat.session.prompt('the last words before closing, marmalade');
    const shown = chat.session.thread.entries.map(textOf);
    // At once: the turn's last changes still wait for their batch (250 ms).
    await world.keeper.close();
    const kept = await reopened((l) => l.transcript({ agentId: 'ref', sessionId: chat.session.sessionId! }));
    assert.deepEqual(kept?.map(textOf), shown, 'every entry, as the chat showed it');
    // A chat torn down after the close starts no new worker to write to.
    await chat.close();
    assert.equal(world.service.get(), undefined);
  });

  it('says once that it cannot save, loses nothing kept, lets the chat go on, and never shows the copy that missed a write', async () => {
    // Two sessions kept whole: one loaded, one begun here.
    const listed = (await (await registry.get('ref')!.connect()).listSessions({ cwd })).sessions;
    const loaded = await world.open({ agentId: 'ref', sessionId: listed[0]!.sessionId, cwd }, 'auto');
    await loaded.recording.flush();
    const other = await world.keptWhole('ref', listed[0]!.sessionId);
    const otherEntries = (await world.service.get()!.transcript(other))!.map(textOf);
    await loaded.close();
    const chat = await world.open({ agentId: 'ref', cwd }, 'new');
    const sessionId = chat.session.sessionId!;
    await chat.session.prompt('before the disk filled up');
    await chat.recording.flush();
    await world.keptWhole('ref', sessionId);

    // The disk is full from here: every write fails.
    const journal = join(libraryDir, `${FILE_NAME}-journal`);
    assert.ok(existsSync(journal));
    rmSync(journal);
    symlinkSync('/dev/full', journal);
    // Each turn's changes go in writes of their own: every one of them fails.
    for (const text of ['while the disk is full, quince', 'still full', 'still full, another turn']) {
      await chat.session.prompt(text);
      await chat.recording.flush();
    }
    const last = chat.session.thread.entries.at(-1);
    assert.ok(last?.type === 'agent' && /still full, another turn/.test(last.text), 'the chat goes on');
    assert.equal(world.told.length, 1, `said once: ${world.told.join(' | ')}`);
    assert.match(world.told[0]!, /could not save to disk \(disk I\/O error\)\. Chats go on/);
    assert.equal(world.lines.filter((l) => /could not save/.test(l)).length, 1, 'and logged once');

    // Room again: later writes land, the copy that missed some is not shown as the history.
    rmSync(journal);
    await chat.session.prompt('the disk has room again');
    await chat.recording.flush();
    await waitFor('the last turn kept', async () =>
      (await world.service.get()!.search('room again', { cwd })).length ? true : undefined,
    );
    const kept = (await world.kept('ref', sessionId))!;
    assert.equal(kept.complete, false, 'a copy that missed a write is not the whole history');
    assert.deepEqual(
      (await world.service.get()!.transcript(other))!.map(textOf),
      otherEntries,
      'what was kept before is all there',
    );
    assert.equal(world.told.length, 1, 'still said once');
    await chat.close();

    // Opened again, it loads from the agent, with the turns the library missed.
    const again = await world.open({ agentId: 'ref', sessionId, cwd }, 'auto');
    assert.equal(again.fromLibrary, false);
    assert.ok(again.session.thread.entries.some((e) => textOf(e) === 'while the disk is full, quince'));
    await again.recording.flush();
    assert.equal((await world.keptWhole('ref', sessionId)).complete, true, 'the load keeps it whole again');
    await again.close();
  });

  it('never shows as whole a copy that missed turns while the library was off', async () => {
    const chat = await world.open({ agentId: 'ref', cwd }, 'new');
    const sessionId = chat.session.sessionId!;
    await chat.session.prompt('kept while on');
    await chat.recording.flush();
    await world.keptWhole('ref', sessionId);
    await world.service.configure({ enabled: false, maxBytes: 1e9 });
    await chat.session.prompt('said while the library was off, tamarind');
    await chat.recording.flush();
    void world.service.configure({ enabled: true, maxBytes: 1e9 });
    await chat.session.prompt('said after it was on again');
    await chat.recording.flush();
    const kept = await waitFor('the last turn kept', async () => {
      const k = await world.kept('ref', sessionId);
      return k && k.entries >= chat.session.thread.entries.length ? k : undefined;
    });
    assert.equal(kept.complete, false);
    await chat.close();
    const again = await world.open({ agentId: 'ref', sessionId, cwd }, 'auto');
    assert.equal(again.fromLibrary, false);
    assert.ok(again.session.thread.entries.some((e) => textOf(e) === 'said while the library was off, tamarind'));
    await again.close();
  });
});
