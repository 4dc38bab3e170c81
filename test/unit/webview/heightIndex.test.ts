import * as assert from 'node:assert/strict';
import { HeightIndex } from '../../../src/webview/heightIndex';

describe('HeightIndex', () => {
  it('keeps offsets and finds the entry at an offset', () => {
    const index = new HeightIndex(2);
    [10, 20, 30, 40].forEach((h) => index.push(h));
    assert.equal(index.length, 4);
    assert.equal(index.total, 100);
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((i) => index.offsetOf(i)),
      [0, 10, 30, 60, 100],
    );
    assert.deepEqual(
      [0, 9, 10, 29, 30, 99, 100, 1e9, -5].map((o) => index.indexAt(o)),
      [0, 0, 1, 1, 2, 3, 3, 3, 0],
    );
  });

  it('updates heights and survives growth past its capacity', () => {
    const index = new HeightIndex(1);
    const heights: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const h = (i * 37) % 200;
      heights.push(h);
      index.push(h);
    }
    for (let i = 0; i < 5000; i += 7) {
      heights[i] = 55;
      index.set(i, 55);
    }
    let sum = 0;
    for (let i = 0; i < heights.length; i++) {
      assert.equal(index.offsetOf(i), sum);
      if (heights[i] > 0) assert.equal(index.indexAt(sum), i);
      sum += heights[i];
    }
    assert.equal(index.total, sum);
    index.clear();
    assert.equal(index.length, 0);
    assert.equal(index.total, 0);
    assert.equal(index.indexAt(50), 0);
  });
});
