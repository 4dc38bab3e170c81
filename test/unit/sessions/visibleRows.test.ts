import * as assert from 'node:assert/strict';
import { compileHideRules } from '../../../src/sessions/hide';
import { visibleRows, type RowFilter } from '../../../src/sessions/visibleRows';
import { sessionRow } from '../../support/builders/sessions';

const rows = [
  sessionRow('a', { title: 'Fix the bug', _meta: { messageCount: 4 } }),
  sessionRow('b', { title: 'Side chain', _meta: { claudeCode: { isSidechain: true } } }),
  sessionRow('c', { title: null, _meta: { messageCount: 0 } }),
  sessionRow('d', { title: '[auto] nightly' }),
  sessionRow('e', { title: 'Archived by the agent', archived: true }),
  sessionRow('f', { title: 'Archived here' }),
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
    const untitled = [sessionRow('x', { title: null }), sessionRow('y')];
    assert.deepEqual(ids(visibleRows(untitled, filter())), ['x', 'y']);
  });

  it('lists a conversation once: a row another row names among its aliases is left out', () => {
    const listed = [
      sessionRow('now', { title: 'After /clear', aliases: ['before'] }),
      sessionRow('before', { title: 'Before /clear' }),
      sessionRow('other', { title: 'Other' }),
    ];
    assert.deepEqual(ids(visibleRows(listed, filter())), ['now', 'other']);
  });
});
