import * as assert from 'node:assert/strict';
import { ByteBudget } from '../../../src/agent/budget';

describe('ByteBudget (file bytes held by reads at once)', () => {
  it('lets work take bytes while they fit, holds the rest in order, and lets a piece larger than all run alone', async () => {
    const budget = new ByteBudget(10);
    const order: string[] = [];
    const a = await budget.take(6);
    const b = await budget.take(4);
    assert.equal(budget.inUse, 10);
    const c = budget.take(20).then((release) => (order.push('c'), release));
    const d = budget.take(1).then((release) => (order.push('d'), release));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, [], 'both wait');
    a();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, [], 'c, first in line, needs everything');
    b();
    (await c)();
    (await d)();
    assert.deepEqual(order, ['c', 'd']);
    assert.equal(budget.inUse, 0);
  });

  it('gives up waiting when the request is cancelled, and lets the next one through', async () => {
    const budget = new ByteBudget(10);
    const held = await budget.take(10);
    const cancel = new AbortController();
    const cancelled = budget.take(5, cancel.signal);
    const next = budget.take(5);
    cancel.abort(new Error('the agent cancelled'));
    await assert.rejects(cancelled, /the agent cancelled/);
    held();
    (await next)();
    assert.equal(budget.inUse, 0);
  });
});
