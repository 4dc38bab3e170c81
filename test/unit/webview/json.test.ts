import * as assert from 'node:assert/strict';
import { boundedJson } from '../../../src/webview/json';

describe('bounded JSON', () => {
  it('prints like JSON.stringify with two spaces while it fits', () => {
    const value = { a: [1, 'two', null, true], b: {}, c: [], 'd"e': { f: 1.5 } };
    assert.deepEqual(boundedJson(value, 10_000), { text: JSON.stringify(value, null, 2), cut: false });
    assert.deepEqual(boundedJson('plain text\nas it is', 100), { text: 'plain text\nas it is', cut: false });
  });

  it('stops at the budget however large or deep the value is', () => {
    const huge = Array.from({ length: 1_000_000 }, (_, i) => ({ i }));
    const started = Date.now();
    const out = boundedJson(huge, 1000);
    assert.equal(out.cut, true);
    assert.equal(out.text.length, 1000);
    assert.ok(Date.now() - started < 200, 'work grows with what is printed, not with the value');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const nested = boundedJson(deep, 100_000);
    assert.equal(nested.cut, false);
    assert.match(nested.text, /\[…\]/);
  });
});
