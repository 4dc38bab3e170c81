import type { IDisposable } from '../base/lifecycle';

/** While the view is visible, the first pages are read again this often… */
export const REFRESH_EVERY_MS = 60_000;
/** …and never sooner than this after the last time, whatever asks (focus, showing the view). */
export const MIN_REFRESH_GAP_MS = 15_000;

/** Time as the policy needs it; tests pass a hand-driven one. */
export interface PolicyClock {
  now(): number;
  after(ms: number, run: () => void): IDisposable;
}

export const systemPolicyClock: PolicyClock = {
  now: () => Date.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    timer.unref?.();
    return { dispose: () => clearTimeout(timer) };
  },
};

/**
 * When a visible list re-reads its first page: every {@link REFRESH_EVERY_MS} while visible,
 * when the window regains focus, and when the view is shown after a long time hidden — but
 * never twice within {@link MIN_REFRESH_GAP_MS} (a focus soon after a refresh waits for the
 * gap to pass), and never while hidden. One timer at a time.
 */
export class RefreshPolicy implements IDisposable {
  private visible = false;
  private last: number;
  private timer: IDisposable | undefined;
  /** When the timer fires. */
  private due = 0;
  private disposed = false;

  constructor(
    private readonly refresh: () => void,
    private readonly clock: PolicyClock = systemPolicyClock,
  ) {
    // What the view showed first was read just now (or is being read).
    this.last = clock.now();
  }

  /** The view was shown or hidden. Hidden stops the timer; shown reads again if it has been a while. */
  setVisible(visible: boolean): void {
    if (this.disposed || visible === this.visible) return;
    this.visible = visible;
    if (!visible) return this.cancel();
    if (this.clock.now() - this.last >= REFRESH_EVERY_MS) this.request();
    else this.schedule(this.last + REFRESH_EVERY_MS);
  }

  /** The window regained focus: read again, as soon as the gap allows. */
  focused(): void {
    if (!this.disposed && this.visible) this.request();
  }

  /** A read happened for another reason (the user's Refresh, a first load): the clock starts again. */
  refreshed(): void {
    if (this.disposed) return;
    this.last = this.clock.now();
    this.cancel();
    if (this.visible) this.schedule(this.last + REFRESH_EVERY_MS);
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }

  private request(): void {
    const earliest = this.last + MIN_REFRESH_GAP_MS;
    if (this.clock.now() >= earliest) this.run();
    else this.schedule(earliest);
  }

  private run(): void {
    this.cancel();
    this.last = this.clock.now();
    this.schedule(this.last + REFRESH_EVERY_MS);
    this.refresh();
  }

  /** Sets the one timer to fire at `at`, unless it already fires sooner. */
  private schedule(at: number): void {
    if (this.timer && this.due <= at) return;
    this.cancel();
    this.due = at;
    this.timer = this.clock.after(Math.max(0, at - this.clock.now()), () => {
      this.timer = undefined;
      if (this.visible && !this.disposed) this.run();
    });
  }

  private cancel(): void {
    this.timer?.dispose();
    this.timer = undefined;
  }
}
