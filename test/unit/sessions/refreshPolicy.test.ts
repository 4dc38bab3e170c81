import * as assert from 'node:assert/strict';
import {
  MIN_REFRESH_GAP_MS,
  REFRESH_EVERY_MS,
  RefreshPolicy,
  type PolicyClock,
} from '../../../src/sessions/refreshPolicy';

/** A clock driven by hand: `advance` runs the timers that fall due, in order. */
class HandClock implements PolicyClock {
  t = 1_000_000;
  private timers: { at: number; run: () => void; live: boolean }[] = [];
  now(): number {
    return this.t;
  }
  after(ms: number, run: () => void) {
    const timer = { at: this.t + ms, run, live: true };
    this.timers.push(timer);
    return { dispose: () => void (timer.live = false) };
  }
  get pending(): number {
    return this.timers.filter((t) => t.live).length;
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      next.live = false;
      this.t = next.at;
      next.run();
    }
    this.t = end;
  }
}

describe('RefreshPolicy', () => {
  const setup = () => {
    const clock = new HandClock();
    const reads: number[] = [];
    const policy = new RefreshPolicy(() => reads.push(clock.now()), clock);
    return { clock, reads, policy, start: clock.t };
  };

  it('reads every 60 s while visible, and nothing while hidden', () => {
    const { clock, reads, policy, start } = setup();
    policy.setVisible(true);
    clock.advance(3 * REFRESH_EVERY_MS);
    assert.deepEqual(
      reads,
      [1, 2, 3].map((n) => start + n * REFRESH_EVERY_MS),
    );
    policy.setVisible(false);
    assert.equal(clock.pending, 0, 'no timer while hidden');
    clock.advance(10 * REFRESH_EVERY_MS);
    assert.equal(reads.length, 3);
  });

  it('reads when the window regains focus, but never within 15 s of the last read', () => {
    const { clock, reads, policy, start } = setup();
    policy.setVisible(true);
    clock.advance(20_000);
    policy.focused();
    assert.deepEqual(reads, [start + 20_000], 'at once: the last read was 20 s ago');
    clock.advance(5_000);
    policy.focused();
    policy.focused();
    assert.equal(reads.length, 1, 'not 5 s after the last one');
    clock.advance(10_000);
    assert.deepEqual(reads, [start + 20_000, start + 35_000], 'once the 15 s gap has passed, and once only');
    clock.advance(REFRESH_EVERY_MS);
    assert.deepEqual(reads.slice(2), [start + 95_000], 'the 60 s clock starts again from the last read');
  });

  it('ignores focus while hidden, and reads on being shown after a long time hidden', () => {
    const { clock, reads, policy, start } = setup();
    policy.focused();
    clock.advance(5 * REFRESH_EVERY_MS);
    assert.deepEqual(reads, []);
    policy.setVisible(true);
    assert.deepEqual(reads, [start + 5 * REFRESH_EVERY_MS], 'shown after five minutes: read at once');
    policy.setVisible(false);
    clock.advance(10_000);
    policy.setVisible(true);
    assert.equal(reads.length, 1, 'shown again 10 s later: the next read is in 50 s');
    clock.advance(50_000);
    assert.equal(reads.length, 2);
  });

  it('starts the clock again after a read made for another reason', () => {
    const { clock, reads, policy, start } = setup();
    policy.setVisible(true);
    clock.advance(50_000);
    policy.refreshed();
    clock.advance(50_000);
    assert.deepEqual(reads, []);
    clock.advance(10_000);
    assert.deepEqual(reads, [start + 110_000]);
    policy.focused();
    assert.equal(reads.length, 1, 'a focus right after waits for the gap');
    assert.ok(MIN_REFRESH_GAP_MS === 15_000 && REFRESH_EVERY_MS === 60_000);
  });

  it('stops for good when disposed', () => {
    const { clock, reads, policy } = setup();
    policy.setVisible(true);
    policy.dispose();
    policy.focused();
    policy.setVisible(true);
    clock.advance(5 * REFRESH_EVERY_MS);
    assert.deepEqual(reads, []);
    assert.equal(clock.pending, 0);
  });
});
