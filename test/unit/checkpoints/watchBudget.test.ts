import assert from 'node:assert/strict';
import { MAX_DIRS, watchBudget } from '../../../src/checkpoints/watchProtocol';

describe("The checkpoints' share of the user's inotify watches", () => {
  it("takes a quarter of the user's limit, never more than its own cap", () => {
    assert.equal(watchBudget(8192), 2048, "the oldest kernels' default");
    assert.equal(watchBudget(65536), 16384);
    assert.equal(watchBudget(1_048_576), MAX_DIRS, 'a large limit is not taken whole');
  });

  it('takes the oldest default when the limit cannot be read or makes no sense', () => {
    for (const unread of [undefined, NaN, 0, -5]) assert.equal(watchBudget(unread), 2048, String(unread));
  });
});
