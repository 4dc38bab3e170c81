// Timeouts are ours: the SDK has none, only cancellation.

/** Our timeouts (the SDK has none). `0` means none: the user cancels. */
export interface Timeouts {
  initialize: number;
  list: number;
  newSession: number;
  /** For load and resume: the longest wait without any update for that session. */
  setupIdle: number;
  other: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  initialize: 30_000,
  list: 30_000,
  newSession: 60_000,
  setupIdle: 60_000,
  other: 30_000,
};

/** Resolves with `undefined` after `ms`. */
export const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(resolve, ms));

export function withTimeout<T>(p: Promise<T>, ms: number, error: () => Error): Promise<T> {
  if (ms <= 0) return p;
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(error()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
