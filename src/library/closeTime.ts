/**
 * A session's time after this client's own `session/close`. Some agents write the session again
 * when it closes, a moment after answering the close (Claude Code rewrites its transcript as its
 * process for the session ends): the kept copy would then look moved on at the next open, and
 * every open would replay the whole history again. A close that found the kept copy current
 * takes the agent's time once it has settled; activity elsewhere (before the close) still counts
 * as moved on. Pure: the agent and the library come in as functions.
 */
import { sameTime } from './freshness';

/** After the close, the time is read again at these delays (ms) until it moves. */
export const CLOSE_READS_MS = [0, 250, 750, 1_500, 3_000, 6_000, 10_000];

export interface CloseTimeDeps {
  /** The session's `updatedAt` as the agent lists it now. */
  listed(): Promise<string | null | undefined>;
  /** Keeps `updatedAt` as what the agent reports of the session. */
  keep(updatedAt: string): Promise<void>;
  /** Whether reading goes on (the agent still runs, the library is on). */
  alive(): boolean;
  sleep?: (ms: number) => Promise<void>;
}

const sleepMs = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Reads the time after a close whose kept copy was current at `before`; keeps the new one when
 * it moved. Resolves with whether it moved: true, false (it stayed through every read), or
 * undefined (reading stopped: the agent is gone or the library off, nothing learnt).
 */
export async function timeAfterClose(before: string, deps: CloseTimeDeps): Promise<boolean | undefined> {
  const sleep = deps.sleep ?? sleepMs;
  let waited = 0;
  for (const at of CLOSE_READS_MS) {
    await sleep(at - waited);
    waited = at;
    if (!deps.alive()) return undefined;
    const now = await deps.listed();
    if (now && !sameTime(now, before)) {
      await deps.keep(now);
      return true;
    }
  }
  return false;
}
