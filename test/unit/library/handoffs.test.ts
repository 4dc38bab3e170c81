import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { FILE_NAME, FILE_SETTINGS, HANDOFFS, SCHEMA } from '../../../src/library/schema';
import { LibraryStore } from '../../../src/library/store';
import type { MessageEntry } from '../../../src/protocol/entries';
import { tempDir } from '../../support/refAgent';

const user = (text: string): MessageEntry => ({ type: 'user', text, attachments: [], done: true });
const from = { agentId: 'first', sessionId: 's-old' };
const to = { agentId: 'second', sessionId: 's-new' };

describe('library: handoffs', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: LibraryStore;
  let clock = 1_000;
  const open = () =>
    LibraryStore.open({ dir: dir.path, maxBytes: 1e9, now: () => clock, busyWaitMs: 200, log: () => {} });

  beforeEach(() => {
    dir = tempDir('acp-handoffs-');
    clock = 1_000;
  });
  afterEach(() => {
    store?.close();
    dir.cleanup();
  });

  it('links a session to the one it was continued in, both ways, with what is kept of the other', () => {
    store = open();
    store.write({
      ...from,
      cwd: '/work/p',
      info: { title: 'Cart totals' },
      entries: [{ index: 0, entry: user('go') }],
    });
    store.link({ from, to });
    assert.deepEqual(store.links(from), [{ direction: 'to', ...to, at: 1_000 }]);
    assert.deepEqual(store.links(to), [
      { direction: 'from', ...from, title: 'Cart totals', cwd: '/work/p', at: 1_000 },
    ]);
    // The new session is kept like any chat: the link then names it.
    store.write({ ...to, cwd: '/work/p', info: { title: 'Continued' } });
    assert.equal(store.links(from)[0]!.title, 'Continued');
    assert.deepEqual(store.links({ agentId: 'first', sessionId: 'other' }), []);
  });

  it('keeps the link across a reopen, once however often it is made, and forgets it on clear', () => {
    store = open();
    store.link({ from, to });
    clock = 2_000;
    store.link({ from, to });
    store.close();
    store = open();
    assert.equal(store.links(from).length, 1);
    assert.equal(store.links(from)[0]!.at, 1_000);
    store.clear();
    assert.deepEqual(store.links(from), []);
  });

  it('adds the table to a file of the same format made before it existed, keeping its sessions', () => {
    mkdirSync(dir.path, { recursive: true });
    const older = new Database(join(dir.path, FILE_NAME));
    older.exec(FILE_SETTINGS);
    older.exec(SCHEMA.replace(HANDOFFS, ''));
    older.exec(
      "INSERT INTO sessions (agent, session, cwd, cwdKey, keptAt, openedAt, title, complete) VALUES ('first', 's-old', '/work/p', '/work/p', 1, 1, 'kept before', 1)",
    );
    assert.equal(older.all("SELECT name FROM sqlite_master WHERE name = 'handoffs'").length, 0);
    older.close();
    store = open();
    assert.equal(store.session(from)!.title, 'kept before');
    store.link({ from, to });
    assert.equal(store.links(to)[0]!.title, 'kept before');
  });
});
