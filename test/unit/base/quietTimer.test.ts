import * as assert from 'node:assert/strict';
import { QuietTimer, type QuietClock } from '../../../src/base/quietTimer';

/** A clock that moves only when the test says, running the timers that come due on the way. */
class FakeClock implements QuietClock {
  private time = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves the time forward by `ms`, firing each timer at its own moment, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
  }
}

describe('QuietTimer', () => {
  it('calls once the quiet lasts, not while touches keep coming', () => {
    const clock = new FakeClock();
    const calls: number[] = [];
    const timer = new QuietTimer(60, () => calls.push(clock.now()), clock);
    timer.touch();
    // Touched every 10 ms for 150 ms: never 60 ms of quiet.
    for (let i = 0; i < 15; i++) {
      clock.advance(10);
      timer.touch();
    }
    assert.equal(calls.length, 0, 'no call while touched');
    const lastTouch = clock.now();
    clock.advance(59);
    assert.equal(calls.length, 0, 'not before the quiet lasted');
    clock.advance(150);
    assert.equal(calls.length, 1, 'one call after the quiet');
    assert.ok(calls[0]! >= lastTouch + 59, `called ${calls[0]!} ms in, the last touch at ${lastTouch} ms`);
    timer.dispose();
  });

  it('does nothing before the first touch, after cancel, or after dispose; a touch starts it again', () => {
    const clock = new FakeClock();
    let calls = 0;
    const timer = new QuietTimer(20, () => calls++, clock);
    clock.advance(50);
    assert.equal(calls, 0, 'not started');
    timer.touch();
    timer.cancel();
    clock.advance(50);
    assert.equal(calls, 0, 'cancelled');
    timer.touch();
    clock.advance(50);
    assert.equal(calls, 1, 'touched again');
    timer.touch();
    timer.dispose();
    clock.advance(50);
    assert.equal(calls, 1, 'disposed');
  });
});
