import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { FILE_NAME, FORMAT_VERSION } from '../../../src/library/schema';
import { LibraryBusy, STALE_LOCK_MS } from '../../../src/library/sqlite';
import { LibraryStore, LibraryTooNew } from '../../../src/library/store';
import type { SessionWrite } from '../../../src/library/types';
import type { MessageEntry, ThreadEntry, ToolCallEntry } from '../../../src/protocol/entries';
import { tempDir } from '../../support/refAgent';

const user = (text: string): MessageEntry => ({ type: 'user', text, attachments: [], done: true });
const agent = (text: string, done = true): MessageEntry => ({ type: 'agent', text, attachments: [], done });
const read = (path: string, title = `Read ${path}`): ToolCallEntry => ({
  type: 'tool',
  toolCallId: `t-${path}`,
  title,
  kind: 'read',
  status: 'completed',
  content: [],
  locations: [{ path }],
});

/** The pid of a process that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

/** This process's descriptors open on `file` (Linux; Windows shows one by refusing to delete it). */
function openOn(file: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });
}

function entries(list: ThreadEntry[], from = 0): SessionWrite['entries'] {
  return list.map((entry, i) => ({ index: from + i, entry }));
}

describe('library: store', () => {
  let dir: ReturnType<typeof tempDir>;
  let clock: number;
  let store: LibraryStore;
  const open = (maxBytes = 1e9) =>
    LibraryStore.open({ dir: dir.path, maxBytes, now: () => clock, busyWaitMs: 200, log: () => {} });
  const keep = (sessionId: string, list: ThreadEntry[], extra: Partial<SessionWrite> = {}) =>
    store.write({ agentId: 'a', sessionId, cwd: '/work/p', entries: entries(list), ...extra });

  beforeEach(() => {
    dir = tempDir('acp-library-');
    clock = 1_000;
    store = open();
  });
  afterEach(() => {
    store.close();
    dir.cleanup();
  });

  it('keeps a transcript and gives it back in order, with what the agent reported', () => {
    keep('s1', [user('hello'), agent('hi there'), read('/work/p/a.ts')], {
      reset: true,
      info: { title: 'Greeting', updatedAt: '2024-01-01T00:00:00Z', complete: true },
    });
    const s = store.session({ agentId: 'a', sessionId: 's1' })!;
    assert.equal(s.title, 'Greeting');
    assert.equal(s.updatedAt, '2024-01-01T00:00:00Z');
    assert.equal(s.complete, true);
    assert.equal(s.entries, 3);
    assert.deepEqual(
      store.transcript({ agentId: 'a', sessionId: 's1' })!.map((e) => e.type),
      ['user', 'agent', 'tool'],
    );
    assert.equal(store.transcript({ agentId: 'a', sessionId: 'nope' }), undefined);
  });

  it('applies a write of changed entries only, leaving the others as kept', () => {
    keep('s1', [user('one'), agent('two'), agent('three')]);
    store.write({
      agentId: 'a',
      sessionId: 's1',
      cwd: '/work/p',
      entries: [{ index: 1, entry: agent('two, longer') }],
    });
    assert.deepEqual(
      store.transcript({ agentId: 'a', sessionId: 's1' })!.map((e) => (e as MessageEntry).text),
      ['one', 'two, longer', 'three'],
    );
    assert.equal(store.search('longer').length, 1);
    assert.equal(store.session({ agentId: 'a', sessionId: 's1' })!.entries, 3);
  });

  it('starts the kept copy over on reset, and forgets words that are gone', () => {
    keep('s1', [user('obsolete words'), agent('old')], { info: { complete: true } });
    keep('s1', [user('fresh start')], { reset: true, info: { complete: false } });
    assert.deepEqual(
      store.transcript({ agentId: 'a', sessionId: 's1' })!.map((e) => (e as MessageEntry).text),
      ['fresh start'],
    );
    assert.equal(store.session({ agentId: 'a', sessionId: 's1' })!.complete, false);
    assert.deepEqual(store.search('obsolete'), []);
    assert.equal(store.search('fresh').length, 1);
  });

  it('shows again what was still streaming or waiting as finished', () => {
    keep('s1', [
      agent('half a sente', false),
      { type: 'permission', requestId: 'r', toolCallId: 't', title: 'Run?', options: [] },
      { type: 'elicitation', requestId: 'e', mode: 'url', message: 'Sign in', url: 'https://x' },
    ]);
    const [m, p, e] = store.transcript({ agentId: 'a', sessionId: 's1' })!;
    assert.equal((m as MessageEntry).done, true);
    assert.equal((p as { outcome?: unknown }).outcome, 'cancelled');
    assert.equal((e as { outcome?: unknown }).outcome, 'cancel');
  });

  it('finds sessions by words said in them: every word first, then recency, with a snippet', () => {
    keep('old-both', [user('the parser fails'), agent('because ENOENT on config')], {
      info: { updatedAt: '2024-01-01T00:00:00Z' },
    });
    keep('new-one', [user('only the parser here')], { info: { updatedAt: '2024-06-01T00:00:00Z' } });
    keep('new-both', [user('Parser trouble: ENOENT again')], { info: { updatedAt: '2024-05-01T00:00:00Z' } });
    keep('none', [user('unrelated talk')], { info: { updatedAt: '2024-07-01T00:00:00Z' } });
    const hits = store.search('pars enoent');
    assert.deepEqual(
      hits.map((h) => [h.sessionId, h.matched, h.words]),
      [
        ['new-both', 2, 2],
        ['old-both', 2, 2],
        ['new-one', 1, 2],
      ],
    );
    assert.equal(hits[0]!.snippet, 'Parser trouble: ENOENT again');
    assert.equal(hits[0]!.entryIndex, 0);
    // The words are in two entries: the snippet is the one that holds the most.
    assert.match(hits[1]!.snippet!, /parser fails|ENOENT on config/);
    assert.equal(store.search('p').length, 0, 'a single letter is not looked up');
  });

  it('matches a two-letter word whole, a longer one as a prefix', () => {
    keep('whole', [user('the db is down')]);
    keep('inside', [user('dbconfig is wrong')]);
    assert.deepEqual(
      store.search('db').map((h) => h.sessionId),
      ['whole'],
    );
    assert.deepEqual(
      store
        .search('dbc')
        .map((h) => h.sessionId)
        .sort(),
      ['inside'],
    );
  });

  it('searches text that is FTS syntax as the words typed, never as a query', () => {
    keep('said', [user('the "cart total" NEAR the checkout - rounding * off')]);
    keep('other', [user('nothing like it')]);
    for (const typed of [
      '"cart total"',
      'cart* NEAR checkout',
      '-rounding',
      'NEAR(cart total)',
      '"cart',
      '* -',
      'cart OR AND',
    ]) {
      const found = store.search(typed).map((h) => h.sessionId);
      if (typed === '* -') assert.deepEqual(found, [], 'no words: nothing searched, no error');
      else assert.deepEqual(found, ['said'], typed);
    }
  });

  it('finds a word in the middle of a long history, in its own entry', () => {
    const list: ThreadEntry[] = [];
    for (let i = 0; i < 300; i++) list.push(i % 2 ? agent(`answer number ${i}`) : user(`question number ${i}`));
    list[151] = agent('the turbine bearing overheated at noon');
    keep('long', list);
    const [hit] = store.search('turbine bear');
    assert.equal(hit!.entryIndex, 151);
    assert.equal(hit!.snippet, 'the turbine bearing overheated at noon');
  });

  it('shows what another window wrote since the last search, not a remembered snippet', () => {
    keep('s1', [user('the gearbox rattles')]);
    assert.equal(store.search('gearbox')[0]!.snippet, 'the gearbox rattles');
    const other = open();
    try {
      other.write({ agentId: 'a', sessionId: 's1', cwd: '/work/p', entries: entries([user('the gearbox hums now')]) });
    } finally {
      other.close();
    }
    assert.equal(store.search('gearbox')[0]!.snippet, 'the gearbox hums now');
  });

  it('searches within a folder or an agent only when asked', () => {
    store.write({ agentId: 'a', sessionId: 'x', cwd: '/work/p', entries: entries([user('zebra')]) });
    store.write({ agentId: 'b', sessionId: 'y', cwd: '/work/q/', entries: entries([user('zebra')]) });
    assert.equal(store.search('zebra').length, 2);
    assert.deepEqual(
      store.search('zebra', { cwd: '/work/q' }).map((h) => h.sessionId),
      ['y'],
    );
    assert.deepEqual(
      store.search('zebra', { agentId: 'a' }).map((h) => h.sessionId),
      ['x'],
    );
    assert.deepEqual(
      store.sessions({ cwd: '/work/q' }).map((s) => s.sessionId),
      ['y'],
    );
  });

  it('lists the sessions that touched a file, newest first, with the first entry that did', () => {
    keep('older', [user('look'), read('/work/p/src/a.ts'), read('/work/p/src/a.ts', 'Again')], {
      info: { updatedAt: '2024-01-01T00:00:00Z' },
    });
    keep('newer', [user('x'), user('y'), read('src/a.ts')], { info: { updatedAt: '2024-03-01T00:00:00Z' } });
    keep('other', [read('/work/p/src/b.ts')], { info: { updatedAt: '2024-09-01T00:00:00Z' } });
    const hits = store.touched(['/work/p/src/a.ts']);
    assert.deepEqual(
      hits.map((h) => [h.sessionId, h.entryIndex, h.path]),
      [
        ['newer', 2, '/work/p/src/a.ts'],
        ['older', 1, '/work/p/src/a.ts'],
      ],
    );
    assert.deepEqual(store.touched(['/work/p/src/none.ts']), []);
  });

  it('evicts the least recently opened sessions first when over its size, never the one being written', () => {
    const text = (n: number) => `${'payload '.repeat(15_000)} ${n}`;
    for (let i = 0; i < 6; i++) {
      clock = 1_000 + i;
      keep(`s${i}`, [user(text(i))], { opened: true });
    }
    clock = 2_000;
    store.write({ agentId: 'a', sessionId: 's0', cwd: '/work/p', opened: true });
    const before = store.stats();
    store.setMaxBytes(Math.floor(before.bytes * 0.7));
    const left = store
      .sessions()
      .map((s) => s.sessionId)
      .sort();
    assert.ok(left.includes('s0'), 'the session opened last stays');
    assert.ok(!left.includes('s1'), 'the least recently opened goes first');
    assert.ok(left.length < 6 && left.length > 1, `kept ${left.join(',')}`);
    const after = store.stats();
    assert.ok(after.bytes <= Math.floor(before.bytes * 0.7), `${after.bytes} over the cap`);
    assert.ok(after.fileBytes < before.fileBytes, 'the freed space goes back to the file system');
    assert.deepEqual(store.search('payload').length, left.length);
  });

  it('never keeps a secret in the file', () => {
    keep('s1', [user('my key is sk-test-9876543210'), read('/work/p/.env')], { secrets: ['sk-test-9876543210'] });
    store.write({
      agentId: 'a',
      sessionId: 's1',
      cwd: '/work/p',
      entries: [
        {
          index: 2,
          entry: { ...read('/work/p/x'), rawInput: { headers: { Authorization: 'Bearer abcdefghijkl' } } },
        },
      ],
    });
    store.close();
    const bytes = readFileSync(join(dir.path, FILE_NAME)).toString('latin1');
    assert.ok(!bytes.includes('sk-test-9876543210'), 'a known secret value reached the file');
    assert.ok(!bytes.includes('abcdefghijkl'), 'a value under a secret-looking key reached the file');
    assert.ok(bytes.includes('[redacted]'));
    store = open();
    assert.deepEqual(store.search('9876543210'), []);
  });

  it('keeps a placeholder for an entry that redaction could not keep as JSON, so indexes stay aligned', () => {
    keep('s1', [user('before'), agent('breaks'), user('after')], { secrets: ['"type":"'] });
    const t = store.transcript({ agentId: 'a', sessionId: 's1' })!;
    assert.equal(t.length, 3);
    assert.deepEqual(
      t.map((e) => e.type),
      ['notice', 'notice', 'notice'],
    );
    assert.match((t[1] as { title: string }).title, /could not be kept safely/);
  });

  it('forgets everything on clear', () => {
    keep('s1', [user('remember me')]);
    store.clear();
    assert.deepEqual(store.sessions(), []);
    assert.deepEqual(store.search('remember'), []);
    assert.equal(store.stats().entries, 0);
  });

  it('reopens with what was written, across instances', () => {
    keep('s1', [user('persisted words')], { reset: true, info: { complete: true } });
    store.close();
    store = open();
    assert.equal(store.search('persisted').length, 1);
    assert.equal(store.session({ agentId: 'a', sessionId: 's1' })!.complete, true);
  });

  it('leaves a newer format alone and rebuilds an older one', () => {
    keep('s1', [user('x')]);
    store.close();
    const db = new Database(join(dir.path, FILE_NAME));
    db.exec(`PRAGMA user_version = ${FORMAT_VERSION + 1}`);
    db.close();
    assert.throws(() => open(), LibraryTooNew);
    assert.deepEqual(openOn(join(dir.path, FILE_NAME)), [], 'a refused file is not held open');
    const db2 = new Database(join(dir.path, FILE_NAME));
    db2.exec('PRAGMA user_version = 0; CREATE TABLE IF NOT EXISTS leftover (x)');
    db2.close();
    store = open();
    assert.deepEqual(store.sessions(), []);
    keep('s2', [user('works again')]);
    assert.equal(store.search('works').length, 1);
  });

  it('sets a damaged file aside and starts a new one', () => {
    store.close();
    writeFileSync(join(dir.path, FILE_NAME), 'this is not a database at all, just text '.repeat(200));
    store = open();
    keep('s1', [user('fresh')]);
    assert.equal(store.search('fresh').length, 1);
    const aside = readdirSync(dir.path).find((f) => f.startsWith(`${FILE_NAME}.damaged-`));
    assert.ok(aside);
    assert.deepEqual(openOn(join(dir.path, aside)), [], 'the damaged file is not held open');
  });

  it('waits while another live process may hold the lock, and clears it once it is older than any transaction', () => {
    const lock = join(dir.path, `${FILE_NAME}.lock`);
    // Another window of this host that is alive (the test runner's parent) has the file open.
    const other = join(dir.path, `${FILE_NAME}.open-${encodeURIComponent(hostname())}-${process.ppid}`);
    writeFileSync(other, '');
    mkdirSync(lock);
    assert.throws(() => keep('s1', [user('blocked')]), LibraryBusy);
    const old = (Date.now() - STALE_LOCK_MS - 1_000) / 1000;
    utimesSync(lock, old, old);
    keep('s1', [user('unblocked')]);
    assert.equal(existsSync(lock), false);
    assert.equal(store.search('unblocked').length, 1);
    assert.equal(existsSync(other), true, 'a live process keeps its marker');
  });

  it('clears at once a lock that no live process can hold: its owner was killed', () => {
    const lock = join(dir.path, `${FILE_NAME}.lock`);
    const dead = join(dir.path, `${FILE_NAME}.open-${encodeURIComponent(hostname())}-${deadPid()}`);
    writeFileSync(dead, '');
    mkdirSync(lock);
    keep('s1', [user('recovered')]);
    assert.equal(existsSync(lock), false);
    assert.equal(existsSync(dead), false, "a dead process's marker is removed");
    assert.equal(store.search('recovered').length, 1);
  });

  it('marks the file open while it is, and unmarks it on close', () => {
    const mine = join(dir.path, `${FILE_NAME}.open-${encodeURIComponent(hostname())}-${process.pid}`);
    assert.equal(existsSync(mine), true);
    store.close();
    assert.equal(existsSync(mine), false);
    store = open();
  });
});
