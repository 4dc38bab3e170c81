import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ListPage } from '../../../src/agent/types';
import { MemoryLogger } from '../../../src/agent/log';
import type { SessionListChange } from '../../../src/sessions/sessionList';
import { SessionList } from '../../../src/sessions/sessionList';
import { deferred, FakeAgent, page, session } from './fakeAgent';

const FOLDER = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-fresh-')));

function setup(first: ListPage, more: ListPage) {
  const agent = new FakeAgent({ '': first, c1: more });
  const logger = new MemoryLogger();
  const list = new SessionList({ agentId: 'a', folder: FOLDER, list: agent.list, logger });
  const changes: SessionListChange[] = [];
  list.onDidChange((c) => changes.push(c));
  return { agent, list, changes, logger };
}
const ids = (list: SessionList) => list.items.map((r) => r.sessionId);

describe('SessionList.revalidate: a list that stays fresh', () => {
  after(() => fs.rmSync(FOLDER, { recursive: true, force: true }));

  it('puts new sessions on top and changes others in place, keeping later pages and the cursor', async () => {
    const { agent, list, changes } = setup(
      page([session('s1', FOLDER), session('s2', FOLDER)], 'c1'),
      page([session('s3', FOLDER)], 'c2'),
    );
    await list.loadFirstPage();
    await list.loadMore();
    agent.pages[''] = page(
      [session('n1', FOLDER), session('s1', FOLDER, { title: 'Renamed elsewhere' }), session('s2', FOLDER)],
      'c1',
    );
    changes.length = 0;
    await list.revalidate();
    assert.deepEqual(ids(list), ['n1', 's1', 's2', 's3'], 'the third row, from page two, stays');
    assert.equal(list.get('s1')!.label, 'Renamed elsewhere');
    assert.equal(list.nextCursor, 'c2', 'paging goes on where it was');
    assert.deepEqual(changes, [{ kind: 'reset' }], 'one change, and no loading state');
  });

  it('fires one row change when one row changed, and nothing when nothing did', async () => {
    const { agent, list, changes } = setup(page([session('s1', FOLDER), session('s2', FOLDER)]), page([]));
    await list.loadFirstPage();
    changes.length = 0;
    await list.revalidate();
    assert.deepEqual(changes, []);
    agent.pages[''] = page([session('s1', FOLDER), session('s2', FOLDER, { updatedAt: '2026-01-01T00:00:00Z' })]);
    await list.revalidate();
    assert.deepEqual(changes, [{ kind: 'row', sessionId: 's2' }]);
  });

  it('keeps every row shown while the page loads, and when it fails', async () => {
    const { agent, list, logger } = setup(page([session('s1', FOLDER)]), page([]));
    await list.loadFirstPage();
    const held = deferred<ListPage>();
    agent.pages[''] = () => held.promise;
    const run = list.revalidate();
    assert.deepEqual(ids(list), ['s1']);
    assert.equal(list.state, 'idle', 'no "Loading…" for a re-read');
    held.reject(new Error('agent busy'));
    await run;
    assert.deepEqual(ids(list), ['s1']);
    assert.equal(list.state, 'idle', 'a failed re-read shows no error row');
    assert.ok(logger.lines.some((l) => /re-reading the first page failed: Error: agent busy/.test(l)));
  });

  it('does nothing before the first page or while another load runs, and gives way to Refresh', async () => {
    const { agent, list } = setup(page([session('s1', FOLDER)]), page([]));
    await list.revalidate();
    assert.equal(agent.calls.length, 0, 'not loaded yet: nothing to keep fresh');
    await list.loadFirstPage();
    const held = deferred<ListPage>();
    agent.pages[''] = () => held.promise;
    const fresh = list.revalidate();
    agent.pages[''] = page([session('r1', FOLDER)]);
    await list.refresh();
    held.resolve(page([session('late', FOLDER)]));
    await fresh;
    assert.deepEqual(ids(list), ['r1'], 'the abandoned re-read did not fold its late page in');
  });

  it('lets a created-here session go once the agent lists it', async () => {
    const { agent, list } = setup(page([session('s1', FOLDER)]), page([]));
    await list.loadFirstPage();
    list.addCreated(session('new', FOLDER, { title: null }));
    agent.pages[''] = page([session('new', FOLDER, { title: 'First prompt' }), session('s1', FOLDER)]);
    await list.revalidate();
    assert.deepEqual(ids(list), ['new', 's1']);
    assert.equal(list.get('new')!.label, 'First prompt');
    // Listed now, so no longer kept on top by this window: a fresh list without it drops it.
    agent.pages[''] = page([session('s1', FOLDER)]);
    await list.refresh();
    assert.deepEqual(ids(list), ['s1']);
  });
});
