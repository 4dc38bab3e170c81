import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryLogger } from '../../../src/agent/log';
import { SessionList } from '../../../src/sessions/sessionList';
import { findListed } from '../../../src/sessions/sessionLists';
import { FakeAgent, page, session, sessions } from './fakeAgent';

const FOLDER = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-find-')));

function listOf(agent: FakeAgent): SessionList {
  return new SessionList({ agentId: 'a', folder: FOLDER, list: agent.list, logger: new MemoryLogger() });
}

describe('findListed', () => {
  after(() => fs.rmSync(FOLDER, { recursive: true, force: true }));

  it('pages on until the session is listed, and no further', async () => {
    const agent = new FakeAgent({}, (call) => {
      const n = call.cursor === undefined ? 0 : Number(call.cursor);
      return page(sessions(`p${n}-`, 10, FOLDER), String(n + 1));
    });
    const row = await findListed(listOf(agent), 'p3-4', 20);
    assert.equal(row?.sessionId, 'p3-4');
    assert.equal(agent.calls.length, 4, 'the first page and three more');
  });

  it('gives up after the pages it may read', async () => {
    const agent = new FakeAgent({}, (call) => {
      const n = call.cursor === undefined ? 0 : Number(call.cursor);
      return page([session(`s${n}`, FOLDER)], String(n + 1));
    });
    assert.equal(await findListed(listOf(agent), 'nowhere', 5), undefined);
    assert.equal(agent.calls.length, 6, 'the first page and five more');
  });

  it('stops at the end of the list, and when a page fails', async () => {
    const ended = new FakeAgent({ '': page([session('a', FOLDER)], 'c1'), c1: page([session('b', FOLDER)]) });
    assert.equal(await findListed(listOf(ended), 'z', 50), undefined);
    assert.equal(ended.calls.length, 2);
    const failing = new FakeAgent({ '': page([session('a', FOLDER)], 'c1'), c1: new Error('store unavailable') });
    const list = listOf(failing);
    assert.equal(await findListed(list, 'z', 50), undefined);
    assert.equal(failing.calls.length, 2, 'no retry loop on a failing page');
    assert.equal(list.state, 'error');
  });
});
