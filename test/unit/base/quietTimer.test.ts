import * as assert from 'node:assert/strict';
import { QuietTimer } from '../../../src/base/quietTimer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('QuietTimer', () => {
  it('calls once the quiet lasts, not while touches keep coming', async () => {
    const calls: number[] = [];
    const started = performance.now();
    const timer = new QuietTimer(60, () => calls.push(performance.now() - started));
    timer.touch();
    // Touched every 10 ms for 150 ms: never 60 ms of quiet.
    for (let i = 0; i < 15; i++) {
      await sleep(10);
      timer.touch();
    }
    assert.equal(calls.length, 0, 'no call while touched');
    const lastTouch = performance.now() - started;
    await sleep(150);
    assert.equal(calls.length, 1, 'one call after the quiet');
    assert.ok(
      calls[0]! >= lastTouch + 59,
      `called ${calls[0]!.toFixed(0)} ms in, the last touch at ${lastTouch.toFixed(0)} ms`,
    );
    timer.dispose();
  });

  it('does nothing before the first touch, after cancel, or after dispose; a touch starts it again', async () => {
    let calls = 0;
    const timer = new QuietTimer(20, () => calls++);
    await sleep(50);
    assert.equal(calls, 0, 'not started');
    timer.touch();
    timer.cancel();
    await sleep(50);
    assert.equal(calls, 0, 'cancelled');
    timer.touch();
    await sleep(50);
    assert.equal(calls, 1, 'touched again');
    timer.touch();
    timer.dispose();
    await sleep(50);
    assert.equal(calls, 1, 'disposed');
  });
});
