/**
 * One asynchronous run at a time that can be abandoned: while one is under way, callers share
 * it; `cancel()` aborts its signal and forgets it, so the next `start` begins afresh.
 */
export class SingleFlight {
  private controller: AbortController | undefined;
  private running: Promise<void> | undefined;

  /** The run under way, if any. */
  get current(): Promise<void> | undefined {
    return this.running;
  }

  /** Starts `run` with a fresh signal; it is the current run until it settles or is cancelled. */
  start(run: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const running = run(controller.signal).finally(() => {
      if (this.controller === controller) {
        this.controller = undefined;
        this.running = undefined;
      }
    });
    this.running = running;
    return running;
  }

  /** Aborts the run under way (its result is ignored) and forgets it. */
  cancel(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.running = undefined;
  }
}
