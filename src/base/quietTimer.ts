import type { IDisposable } from './lifecycle';

/** The time and the timer a {@link QuietTimer} runs on; tests give it one they move by hand. */
export interface QuietClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: QuietClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Calls `onQuiet` once `ms` have passed without a `touch()`. A touch only notes the time: the
 * one timer, when it fires early, waits again for what is left, so a touch per update of a
 * replay (thousands a second) sets no timer of its own.
 */
export class QuietTimer implements IDisposable {
  private last = 0;
  private timer: unknown;

  constructor(
    private readonly ms: number,
    private readonly onQuiet: () => void,
    private readonly clock: QuietClock = systemClock,
  ) {}

  /** Something happened: the quiet starts over (and the wait, if none is under way). */
  touch(): void {
    this.last = this.clock.now();
    if (this.timer === undefined) this.wait(this.ms);
  }

  /** Stops waiting: no call until the next touch. */
  cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.cancel();
  }

  private wait(ms: number): void {
    this.timer = this.clock.setTimeout(() => {
      const left = this.ms - (this.clock.now() - this.last);
      if (left > 0) return this.wait(left);
      this.timer = undefined;
      this.onQuiet();
    }, ms);
  }
}
