import * as assert from 'node:assert/strict';
import { MemoryLogger } from '../../../src/agent/log';
import { MAX_MARKS, SessionMarks, type MarksStore } from '../../../src/sessions/marks';

/** Like `globalState`: keeps the value it is given (a later read returns the same object). */
class MemoryStore implements MarksStore {
  readonly data = new Map<string, unknown>();
  writes = 0;
  get(key: string): unknown {
    return this.data.get(key);
  }
  set(key: string, value: unknown): void {
    this.writes++;
    this.data.set(key, value);
  }
  /** What another window would leave: the stored JSON, parsed afresh. */
  reloadFromDisk(): void {
    for (const [k, v] of this.data) this.data.set(k, JSON.parse(JSON.stringify(v)));
  }
}

const info = (sessionId: string, cwd = '/work/p', title = `Title ${sessionId}`) => ({ sessionId, cwd, title });

describe('SessionMarks: names', () => {
  it('names a session per agent, and Reset Name forgets it', () => {
    const marks = new SessionMarks(new MemoryStore());
    assert.equal(marks.setName('claude', 's1', 'Release checklist'), 'Release checklist');
    assert.equal(marks.nameOf('claude', 's1'), 'Release checklist');
    assert.equal(marks.nameOf('codex', 's1'), undefined, "another agent's s1 is another session");
    marks.resetName('claude', 's1');
    assert.equal(marks.nameOf('claude', 's1'), undefined);
  });

  it("keeps the agent's title from before the first rename, for Reset Name", () => {
    const store = new MemoryStore();
    const marks = new SessionMarks(store);
    marks.setName('a', 's1', 'First', 'Agent title');
    marks.setName('a', 's1', 'Second', 'First');
    assert.deepEqual({ ...marks.nameEntry('a', 's1'), at: 0 }, { name: 'Second', before: 'Agent title', at: 0 });
    store.reloadFromDisk();
    assert.equal(new SessionMarks(store).nameEntry('a', 's1')?.before, 'Agent title');
    marks.setName('a', 's2', 'Client-side');
    assert.equal(marks.nameEntry('a', 's2')?.before, undefined);
  });

  it('cleans a name like a title, and a name that cleans to nothing removes it', () => {
    const marks = new SessionMarks(new MemoryStore());
    assert.equal(marks.setName('a', 's1', '  two\nlines\u202e\u0007  '), 'two lines');
    assert.equal(Array.from(marks.setName('a', 's2', 'x'.repeat(500))!).length, 200);
    marks.setName('a', 's1', ' \n\u200b ');
    assert.equal(marks.nameOf('a', 's1'), undefined);
  });

  it('survives a reload: a new instance on the same storage reads what was written', () => {
    const store = new MemoryStore();
    new SessionMarks(store).setName('a', 's1', 'Kept');
    store.reloadFromDisk();
    assert.equal(new SessionMarks(store).nameOf('a', 's1'), 'Kept');
  });

  it('sees what another window wrote to the same storage', () => {
    const store = new MemoryStore();
    const here = new SessionMarks(store);
    assert.equal(here.nameOf('a', 's1'), undefined);
    new SessionMarks(store).setName('a', 's1', 'From the other window');
    assert.equal(here.nameOf('a', 's1'), 'From the other window');
  });

  it('fires a change with the session, and none when nothing changed', () => {
    const store = new MemoryStore();
    const marks = new SessionMarks(store);
    const events: unknown[] = [];
    marks.onDidChange((e) => events.push(e));
    marks.setName('a', 's1', 'One');
    marks.setName('a', 's1', 'One');
    marks.resetName('a', 's2');
    assert.deepEqual(events, [{ agentId: 'a', sessionIds: ['s1'] }]);
    assert.equal(store.writes, 1);
  });

  it('keeps the newest names when over the bound, also when reading more than that', () => {
    let t = 0;
    const store = new MemoryStore();
    const marks = new SessionMarks(store, { now: () => ++t, limit: 3 });
    for (let i = 0; i < 4; i++) marks.setName('a', `s${i}`, `n${i}`);
    assert.equal(marks.nameOf('a', 's0'), undefined, 'the oldest went');
    marks.setName('a', 's1', 'renamed');
    marks.setName('a', 's4', 'n4');
    assert.deepEqual(
      ['s1', 's2', 's3', 's4'].map((id) => marks.nameOf('a', id)),
      ['renamed', undefined, 'n3', 'n4'],
      'renaming makes a name the newest',
    );
    store.data.set('acp.sessionNames.v1', {
      v: 1,
      names: { 'a\nx': { name: 'old', at: 1 }, 'a\ny': { name: 'new', at: 3 }, 'a\nz': { name: 'mid', at: 2 } },
    });
    const read = new SessionMarks(store, { limit: 2 });
    assert.deepEqual(
      ['x', 'y', 'z'].map((id) => read.nameOf('a', id)),
      [undefined, 'new', 'mid'],
    );
    assert.equal(MAX_MARKS, 5000);
  });
});

