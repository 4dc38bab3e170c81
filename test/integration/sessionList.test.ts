import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentConnection } from '../../src/agent/connection';
import { AgentExited } from '../../src/agent/errors';
import { MemoryLogger } from '../../src/agent/log';
import { Notices } from '../../src/sessions/cursorRules';
import { SessionList } from '../../src/sessions/sessionList';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

/**
 * The session-list model against the reference agent with the behaviours real agents show:
 * every switch here imitates one adapter's way of paging.
 */
describe('SessionList against the reference agent', function () {
  this.timeout(120_000);
  const dir = tempDir();
  const big = join(dir.path, 'big');
  const mixed = join(dir.path, 'mixed');
  const cwdA = join(dir.path, 'a');
  const cwdB = join(dir.path, 'b');
  const open: AgentConnection[] = [];
  const lists: SessionList[] = [];

  before(() => {
    mkdirSync(cwdA);
    mkdirSync(cwdB);
    seed(big, [cwdA], 10_000, 1);
    // Five sessions of A behind 300 of B: an agent that filters after paging sends empty pages.
    seed(mixed, [cwdA], 5, 1);
    seed(mixed, [cwdB], 300, 1);
    const file = join(mixed, 'index.json');
    const index = JSON.parse(readFileSync(file, 'utf8')) as { sessions: { cwd: string; updatedAt: string }[] };
    for (const s of index.sessions)
      if (s.cwd === cwdA) s.updatedAt = new Date(Date.parse(s.updatedAt) - 90 * 86_400_000).toISOString();
    index.sessions.sort((x, y) => y.updatedAt.localeCompare(x.updatedAt));
    writeFileSync(file, JSON.stringify(index));
  });
  afterEach(async () => {
    lists.splice(0).forEach((l) => l.dispose());
    await Promise.all(open.splice(0).map((c) => c.stop()));
  });
  after(() => dir.cleanup());

  async function listFor(store: string, switches: string[], cwd = cwdA) {
    const logger = new MemoryLogger();
    const c = await AgentConnection.start({
      config: refAgentConfig(store, switches),
      logger,
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      clientInfo: { name: 't', version: '0' },
    });
    open.push(c);
    const list = new SessionList({ agentId: 'ref', folder: cwd, list: (p, s) => c.listSessions(p, s), logger });
    lists.push(list);
    return { list, c, logger };
  }

  async function pageToEnd(list: SessionList, max = 1000) {
    await list.loadFirstPage();
    let clicks = 0;
    while (list.nextCursor !== undefined && list.state !== 'error' && clicks++ < max) await list.loadMore();
    return clicks;
  }

  it('pages through 10,000 sessions to the end with pages of 50, without duplicates', async () => {
    const { list } = await listFor(big, ['--page-size', '50']);
    const t0 = Date.now();
    const clicks = await pageToEnd(list, 400);
    assert.equal(list.items.length, 10_000);
    assert.equal(new Set(list.items.map((r) => r.sessionId)).size, 10_000);
    assert.equal(clicks, 199);
    assert.equal(list.nextCursor, undefined);
    console.log(`      (10,000 sessions in 200 pages: ${Date.now() - t0} ms)`);
  });

  it('takes pages of 1000', async () => {
    const { list } = await listFor(big, ['--page-size', '1000']);
    await list.loadFirstPage();
    assert.equal(list.items.length, 1000);
    await list.loadMore();
    assert.equal(list.items.length, 2000);
  });

  it('follows empty pages that carry a cursor, at most 10 in a row, until rows arrive', async () => {
    const { list } = await listFor(mixed, ['--page-size', '20', '--empty-pages']);
    await list.loadFirstPage();
    // 300 newer sessions of B fill 15 pages: the first 10 are followed, then "Load more…" stays.
    assert.equal(list.items.length, 0);
    assert.notEqual(list.nextCursor, undefined, 'paging paused with a cursor, not ended');
    await list.loadMore();
    assert.equal(list.items.length, 5, 'the next click reached the rows');
    for (const r of list.items) assert.equal(r.cwd, cwdA);
  });

  it('stops on a cursor the agent repeats, with a notice', async () => {
    const { list } = await listFor(big, ['--page-size', '20', '--repeat-cursor']);
    const clicks = await pageToEnd(list, 50);
    assert.ok(clicks < 5, `stopped after ${clicks} clicks`);
    assert.equal(list.nextCursor, undefined);
    assert.equal(list.notice, Notices.cursorLoop);
    assert.equal(new Set(list.items.map((r) => r.sessionId)).size, list.items.length);
  });

  it('stops when the agent ignores the cursor and sends the same page again', async () => {
    const { list } = await listFor(big, ['--page-size', '20', '--ignore-cursor']);
    const clicks = await pageToEnd(list, 50);
    assert.ok(clicks < 5, `stopped after ${clicks} clicks`);
    assert.equal(list.items.length, 20);
    assert.ok(
      list.notice === Notices.repeatedPage ||
        list.notice === Notices.cursorRejected ||
        list.notice === Notices.cursorLoop,
      list.notice,
    );
  });

  for (const code of ['-32602', '-32603', 'restart']) {
    it(`starts again from the first page when the cursor is rejected (${code}), keeping the rows`, async () => {
      const { list, c } = await listFor(big, ['--page-size', '20', '--invalid-cursor-code', code]);
      // The agent's cursors expire after the second page (as some adapters' do): the third
      // request carries a cursor the agent no longer knows.
      let calls = 0;
      const expiring = new SessionList({
        agentId: 'ref',
        folder: cwdA,
        logger: new MemoryLogger(),
        list: (p, signal) =>
          c.listSessions(++calls === 3 && p.cursor ? { ...p, cursor: `expired-${p.cursor}` } : p, signal),
      });
      lists.push(expiring);
      list.dispose();
      await expiring.loadFirstPage();
      await expiring.loadMore();
      const shown = expiring.items.map((r) => r.sessionId);
      assert.equal(shown.length, 40);
      await expiring.loadMore();
      assert.equal(expiring.notice, Notices.cursorRejected);
      assert.notEqual(expiring.state, 'error');
      for (const id of shown) assert.ok(expiring.get(id), 'rows already shown stay');
      assert.equal(new Set(expiring.items.map((r) => r.sessionId)).size, expiring.items.length, 'no duplicates');
      await expiring.loadMore();
      assert.ok(expiring.items.length > 40, 'paging goes on from the fresh cursor');
    });
  }

  it("turns a crash while listing into an error state with the agent's exit", async () => {
    const { list } = await listFor(big, ['--page-size', '20', '--crash-after', '3']);
    await list.loadFirstPage();
    assert.equal(list.items.length, 20);
    await list.loadMore();
    assert.equal(list.state, 'error');
    assert.ok(list.error instanceof AgentExited, String(list.error));
    assert.equal(list.items.length, 20, 'nothing shown is lost');
  });

  it('keeps what it listed when a later page fails, and Retry asks for that page again', async () => {
    const { list } = await listFor(big, ['--page-size', '20', '--list-fail-after', '2']);
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.items.length, 40);
    await list.loadMore();
    assert.equal(list.state, 'error');
    assert.match(String((list.error as Error).message), /Session store unavailable/);
    assert.equal(list.items.length, 40, 'nothing shown is lost');
    assert.ok(list.nextCursor, 'the cursor of the failed page is kept for Retry');
    const first = list.error;
    await list.retry();
    assert.equal(list.state, 'error');
    assert.notEqual(list.error, first, 'Retry asked again');
    assert.equal(list.items.length, 40);
  });

  it('drops sessions of another folder even when the agent does not filter', async () => {
    const { list } = await listFor(mixed, ['--page-size', '400', '--empty-pages'], cwdB);
    await list.loadFirstPage();
    assert.equal(list.items.length, 300);
    for (const r of list.items) assert.equal(r.cwd, cwdB);
  });
});
