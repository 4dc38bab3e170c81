import * as assert from 'node:assert/strict';
import { compileHideRules } from '../../../src/sessions/hide';
import { toRow } from '../../../src/sessions/rows';
import { visibleRows, type RowFilter } from '../../../src/sessions/visibleRows';

const rows = [
  toRow({ sessionId: 'a', cwd: '/p', title: 'Fix the bug', _meta: { messageCount: 4 } }),
  toRow({ sessionId: 'b', cwd: '/p', title: 'Side chain', _meta: { claudeCode: { isSidechain: true } } }),
  toRow({ sessionId: 'c', cwd: '/p', title: null, _meta: { messageCount: 0 } }),
  toRow({ sessionId: 'd', cwd: '/p', title: '[auto] nightly' }),
  toRow({ sessionId: 'e', cwd: '/p', title: 'Archived by the agent', archived: true }),
  toRow({ sessionId: 'f', cwd: '/p', title: 'Archived here' }),
];
const filter = (over: Partial<RowFilter> = {}): RowFilter => ({
  rules: compileHideRules({ titlePatterns: ['^\\[auto\\]'] }),
  showHidden: false,
  isArchived: (id) => id === 'f',
  keep: () => false,
  ...over,
});
const ids = (r: { rows: readonly { sessionId: string }[] }) => r.rows.map((x) => x.sessionId);

describe('visibleRows', () => {
  it('leaves out archived sessions and what the rules hide, counting the hidden', () => {
    const v = visibleRows(rows, filter());
    assert.deepEqual(ids(v), ['a']);
    assert.equal(v.hidden, 3);
  });

  it('shows the hidden ones when asked, in place, still counting them; archived ones never', () => {
    const v = visibleRows(rows, filter({ showHidden: true }));
    assert.deepEqual(ids(v), ['a', 'b', 'c', 'd']);
    assert.equal(v.hidden, 3);
  });

  it('keeps what the caller keeps (named, created here, open)', () => {
    const v = visibleRows(rows, filter({ keep: (id) => id === 'b' || id === 'c' }));
    assert.deepEqual(ids(v), ['a', 'b', 'c']);
    assert.equal(v.hidden, 1);
  });

  it('hides nothing for want of a title when no session of the list has one', () => {
    const untitled = [toRow({ sessionId: 'x', cwd: '/p', title: null }), toRow({ sessionId: 'y', cwd: '/p' })];
    assert.deepEqual(ids(visibleRows(untitled, filter())), ['x', 'y']);
  });
});
