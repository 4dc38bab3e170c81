import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { FILE_NAME, FILE_SETTINGS, FORMAT_VERSION, SCHEMA } from '../../../src/library/schema';
import { dayOf } from '../../../src/library/stats';
import type { LockOwner } from '../../../src/library/fileLock';
import { LibraryBusy } from '../../../src/library/sqlite';
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

  it('keeps what a session used and cost, and what each day added, across writes', () => {
    const usage = { used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } };
    keep('s1', [user('hi')], { reset: true, info: { complete: true, stats: { usage, activeMs: 2000, cost: 0.5 } } });
    const first = dayOf(clock);
    clock += 86_400_000;
    keep('s1', [], { info: { stats: { usage: { ...usage, used: 20 }, activeMs: 1000 } } });
    keep('s1', [agent('more')], { info: { title: 'no stats in this write' } });
    assert.deepEqual(store.session({ agentId: 'a', sessionId: 's1' })!.stats, {
      used: 20,
      size: 100,
      cost: { amount: 0.5, currency: 'USD' },
      activeMs: 3000,
      days: { [first]: { activeMs: 2000, cost: 0.5 }, [dayOf(clock)]: { activeMs: 1000 } },
    });
    assert.equal(store.session({ agentId: 'a', sessionId: 's1' })!.title, 'no stats in this write');
    keep('s2', [user('none')]);
    assert.equal(store.session({ agentId: 'a', sessionId: 's2' })!.stats, undefined);
  });

  it('adds the stats column to a file of the same format made before it, keeping what it holds', () => {
    store.close();
    dir.cleanup();
    dir = tempDir('acp-library-');
    mkdirSync(dir.path, { recursive: true });
    const older = new Database(join(dir.path, FILE_NAME));
    older.exec(FILE_SETTINGS);
    older.exec(SCHEMA.replace('  stats TEXT,\n', ''));
    older.exec(
      "INSERT INTO sessions (agent, session, cwd, cwdKey, keptAt, openedAt, title, complete) VALUES ('a', 'old', '/work/p', '/work/p', 1, 1, 'kept before', 1)",
    );
    older.close();
    store = open();
    assert.equal(store.session({ agentId: 'a', sessionId: 'old' })!.title, 'kept before');
    keep('old', [], { info: { stats: { activeMs: 5 } } });
    assert.equal(store.session({ agentId: 'a', sessionId: 'old' })!.stats!.activeMs, 5);
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

  it('gives back one kept entry by its index, and nothing for an index it does not keep', () => {
    keep('s1', [user('hello'), agent('hi there', false), read('/work/p/a.ts')]);
    keep('s2', [user('another session')]);
    const key = { agentId: 'a', sessionId: 's1' };
    assert.deepEqual(store.entry({ ...key, index: 0 }), user('hello'));
    // As the whole transcript gives it back: finished.
    assert.deepEqual(store.entry({ ...key, index: 1 }), agent('hi there'));
    assert.equal(store.entry({ ...key, index: 3 }), undefined);
    // Never an entry of another session, whatever the index.
    for (const index of [-1, -(2 ** 20), 2 ** 40, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      assert.equal(store.entry({ ...key, index }), undefined, String(index));
    assert.equal(store.entry({ agentId: 'a', sessionId: 'nope', index: 0 }), undefined);
    assert.equal(store.entry({ agentId: 'other', sessionId: 's1', index: 0 }), undefined);
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

  // Typed words and kept text folded the same way, whichever Unicode form each came in (macOS
  // and some input methods give decomposed text, most sources composed).
  const scripts = [
    { script: 'Hangul', text: '세션 검색이 안 됩니다, 로그를 보세요', word: '세션', typed: '검색' },
    { script: 'accented Latin', text: 'le café était fermé à Montréal', word: 'fermé', typed: 'Montréal' },
    { script: 'Japanese', text: 'データベース 接続が切れました', word: 'データベース', typed: 'データ' },
    { script: 'Cyrillic', text: 'йогурт и ёлка на столе', word: 'ёлка', typed: 'Йогурт' },
  ];
  for (const { script, text, word, typed } of scripts) {
    it(`finds ${script} words typed in either Unicode form, in text kept in either form`, () => {
      keep('composed', [user(`${text} (composed)`)]);
      keep('decomposed', [user(`${text.normalize('NFD')} (decomposed)`)]);
      for (const query of [word, typed]) {
        for (const form of ['NFC', 'NFD'] as const) {
          const hits = store.search(query.normalize(form));
          assert.deepEqual(
            hits.map((h) => h.sessionId).sort(),
            ['composed', 'decomposed'],
            `${script}: "${query}" typed in ${form}`,
          );
          for (const h of hits)
            assert.ok(h.snippet!.normalize('NFC').includes(text.normalize('NFC').slice(0, 4)), h.snippet);
        }
      }
    });
  }

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

  it('keeps only the sessions the typed filters keep before it cuts to the limit', () => {
    const at = (day: number) => ({ title: 'cart', updatedAt: new Date(Date.UTC(2026, 10, day)).toISOString() });
    // The newest sessions are the codex ones of the webshop: a limit of 1 would find only them.
    store.write({
      agentId: 'claude',
      sessionId: 'old',
      cwd: '/src/billing',
      info: at(1),
      entries: entries([user('zebra')]),
    });
    store.write({
      agentId: 'codex',
      sessionId: 'mid',
      cwd: '/src/Webshop',
      info: at(2),
      entries: entries([user('zebra')]),
    });
    store.write({
      agentId: 'codex',
      sessionId: 'new',
      cwd: '/src/webshop',
      info: at(3),
      entries: entries([user('zebra')]),
    });
    store.write({ agentId: 'gemini', sessionId: 'none', cwd: '/src/billing', entries: entries([user('zebra')]) });
    const ids = (filter: Parameters<LibraryStore['search']>[3]) =>
      store.search('zebra', {}, 1, filter).map((h) => h.sessionId);
    assert.deepEqual(ids({ agentLike: 'cla' }), ['old']);
    // `agentIds`: the agents whose names matched what was typed (the library knows ids only).
    assert.deepEqual(ids({ agentLike: 'anthropic', agentIds: ['claude'] }), ['old']);
    assert.deepEqual(ids({ folderLike: 'billing' }), ['old'], 'the session without a time ranks last');
    assert.deepEqual(ids({ folderLike: 'webshop', before: Date.UTC(2026, 10, 3) }), ['mid'], 'folders in any case');
    assert.deepEqual(ids({ after: Date.UTC(2026, 10, 1), before: Date.UTC(2026, 10, 2) }), ['old']);
    assert.deepEqual(ids({ agentLike: 'gem', after: 0 }), [], 'a session without a time passes no date');
    assert.deepEqual(ids({ agentLike: 'nobody' }), []);
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

  it('lists the sessions that touched any file whose path holds a typed part (file:), in any case or separator', () => {
    keep('posix', [user('look'), read('/work/p/src/Cart.ts')], { info: { updatedAt: '2024-01-01T00:00:00Z' } });
    keep('windows', [read('C:\\work\\p\\src\\cart.ts')], { info: { updatedAt: '2024-03-01T00:00:00Z' } });
    keep('other', [read('/work/p/src/carts/b.ts')], { info: { updatedAt: '2024-09-01T00:00:00Z' } });
    assert.deepEqual(
      store.touched([], {}, 'src/cart.ts').map((h) => [h.sessionId, h.entryIndex]),
      [
        ['windows', 0],
        ['posix', 1],
      ],
    );
    assert.deepEqual(store.touched([], {}, "'%_"), [], 'typed text is matched as text, never as a pattern');
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
    db.exec(`PRAGMA locking_mode = EXCLUSIVE; PRAGMA user_version = ${FORMAT_VERSION + 1}`);
    db.close();
    assert.throws(() => open(), LibraryTooNew);
    assert.deepEqual(openOn(join(dir.path, FILE_NAME)), [], 'a refused file is not held open');
    const db2 = new Database(join(dir.path, FILE_NAME));
    db2.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA user_version = 0; CREATE TABLE IF NOT EXISTS leftover (x)');
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

  it('removes the copies of damaged files set aside when cleared, and says how many went', () => {
    store.close();
    for (const at of [clock, clock + 1]) {
      writeFileSync(join(dir.path, FILE_NAME), `not a database ${at} `.repeat(200));
      clock = at;
      store = open();
      keep('s1', [user('kept')]);
      store.close();
    }
    store = open();
    assert.equal(readdirSync(dir.path).filter((f) => f.startsWith(`${FILE_NAME}.damaged-`)).length, 2);
    assert.deepEqual(store.clear(), { damagedCopies: 2 });
    assert.deepEqual(
      readdirSync(dir.path).filter((f) => f !== FILE_NAME),
      [],
      'each copy went, and nothing else is left',
    );
    assert.deepEqual(store.sessions(), []);
  });

  it('removes a copy set aside a week ago when it opens, and keeps a newer one', () => {
    store.close();
    const day = 24 * 60 * 60_000;
    clock = 100 * day;
    const old = `${FILE_NAME}.damaged-${clock - 7 * day}`;
    const recent = `${FILE_NAME}.damaged-${clock - 6 * day}`;
    for (const name of [old, `${old}-wal`, recent]) writeFileSync(join(dir.path, name), 'what a damaged file held');
    const lines: string[] = [];
    store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, now: () => clock, log: (m) => lines.push(m) });
    assert.deepEqual(
      readdirSync(dir.path).filter((f) => f.includes('.damaged-')),
      [recent],
    );
    assert.ok(
      lines.some((l) => /Removed the copy of a damaged session library set aside a week ago/.test(l)),
      lines.join('\n'),
    );
  });

  /** Makes the file's lock as another process would have left it. */
  const lockedBy = (owner: Partial<LockOwner>) => {
    const lock = join(dir.path, `${FILE_NAME}.owner`);
    mkdirSync(lock);
    writeFileSync(
      join(lock, 'owner.json'),
      JSON.stringify({ host: hostname(), id: `${owner.pid}-test`, at: Date.now() - 3_600_000, ...owner }),
    );
    return lock;
  };

  it('waits while a live process holds the lock, however long it has held it, and says who holds it', () => {
    store.close();
    const lines: string[] = [];
    store = LibraryStore.open({
      dir: dir.path,
      maxBytes: 1e9,
      busyWaitMs: 300,
      longLockMs: 100,
      log: (m) => lines.push(m),
    });
    // The test runner's parent: alive, and holding the lock for an hour already.
    const lock = lockedBy({ pid: process.ppid });
    assert.throws(() => keep('s1', [user('blocked')]), LibraryBusy);
    assert.equal(existsSync(lock), true, "a live owner's lock stays");
    assert.ok(
      lines.some((l) => l.includes(`held by process ${process.ppid}`)),
      lines.join('\n'),
    );
    rmSync(lock, { recursive: true });
    keep('s1', [user('unblocked')]);
    assert.equal(store.search('unblocked').length, 1);
  });

  it('breaks at once a lock whose owner was killed', () => {
    const lock = lockedBy({ pid: deadPid() });
    keep('s1', [user('recovered')]);
    assert.equal(existsSync(lock), false);
    assert.equal(store.search('recovered').length, 1);
  });

  it('holds nothing between uses: no lock, no connection, no WAL left open', () => {
    keep('s1', [user('written')]);
    store.search('written');
    const left = readdirSync(dir.path).filter((f) => f !== FILE_NAME);
    assert.deepEqual(left, []);
  });
});
