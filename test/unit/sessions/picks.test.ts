import * as assert from 'node:assert/strict';
import { matchIdPrefix, pickLastSession, sortByUpdatedAt } from '../../../src/sessions/picks';
import { sessionRow } from '../../support/builders/sessions';

const row = (sessionId: string, updatedAt?: string) => sessionRow(sessionId, { updatedAt });

describe('QuickPick helpers', () => {
  const rows = [
    row('n1'),
    row('old', '2025-01-01T00:00:00Z'),
    row('n2', 'garbage'),
    row('new', '2025-06-01T00:00:00Z'),
    row('mid', '2025-03-01T00:00:00Z'),
    row('n3'),
  ];

  it('sorts newest first, rows without a time last in the agent order', () => {
    assert.deepEqual(
      sortByUpdatedAt(rows).map((r) => r.sessionId),
      ['new', 'mid', 'old', 'n1', 'n2', 'n3'],
    );
    assert.deepEqual(rows.map((r) => r.sessionId)[0], 'n1', 'input untouched');
  });

  it('keeps the agent order among equal times', () => {
    const same = [row('b', '2025-01-01T00:00:00Z'), row('a', '2025-01-01T00:00:00Z')];
    assert.deepEqual(
      sortByUpdatedAt(same).map((r) => r.sessionId),
      ['b', 'a'],
    );
  });

  it('matches id prefixes of 6+ characters, every match, any case', () => {
    const ids = [row('3f2a9c10-aaaa'), row('3f2a9c10-bbbb'), row('3f2a9d00'), row('sess_XYZ123abc')];
    assert.deepEqual(
      matchIdPrefix(ids, '3f2a9c').map((r) => r.sessionId),
      ['3f2a9c10-aaaa', '3f2a9c10-bbbb'],
    );
    assert.deepEqual(
      matchIdPrefix(ids, ' SESS_xyz1 ').map((r) => r.sessionId),
      ['sess_XYZ123abc'],
    );
    assert.deepEqual(matchIdPrefix(ids, '3f2a9'), []);
    assert.deepEqual(matchIdPrefix(ids, '3f2a9c 10'), []);
  });

  it('picks the last opened session, else the most recent, else none', () => {
    assert.equal(pickLastSession('old', rows), 'old');
    assert.equal(pickLastSession('gone', rows), 'new', 'a session the agent no longer lists gives way to the newest');
    assert.equal(
      pickLastSession('later-page', rows, (id) => id === 'later-page'),
      'later-page',
    );
    assert.equal(pickLastSession(undefined, rows), 'new');
    assert.equal(pickLastSession(undefined, []), undefined);
  });

  it("takes the agent's first session when none has a time, rather than starting a new one", () => {
    assert.equal(pickLastSession(undefined, [row('a'), row('b', 'garbage')]), 'a');
    assert.equal(pickLastSession('gone', [row('a'), row('b')]), 'a');
  });
});
