import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentExited, ErrorCodes, ProtocolError } from '../../../src/agent/errors';
import { MemoryLogger } from '../../../src/agent/log';
import { validateListResult } from '../../../src/agent/validate';
import { MAX_BARREN_PAGES, Notices } from '../../../src/sessions/cursorRules';
import type { SessionListChange } from '../../../src/sessions/sessionList';
import { SessionList } from '../../../src/sessions/sessionList';
import type { Answer } from './fakeAgent';
import { FakeAgent, page, session, sessions } from './fakeAgent';
import { posixIt } from '../../support/platform';

const FOLDER = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-sessions-')));

function setup(pages: Record<string, Answer>, fallback?: Answer) {
  const agent = new FakeAgent(pages, fallback);
  const logger = new MemoryLogger();
  const list = new SessionList({ agentId: 'a', folder: FOLDER, list: agent.list, logger });
  const changes: SessionListChange[] = [];
  list.onDidChange((c) => changes.push(c));
  return { agent, logger, list, changes };
}

const ids = (list: SessionList) => list.items.map((r) => r.sessionId);

describe('SessionList paging', () => {
  after(() => fs.rmSync(FOLDER, { recursive: true, force: true }));

  it('takes a 1000-row page with no cursor as the whole list', async () => {
    const { agent, list } = setup({ '': page(sessions('s', 1000, FOLDER)) });
    await list.loadFirstPage();
    assert.equal(list.items.length, 1000);
    assert.equal(list.nextCursor, undefined);
    assert.equal(list.state, 'idle');
    assert.equal(list.loaded, true);
    await list.loadMore();
    assert.equal(agent.calls.length, 1);
  });

  it('appends 100 pages of 1000 rows in place, without copying what is shown', async () => {
    const { list } = setup({}, (call) => {
      const n = call.cursor === undefined ? 0 : Number(call.cursor);
      return page(sessions(`p${n}-`, n === 0 ? 1 : 1000, FOLDER), n < 100 ? String(n + 1) : undefined);
    });
    await list.loadFirstPage();
    const items = list.items;
    while (list.nextCursor !== undefined) await list.loadMore();
    assert.equal(list.items.length, 1 + 100 * 1000);
    assert.equal(list.items, items, 'appending keeps the array');
  });

  it('sends the folder as cwd and appends pages in the agent order', async () => {
    const { agent, list, changes } = setup({
      '': page(sessions('a', 25, FOLDER), 'c1'),
      c1: page(sessions('b', 25, FOLDER), 'c2'),
      c2: page([session('z', FOLDER), session('y', FOLDER)]),
    });
    await list.loadFirstPage();
    assert.equal(list.nextCursor, 'c1');
    await list.loadMore();
    await list.loadMore();
    assert.equal(list.items.length, 52);
    assert.deepEqual(ids(list).slice(48), ['b23', 'b24', 'z', 'y']);
    assert.equal(list.nextCursor, undefined);
    assert.deepEqual(
      agent.calls.map((c) => [c.cwd, c.cursor]),
      [
        [FOLDER, undefined],
        [FOLDER, 'c1'],
        [FOLDER, 'c2'],
      ],
    );
    assert.deepEqual(
      changes.filter((c) => c.kind === 'appended'),
      [
        { kind: 'appended', from: 25 },
        { kind: 'appended', from: 50 },
      ],
    );
  });

  it('dedupes by sessionId across pages', async () => {
    const { list } = setup({
      '': page([session('a', FOLDER), session('b', FOLDER)], 'c1'),
      c1: page([session('b', FOLDER), session('c', FOLDER), session('c', FOLDER)]),
    });
    await list.loadFirstPage();
    await list.loadMore();
    assert.deepEqual(ids(list), ['a', 'b', 'c']);
  });

  it('drops sessions of other folders, matching a trailing-slash spelling', async () => {
    const { list, logger } = setup({
      '': page([
        session('mine', FOLDER),
        session('other', path.join(FOLDER, 'sub')),
        session('slash', `${FOLDER}${path.sep}`),
        session('elsewhere', '/somewhere/else'),
      ]),
    });
    await list.loadFirstPage();
    assert.deepEqual(ids(list), ['mine', 'slash']);
    assert.ok(
      logger.lines.some((l) => l.includes('dropped 2 of 4')),
      logger.lines.join('\n'),
    );
  });

  posixIt('symlinks', 'matches a symlinked spelling of the folder', async () => {
    const link = `${FOLDER}-link`;
    fs.symlinkSync(FOLDER, link);
    try {
      const { list } = setup({ '': page([session('mine', FOLDER), session('linked', link)]) });
      await list.loadFirstPage();
      assert.deepEqual(ids(list), ['mine', 'linked']);
    } finally {
      fs.unlinkSync(link);
    }
  });

  it('follows empty pages that carry a cursor until rows arrive', async () => {
    const { agent, list } = setup({
      '': page([], 'e1'),
      e1: page([session('x', '/other')], 'e2'),
      e2: page([], 'e3'),
      e3: page([session('a', FOLDER)], 'e4'),
    });
    await list.loadFirstPage();
    assert.deepEqual(ids(list), ['a']);
    assert.equal(list.nextCursor, 'e4');
    assert.equal(agent.calls.length, 4);
  });

  it('stops after 10 empty pages in a row and keeps "Load more" available', async () => {
    let n = 0;
    const { agent, list } = setup({}, () => page([], `e${++n}`));
    await list.loadFirstPage();
    assert.equal(agent.calls.length, MAX_BARREN_PAGES);
    assert.equal(list.items.length, 0);
    assert.equal(list.nextCursor, `e${MAX_BARREN_PAGES}`);
    assert.equal(list.state, 'idle');
    await list.loadMore();
    assert.equal(agent.calls.length, 2 * MAX_BARREN_PAGES);
    assert.equal(list.nextCursor, `e${2 * MAX_BARREN_PAGES}`);
  });

  it('follows empty pages on loadMore too', async () => {
    const { list } = setup({
      '': page([session('a', FOLDER)], 'c1'),
      c1: page([], 'c2'),
      c2: page([session('b', FOLDER)]),
    });
    await list.loadFirstPage();
    await list.loadMore();
    assert.deepEqual(ids(list), ['a', 'b']);
    assert.equal(list.nextCursor, undefined);
  });

  it('stops paging with a notice when a cursor comes back (a loop)', async () => {
    const { agent, list } = setup({
      '': page([session('a', FOLDER)], 'c1'),
      c1: page([], 'c2'),
      c2: page([], 'c1'),
    });
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.nextCursor, undefined);
    assert.equal(list.notice, Notices.cursorLoop);
    assert.equal(agent.calls.length, 3);
    await list.loadMore();
    assert.equal(agent.calls.length, 3);
  });

  it('keeps the rows of a page whose nextCursor is not a string, and stops paging with a notice', async () => {
    // What the connection hands on: validateListResult keeps the rows and flags the cursor.
    const raw = (ids: string[], nextCursor: unknown) =>
      validateListResult({ sessions: ids.map((id) => session(id, FOLDER)), nextCursor });
    const { agent, list } = setup({ '': raw(['a', 'b'], 'c1'), c1: raw(['c'], { offset: 3 }) });
    await list.loadFirstPage();
    await list.loadMore();
    assert.deepEqual(ids(list), ['a', 'b', 'c']);
    assert.equal(list.state, 'idle');
    assert.equal(list.nextCursor, undefined);
    assert.equal(list.notice, Notices.badCursor);
    await list.loadMore();
    assert.equal(agent.calls.length, 2);

    const firstOnly = setup({ '': raw(['x'], 7) });
    await firstOnly.list.loadFirstPage();
    assert.deepEqual(ids(firstOnly.list), ['x']);
    assert.equal(firstOnly.list.nextCursor, undefined);
    assert.equal(firstOnly.list.notice, Notices.badCursor);
  });

  it('stops paging when the agent ignores the cursor and sends the same page', async () => {
    const first = page([session('a', FOLDER), session('b', FOLDER)], 'next');
    const { agent, list } = setup({ '': first }, first);
    await list.loadFirstPage();
    await list.loadMore();
    assert.deepEqual(ids(list), ['a', 'b']);
    assert.equal(list.nextCursor, undefined);
    assert.equal(list.notice, Notices.repeatedPage);
    assert.equal(agent.calls.length, 2);
  });

  it('stops paging when a page repeats rows already shown under a fresh cursor', async () => {
    let n = 0;
    const { list } = setup({ '': page([session('a', FOLDER)], 'c1') }, () => page([session('b', FOLDER)], `t${++n}`));
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.nextCursor, 't1');
    await list.loadMore();
    assert.deepEqual(ids(list), ['a', 'b']);
    assert.equal(list.nextCursor, undefined);
    assert.equal(list.notice, Notices.repeatedPage);
  });

  for (const code of [ErrorCodes.InvalidParams, ErrorCodes.InternalError]) {
    it(`starts again from the first page on an invalid cursor (${code}), keeping the rows shown`, async () => {
      let firstCalls = 0;
      const { list, changes } = setup({
        '': () =>
          ++firstCalls === 1
            ? page([session('a', FOLDER), session('b', FOLDER)], 'c1')
            : page([session('new', FOLDER), session('a', FOLDER)], 'fresh1'),
        c1: page([session('c', FOLDER)], 'c2'),
        c2: new ProtocolError('a', 'session/list', 'Invalid cursor', code),
        fresh1: page([session('b', FOLDER), session('c', FOLDER), session('d', FOLDER)]),
      });
      await list.loadFirstPage();
      await list.loadMore();
      changes.length = 0;
      await list.loadMore();
      // The fresh first page, then the rows shown before that it lacks, in their order.
      assert.deepEqual(ids(list), ['new', 'a', 'b', 'c']);
      assert.equal(list.notice, Notices.cursorRejected);
      assert.equal(list.state, 'idle');
      assert.equal(list.nextCursor, 'fresh1');
      assert.ok(changes.some((c) => c.kind === 'reset'));
      // Paging goes on from the fresh cursor; rows already shown are not repeated.
      await list.loadMore();
      assert.deepEqual(ids(list), ['new', 'a', 'b', 'c', 'd']);
      assert.equal(list.nextCursor, undefined);
    });
  }

  it('starts again on a -32603 that names the cursor only in its data (as Codex does)', async () => {
    const rejected = new ProtocolError(
      'a',
      'session/list',
      'Internal error',
      ErrorCodes.InternalError,
      'failed to list sessions: invalid cursor: c1',
    );
    const { list } = setup({ '': page([session('a', FOLDER)], 'c1'), c1: rejected });
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.notice, Notices.cursorRejected);
    assert.equal(list.state, 'idle');
  });

  it('shows a -32603 that is not about the cursor as an error, rows and cursor intact, not as a restart', async () => {
    const err = new ProtocolError('a', 'session/list', 'Internal error', ErrorCodes.InternalError, {
      details: 'database is locked',
    });
    const { list } = setup({ '': page([session('a', FOLDER)], 'c1'), c1: err });
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.state, 'error');
    assert.equal(list.error, err);
    assert.deepEqual(ids(list), ['a']);
    assert.equal(list.nextCursor, 'c1');
    assert.notEqual(list.notice, Notices.cursorRejected);
  });

  it('keeps other JSON-RPC errors on loadMore as an error, rows and cursor intact', async () => {
    const err = new ProtocolError('a', 'session/list', 'gone', ErrorCodes.ResourceNotFound);
    const { list } = setup({ '': page([session('a', FOLDER)], 'c1'), c1: err });
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.state, 'error');
    assert.equal(list.error, err);
    assert.deepEqual(ids(list), ['a']);
    assert.equal(list.nextCursor, 'c1');
  });

  it('treats an agent that answers a cursor with the first page as a restart, then skips known rows', async () => {
    // A stateful agent that lost its cursors: an unknown token means "from the top", with new tokens.
    const data = sessions('s', 9, FOLDER);
    let epoch = 0;
    const tokens = new Map<string, number>();
    const answer = (offset: number) => {
      const token = `t${epoch}-${offset + 3}`;
      tokens.set(token, offset + 3);
      return page(data.slice(offset, offset + 3), offset + 3 < data.length ? token : undefined);
    };
    const { agent, list } = setup({}, (call) => {
      const offset = call.cursor === undefined ? 0 : tokens.get(call.cursor);
      return offset === undefined ? answer(0) : answer(offset);
    });
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.items.length, 6);
    epoch = 1;
    tokens.clear();
    await list.loadMore();
    assert.equal(list.notice, Notices.cursorRejected);
    assert.equal(list.items.length, 6);
    await list.loadMore();
    assert.deepEqual(
      ids(list),
      data.map((d) => d.sessionId),
    );
    assert.equal(list.nextCursor, undefined);
    assert.ok(agent.calls.length <= 6);
  });

  it('stops, instead of spinning, when an agent answers every cursor with the first page after a restart', async () => {
    // The first cursor is refused; from then on every cursor brings the first page again, each
    // time under a fresh token: catching up would never end.
    let n = 0;
    const { agent, list } = setup(
      { c1: new ProtocolError('a', 'session/list', 'Invalid cursor', ErrorCodes.InvalidParams) },
      () => page([session('a', FOLDER), session('b', FOLDER)], n++ === 0 ? 'c1' : `fresh${n}`),
    );
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.notice, Notices.cursorRejected);
    assert.ok(list.nextCursor?.startsWith('fresh'));
    await list.loadMore();
    assert.deepEqual(ids(list), ['a', 'b']);
    assert.equal(list.nextCursor, undefined, 'no "Load more" left');
    assert.equal(list.notice, Notices.repeatedPage);
    const asked = agent.calls.length;
    assert.ok(asked <= 4, `${asked} calls`);
    await list.loadMore();
    assert.equal(agent.calls.length, asked, 'nothing more is asked');
  });

  it('keeps errors untouched in state error and retries the failed step', async () => {
    const exited = new AgentExited('a', 1, null, 'boom');
    let fail = true;
    const { list, changes } = setup({ '': () => (fail ? exited : page([session('a', FOLDER)])) });
    await list.loadFirstPage();
    assert.equal(list.state, 'error');
    assert.equal(list.error, exited);
    assert.deepEqual(changes.at(-1), { kind: 'state' });
    fail = false;
    await list.retry();
    assert.equal(list.state, 'idle');
    assert.equal(list.error, undefined);
    assert.deepEqual(ids(list), ['a']);
  });

  it('retries a failed loadMore with the same cursor', async () => {
    let fail = true;
    const { agent, list } = setup({
      '': page([session('a', FOLDER)], 'c1'),
      c1: () => (fail ? new Error('timeout') : page([session('b', FOLDER)])),
    });
    await list.loadFirstPage();
    await list.loadMore();
    assert.equal(list.state, 'error');
    fail = false;
    await list.retry();
    assert.deepEqual(ids(list), ['a', 'b']);
    assert.deepEqual(
      agent.calls.map((c) => c.cursor),
      [undefined, 'c1', 'c1'],
    );
  });

  it('logs sessions the connection dropped for their shape and shows the rest', async () => {
    const { list, logger } = setup({ '': page([session('a', FOLDER)], undefined, 3) });
    await list.loadFirstPage();
    assert.deepEqual(ids(list), ['a']);
    assert.ok(
      logger.lines.some((l) => l.startsWith('warn') && l.includes('3 malformed')),
      logger.lines.join('\n'),
    );
  });
});
