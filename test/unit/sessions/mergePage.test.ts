import * as assert from 'node:assert/strict';
import type { ListedSession } from '../../../src/agent/types';
import { mergeFirstPage } from '../../../src/sessions/mergePage';
import { toRow } from '../../../src/sessions/rows';
import { sessionInfo } from '../../support/builders/sessions';

const info = (id: string, extra: Partial<ListedSession> = {}) =>
  sessionInfo(id, { title: `T ${id}`, updatedAt: '2026-01-01T00:00:00.000Z', ...extra });
const ids = (rows: readonly { sessionId: string }[]) => rows.map((r) => r.sessionId);

describe('mergeFirstPage', () => {
  const shown = ['a', 'b', 'c', 'd', 'e'].map((id) => toRow(info(id)));

  it('puts new sessions on top in the agent order and keeps every row shown', () => {
    const merged = mergeFirstPage(shown, [info('n1'), info('a'), info('n2'), info('b')])!;
    assert.deepEqual(ids(merged.rows), ['n1', 'n2', 'a', 'b', 'c', 'd', 'e']);
    assert.equal(merged.added, 2);
    assert.deepEqual(merged.changed, []);
  });

  it('changes titles and times in place: no row moves', () => {
    const merged = mergeFirstPage(shown, [
      info('c', { title: 'Renamed', updatedAt: '2026-02-01T00:00:00.000Z' }),
      info('a'),
      info('b', { _meta: { messageCount: 4 } }),
    ])!;
    assert.deepEqual(ids(merged.rows), ids(shown));
    assert.deepEqual(merged.changed, ['c', 'b']);
    assert.equal(merged.rows[2]!.label, 'Renamed');
    assert.equal(merged.rows[2]!.updatedAtMs, Date.parse('2026-02-01T00:00:00.000Z'));
    assert.equal(merged.rows[0], shown[0], 'an unchanged row is the same object');
  });

  it('keeps rows missing from the fresh page (they may have moved past it)', () => {
    const merged = mergeFirstPage(shown, [info('n1')])!;
    assert.deepEqual(ids(merged.rows), ['n1', ...ids(shown)]);
  });

  it('says nothing changed when nothing did, so no view redraws', () => {
    assert.equal(mergeFirstPage(shown, [info('a'), info('b')]), undefined);
    assert.equal(mergeFirstPage(shown, []), undefined);
    const meta = [toRow(info('m', { _meta: { x: [1, 2] } }))];
    assert.equal(mergeFirstPage(meta, [info('m', { _meta: { x: [1, 2] } })]), undefined, '_meta compared by value');
  });

  it('notices the archive flag and ignores a session the page lists twice', () => {
    const merged = mergeFirstPage(shown, [info('a', { archived: false }), info('n'), info('n', { title: 'again' })])!;
    assert.deepEqual(ids(merged.rows), ['n', ...ids(shown)]);
    assert.deepEqual(merged.changed, ['a']);
    assert.equal(merged.rows[1]!.archived, false);
  });
});