describe('SessionMarks: stored data is checked', () => {
  it('ignores a wrong envelope with one warning, and keeps working', () => {
    for (const bad of ['x', 42, [], { v: 2, names: {} }, { v: 1, names: [] }]) {
      const store = new MemoryStore();
      store.data.set('acp.sessionNames.v1', bad);
      const logger = new MemoryLogger();
      const marks = new SessionMarks(store, { logger });
      assert.equal(marks.nameOf('a', 's1'), undefined);
      assert.equal(marks.nameOf('a', 's2'), undefined);
      assert.equal(logger.lines.filter((l) => /unreadable/.test(l)).length, 1, JSON.stringify(bad));
      marks.setName('a', 's1', 'Works');
      assert.equal(marks.nameOf('a', 's1'), 'Works');
    }
  });

  it('skips bad entries, and cleans a hostile stored name', () => {
    const store = new MemoryStore();
    store.data.set('acp.sessionNames.v1', {
      v: 1,
      names: {
        'a\ns1': { name: 'Good', at: 1 },
        'a\ns2': { name: 42 },
        'a\ns3': 'not an object',
        'a\ns4\nextra': { name: 'Bad key' },
        '\ns5': { name: 'No agent' },
        'a\ns6': { name: '\u202eevil\u0000 name\n' },
      },
    });
    const marks = new SessionMarks(store);
    assert.equal(marks.nameOf('a', 's1'), 'Good');
    for (const id of ['s2', 's3', 's4', 's5']) assert.equal(marks.nameOf('a', id), undefined, id);
    assert.equal(marks.nameOf('a', 's6'), 'evil name');
  });

  it('skips archived entries that cannot be sessions', () => {
    const store = new MemoryStore();
    store.data.set('acp.archivedSessions.v1', {
      v: 1,
      sessions: [
        { agentId: 'a', info: info('s1'), at: 1 },
        { agentId: 'a', info: { sessionId: 's2' }, at: 2 },
        { agentId: 'a', info: { sessionId: 7, cwd: '/p' } },
        { agentId: 7, info: info('s4') },
        null,
      ],
    });
    const marks = new SessionMarks(store);
    assert.deepEqual(
      marks.archived('a').map((e) => e.info.sessionId),
      ['s1'],
    );
  });

  it('logs a storage that refuses to write, and keeps the change in this window', async () => {
    const logger = new MemoryLogger();
    // As a Memento does: the value is kept in memory at once, saving it to disk fails later.
    const kept = new MemoryStore();
    const store: MarksStore = {
      get: (k) => kept.get(k),
      set: (k, v) => {
        kept.set(k, v);
        return Promise.reject(new Error('disk full'));
      },
    };
    const marks = new SessionMarks(store, { logger });
    marks.setName('a', 's1', 'Named');
    assert.equal(marks.nameOf('a', 's1'), 'Named');
    await new Promise((r) => setImmediate(r));
    assert.ok(logger.lines.some((l) => /could not write acp.sessionNames.v1: Error: disk full/.test(l)));
  });
});

describe('SessionMarks: archive', () => {
  it('archives and unarchives per agent, listing per folder, last archived first', () => {
    let t = 0;
    const store = new MemoryStore();
    const marks = new SessionMarks(store, { now: () => ++t });
    marks.archiveSessions('a', [info('s1'), info('s2', '/work/other')]);
    marks.archiveSessions('a', [info('s3', '/work/p/')]);
    marks.archiveSessions('b', [info('s1')]);
    assert.equal(marks.isArchived('a', 's1'), true);
    assert.equal(marks.isArchived('a', 's9'), false);
    assert.deepEqual(
      marks.archived('a', '/work/p').map((e) => e.info.sessionId),
      ['s3', 's1'],
      'the folder is matched as a normalised path',
    );
    assert.deepEqual(
      marks.archived('a').map((e) => e.info.sessionId),
      ['s3', 's2', 's1'],
    );
    marks.unarchiveSessions('a', ['s1', 's3', 'never']);
    assert.deepEqual(
      marks.archived('a').map((e) => e.info.sessionId),
      ['s2'],
    );
    assert.equal(marks.isArchived('b', 's1'), true);
    store.reloadFromDisk();
    assert.deepEqual(
      new SessionMarks(store).archived('a').map((e) => [e.info.sessionId, e.info.title]),
      [['s2', 'Title s2']],
      'kept across a reload with what is needed to list it',
    );
  });

  it('keeps only what a row needs, bounded', () => {
    const marks = new SessionMarks(new MemoryStore());
    marks.archiveSessions('a', [
      { sessionId: 's1', cwd: '/p', title: 'x'.repeat(5000), updatedAt: '2026-01-01T00:00:00Z', _meta: { big: 'y' } },
    ]);
    const [entry] = marks.archived('a');
    assert.equal(entry!.info.title!.length, 1000);
    assert.equal(entry!.info._meta, undefined);
    assert.equal(entry!.info.updatedAt, '2026-01-01T00:00:00Z');
  });

  it('fires one change for a multi-selection, naming every session', () => {
    const marks = new SessionMarks(new MemoryStore());
    const events: unknown[] = [];
    marks.onDidChange((e) => events.push(e));
    marks.archiveSessions('a', [info('s1'), info('s2')]);
    marks.unarchiveSessions('a', ['s2', 's3']);
    assert.deepEqual(events, [
      { agentId: 'a', sessionIds: ['s1', 's2'] },
      { agentId: 'a', sessionIds: ['s2'] },
    ]);
  });
});
