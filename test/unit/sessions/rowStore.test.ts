import * as assert from 'node:assert/strict';
import { RowStore } from '../../../src/sessions/rowStore';
import { sessionRow } from '../../support/builders/sessions';

const row = (id: string, title = id) => sessionRow(id, { title });

describe('RowStore', () => {
  it('keeps positions right across append, prepend, replace and remove', () => {
    const store = new RowStore();
    store.reset([row('a'), row('b'), row('a', 'dup')]);
    assert.deepEqual(
      store.rows.map((r) => r.label),
      ['a', 'b'],
    );
    store.append(row('c'));
    assert.equal(store.indexOf('c'), 2);
    store.prepend(row('z'));
    assert.equal(store.indexOf('c'), 3);
    assert.equal(store.replace(row('b', 'B')), 2);
    assert.equal(store.rows[2].label, 'B');
    assert.equal(store.remove('a'), true);
    assert.equal(store.remove('a'), false);
    assert.equal(store.replace(row('a')), -1);
    assert.deepEqual(
      store.rows.map((r) => r.sessionId),
      ['z', 'b', 'c'],
    );
    assert.equal(store.indexOf('c'), 2);
    assert.equal(store.get('b')?.label, 'B');
  });
});
