import * as assert from 'node:assert/strict';
import { numbers } from '../../../src/library/searchCache';

describe("the library's search: rowid lists as SQLite's group_concat gives them", () => {
  it('reads each number of the list, past 32 bits too', () => {
    const ids = [0, 7, 65_536, 65_537, 2 ** 31 + 5, 2 ** 40 + 123, Number.MAX_SAFE_INTEGER];
    assert.deepEqual([...numbers(ids.join(','))], ids);
  });

  it('reads an empty list as no numbers, and one number alone', () => {
    assert.equal(numbers('').length, 0);
    assert.deepEqual([...numbers('42')], [42]);
  });

  it('agrees with split and Number over a long list', () => {
    const list = Array.from({ length: 80_000 }, (_, i) => i * 8191 + (i % 13)).join(',');
    assert.deepEqual([...numbers(list)], list.split(',').map(Number));
  });
});
