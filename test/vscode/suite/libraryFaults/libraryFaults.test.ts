// A library file the extension cannot use never costs the user a session or the file: a damaged
// one is set aside (kept beside, renamed) and a new one started; a disk that refuses writes is
// said once, the chat goes on, and a kept copy that missed a write loads from the agent; one
// from a newer extension is left untouched and the library stays off for the window, saying
// why, while chats load as without it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { FILE_NAME, FORMAT_VERSION } from '../../../../src/library/schema';
import { suiteContext } from '../../../host/suiteContext';
import { recorded } from '../../../support/chat';
import { api, catchMessages } from '../../support';
import { waitFor } from '../../../support/wait';

describe('Session library: files it cannot use', function () {
  this.timeout(90_000);

  async function openAndLoad() {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const cwd = suiteContext().folders[0]!;
    const page = await (await a.agents.get(agentId)!.connect()).listSessions({ cwd });
    const sessionId = page.sessions[0]!.sessionId;
    const chat = (await a.chats.open({ agentId, sessionId, cwd }, 'auto'))!;
    await waitFor('loaded', () => chat.session.history === 'loaded' && chat.session.capabilities().canPrompt);
    assert.ok(
      chat.session.thread.entries.some((e) => e.type === 'user'),
      'the history is shown',
    );
    return { a, chat, agentId, sessionId };
  }

  it('sets a damaged file aside, keeping its bytes, and keeps sessions in a new one', async () => {
    const a = await api();
    assert.equal(existsSync(join(a.library.dir, FILE_NAME)), false, 'nothing read before first use');
    mkdirSync(a.library.dir, { recursive: true });
    const damaged = 'not a database, just text '.repeat(400);
    writeFileSync(join(a.library.dir, FILE_NAME), damaged);
    const { chat, agentId, sessionId } = await openAndLoad();
    await waitFor('kept in a new file', async () => (await a.library.get()?.session({ agentId, sessionId }))?.complete);
    const aside = readdirSync(a.library.dir).find((f) => f.startsWith(`${FILE_NAME}.damaged-`));
    assert.ok(aside, 'the damaged file is kept beside the new one');
    assert.equal(readFileSync(join(a.library.dir, aside), 'utf8'), damaged, 'its bytes untouched');
    chat.panel.dispose();
    await waitFor('closed', () => a.chats.all.length === 0);
  });

  it('says once that it cannot save while the chat goes on, and loads from the agent a copy that missed a write', async () => {
    const a = await api();
    const agentId = a.agents.all[0]!.config.id;
    const cwd = suiteContext().folders[0]!;
    const warnings = catchMessages('showWarningMessage');
    try {
      const chat = (await a.chats.open({ agentId, cwd }, 'new'))!;
      await waitFor('ready', () => chat.session.capabilities().canPrompt);
      await chat.session.prompt('kept before the disk filled up');
      const sessionId = chat.session.sessionId!;
      await waitFor('kept whole', async () => (await a.library.get()!.session({ agentId, sessionId }))?.complete);
      const others = await a.library.get()!.sessions();

      // From here the disk is full: SQLite's journal, written first, is on a device that is always full.
      const journal = join(a.library.dir, `${FILE_NAME}-journal`);
      rmSync(journal, { force: true });
      symlinkSync('/dev/full', journal);
      await chat.session.prompt('said while the disk is full, quince');
      await waitFor('the warning', () => warnings.shown.length > 0);
      for (const text of ['still full', 'still full again']) await chat.session.prompt(text);
      assert.ok(chat.session.thread.entries.some((e) => e.type === 'agent' && /still full again/.test(e.text)));

      // Room again: once the next turn is kept, every write before it was tried (in order).
      rmSync(journal);
      await chat.session.prompt('room again, tamarind');
      await waitFor('the last turn kept', async () => (await a.library.get()!.search('tamarind')).length > 0);
      assert.equal(warnings.shown.length, 1, warnings.shown.join(' | '));
      assert.match(warnings.shown[0]!, /^The session library could not save to disk \(disk I\/O error\)\. Chats go on/);
      assert.equal((await a.library.get()!.session({ agentId, sessionId }))!.complete, false);
      for (const k of others.filter((o) => o.sessionId !== sessionId))
        assert.deepEqual(await a.library.get()!.session(k), k, 'what was kept is as it was');

      const heard = (method: string) =>
        recorded(suiteContext().recordFile!).filter((m) => m.method === method && m.params.sessionId === sessionId)
          .length;
      chat.panel.dispose();
      await waitFor('session/close', () => heard('session/close') > 0);
      const loads = heard('session/load');
      const again = (await a.chats.open({ agentId, sessionId, cwd }, 'auto'))!;
      await waitFor('loaded', () => again.session.history === 'loaded' && again.session.capabilities().canPrompt);
      assert.equal(heard('session/load'), loads + 1, 'loaded from the agent, not shown from the library');
      assert.ok(again.session.thread.entries.some((e) => e.type === 'user' && /quince/.test(e.text)));
      again.panel.dispose();
      await waitFor('closed', () => a.chats.all.length === 0);
    } finally {
      warnings.restore();
    }
  });

  it('leaves a newer extension’s file untouched and stays off, saying why, while chats load', async () => {
    const a = await api();
    // Turned off and on: the next use starts the library again, on a file from a newer extension.
    await a.library.configure({ enabled: false, maxBytes: 256 * 1024 * 1024 });
    const file = join(a.library.dir, FILE_NAME);
    const db = new Database(file);
    db.exec(`PRAGMA user_version = ${FORMAT_VERSION + 1}`);
    db.close();
    const before = readFileSync(file);
    void a.library.configure({ enabled: true, maxBytes: 256 * 1024 * 1024 });
    const { chat } = await openAndLoad();
    await waitFor('the library off', () => a.library.failure);
    assert.match(a.library.failure!, /off in this window: .*newer version of the extension/);
    assert.equal(a.library.get(), undefined);
    assert.deepEqual(readFileSync(file), before, 'the newer file is left as it was');
    await chat.session.prompt('still works without the library');
    assert.ok(chat.session.thread.entries.some((e) => e.type === 'agent'));
    chat.panel.dispose();
  });
});
