import assert from 'node:assert/strict';
import { dateGroup, groupByDate } from '../../../src/sessions/dateGroups';
import { sortByUpdatedAt } from '../../../src/sessions/picks';
import { sessionRow } from '../../support/builders/sessions';

// Local times, as the headings are calendar days where the user is.
const now = new Date(2026, 10, 23, 9, 30).getTime();
const at = (d: number, h: number, m = 0) => new Date(2026, 10, d, h, m).getTime();

describe('Date headings of the Sessions view', () => {
  it('puts a time under Today, Yesterday, Last 7 days or Older by calendar day', () => {
    assert.equal(dateGroup(at(23, 0, 1), now), 'today');
    assert.equal(dateGroup(at(22, 23, 59), now), 'yesterday', 'late last night is yesterday, not today');
    assert.equal(dateGroup(at(22, 0, 0), now), 'yesterday');
    assert.equal(dateGroup(at(21, 23, 0), now), 'week');
    assert.equal(dateGroup(at(16, 0, 0), now), 'week');
    assert.equal(dateGroup(at(15, 23, 0), now), 'older');
    assert.equal(dateGroup(undefined, now), 'undated');
    assert.equal(dateGroup(now + 3_600_000, now), 'today', 'a clock ahead of ours is today');
  });

  it('cuts rows, newest first, into one run per heading; rows without a time come last', () => {
    const row = (id: string, ms?: number) =>
      sessionRow(id, { ...(ms !== undefined ? { updatedAt: new Date(ms).toISOString() } : {}) });
    // The agent's order, with the session just talked in (d) last and an undated one (u) first.
    const rows = [row('u'), row('a', at(22, 10)), row('b', at(10, 10)), row('c', at(20, 10)), row('d', at(23, 9))];
    const runs = groupByDate(sortByUpdatedAt(rows), now);
    assert.deepEqual(
      runs.map((r) => [r.group, r.rows.map((x) => x.sessionId)]),
      [
        ['today', ['d']],
        ['yesterday', ['a']],
        ['week', ['c']],
        ['older', ['b']],
        ['undated', ['u']],
      ],
    );
    assert.deepEqual(groupByDate([], now), []);
  });
});
