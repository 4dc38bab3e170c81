/**
 * One render per animation frame, whatever asks for it in between; a fallback timer runs it
 * where frames do not come (a hidden page). During a followed replay the thread repaints ten
 * times a second instead of every frame.
 */

/** Frames do not run in a hidden page; this bounds how long changes wait there. */
const FRAME_FALLBACK_MS = 250;
/**
 * While a history replay streams and the view follows it, entries fly past faster than anyone
 * reads; repainting the thread ten times a second instead of every frame saves rendering
 * Markdown for entries that would be pushed out a frame later.
 */
const REPLAY_REPAINT_MS = 100;

export class FrameScheduler {
  private requested = false;
  private lastRepaint = -Infinity;
  private repaintTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly run: () => void) {}

  /** Runs the frame callback once, at the next animation frame (or the fallback timer). */
  schedule(): void {
    if (this.requested) return;
    this.requested = true;
    const go = (): void => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      this.requested = false;
      this.run();
    };
    const timer = setTimeout(go, FRAME_FALLBACK_MS);
    const frame = requestAnimationFrame(go);
  }

  /**
   * Whether the thread repaints in this frame. `throttled` (a replay the view follows) allows
   * one repaint per {@link REPLAY_REPAINT_MS}; a skipped one is scheduled for when it is due.
   */
  repaintDue(throttled: boolean): boolean {
    const now = performance.now();
    const wait = throttled ? this.lastRepaint + REPLAY_REPAINT_MS - now : 0;
    if (wait > 0) {
      this.repaintTimer ??= setTimeout(() => {
        this.repaintTimer = undefined;
        this.schedule();
      }, wait);
      return false;
    }
    this.lastRepaint = now;
    return true;
  }
}
