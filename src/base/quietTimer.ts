import type { IDisposable } from './lifecycle';

/**
 * Calls `onQuiet` once `ms` have passed without a `touch()`. A touch only notes the time: the
 * one timer, when it fires early, waits again for what is left, so a touch per update of a
 * replay (thousands a second) sets no timer of its own.
 */
export class QuietTimer implements IDisposable {
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly onQuiet: () => void,
  ) {}

  /** Something happened: the quiet starts over (and the wait, if none is under way). */
  touch(): void {
    this.last = performance.now();
    if (this.timer === undefined) this.wait(this.ms);
  }

  /** Stops waiting: no call until the next touch. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.cancel();
  }

  private wait(ms: number): void {
    this.timer = setTimeout(() => {
      const left = this.ms - (performance.now() - this.last);
      if (left > 0) return this.wait(left);
      this.timer = undefined;
      this.onQuiet();
    }, ms);
  }
}
