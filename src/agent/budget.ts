/**
 * A number of bytes shared by work that holds large buffers at once (reading files for the
 * agent): each piece of work takes what it needs and waits, in order, while the rest is taken.
 * A piece larger than the whole budget runs alone. A flood of requests then costs the budget,
 * not the sum of what they ask for.
 */
export class ByteBudget {
  private used = 0;
  private readonly waiting: { bytes: number; start: () => void }[] = [];

  constructor(readonly total: number) {}

  /** Bytes taken now. */
  get inUse(): number {
    return this.used;
  }

  /**
   * Resolves with a release function once `bytes` fit. Rejects with the signal's reason if it
   * aborts while waiting.
   */
  async take(bytes: number, signal?: AbortSignal): Promise<() => void> {
    const n = Math.min(Math.max(0, bytes), this.total);
    signal?.throwIfAborted();
    if (this.waiting.length === 0 && this.fits(n)) this.used += n;
    else {
      // Granted in next(), which counts the bytes before this resumes.
      await new Promise<void>((resolve, reject) => {
        const waiter = { bytes: n, start: resolve };
        this.waiting.push(waiter);
        signal?.addEventListener(
          'abort',
          () => {
            const i = this.waiting.indexOf(waiter);
            if (i < 0) return;
            this.waiting.splice(i, 1);
            reject(signal.reason);
            this.next();
          },
          { once: true },
        );
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= n;
      this.next();
    };
  }

  private fits(n: number): boolean {
    return this.used === 0 || this.used + n <= this.total;
  }

  private next(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) {
      const waiter = this.waiting.shift()!;
      this.used += waiter.bytes;
      waiter.start();
    }
  }
}
