import * as assert from 'node:assert/strict';
import { keptSessions } from '../../../src/library/keptSessions';
import type { Library } from '../../../src/library/library';
import type { KeptSession, Scope } from '../../../src/library/types';

const kept = (agentId: string, sessionId: string, cwd: string): KeptSession => ({
  agentId,
  sessionId,
  cwd,
  complete: true,
  entries: 1,
  bytes: 1,
  keptAt: 0,
  openedAt: 0,
});

/** A library keeping these sessions (most recently opened first), counting its reads by scope. */
function libraryOf(sessions: KeptSession[]) {
  const reads: Scope[] = [];
  const library = {
    sessions: (scope: Scope = {}) => {
      reads.push(scope);
      return Promise.resolve(sessions.filter((s) => scope.cwd === undefined || s.cwd === scope.cwd));
    },
  } as unknown as Library;
  return { library, reads };
}

describe('Kept sessions looked up by id', () => {
  const sessions = [kept('b', 's1', '/p'), kept('a', 's1', '/p'), kept('a', 's2', '/q'), kept('a', 's3', '/r')];

  it("reads each folder once, however its path is written, and finds only those folders' sessions", async () => {
    const { library, reads } = libraryOf(sessions);
    const find = await keptSessions(library, ['/p', '/q', '/p/', '/q']);
    assert.deepEqual(reads, [{ cwd: '/p' }, { cwd: '/q' }]);
    assert.equal(find('s2')?.cwd, '/q');
    assert.equal(find('s3'), undefined, 'a folder not asked for');
  });

  it('finds by id alone the one read first, and by agent and id the exact one', async () => {
    const { library, reads } = libraryOf(sessions);
    const find = await keptSessions(library, 'everything');
    assert.deepEqual(reads, [{}], 'everything kept in one read');
    assert.equal(find('s1')?.agentId, 'b', 'the one opened last');
    assert.equal(find('s1', 'a')?.agentId, 'a');
    assert.equal(find('s2', 'b'), undefined, 'another agent’s id');
    assert.equal(find('s3')?.cwd, '/r');
  });

  it('rejects when the library cannot answer, for the caller to decide', async () => {
    const library = { sessions: () => Promise.reject(new Error('the library is closed')) } as unknown as Library;
    await assert.rejects(keptSessions(library, ['/p']), /the library is closed/);
  });
});
