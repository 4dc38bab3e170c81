/**
 * "Index This Folder's Sessions": loads a folder's sessions one by one in the background so the
 * library keeps them all and search covers them. Low priority: one at a time, a pause between
 * two, and none while a chat is busy (a turn or a load under way). Cancellable; reports
 * progress. Sessions the library keeps whole and unchanged are skipped.
 */
import { sameTime } from './freshness';
import type { KeptSession } from './types';

export interface IndexTarget {
  sessionId: string;
  /** The session's `updatedAt` in the agent's list. */
  updatedAt?: string | null;
}

export interface IndexJob {
  sessions: readonly IndexTarget[];
  /** What the library keeps of a session now. */
  kept: (sessionId: string) => Promise<KeptSession | undefined>;
  /** Loads one session from the agent and keeps it; rejects when it could not. */
  load: (sessionId: string, signal: AbortSignal) => Promise<void>;
  /** Whether a chat is busy now: the job waits while it is. */
  busy: () => boolean;
  progress: (p: { done: number; total: number; sessionId?: string; waiting?: boolean }) => void;
  signal: AbortSignal;
  /** Pause between two loads, and how often a paused job looks again. */
  pauseMs?: number;
  log?: (message: string) => void;
}

export interface IndexResult {
  indexed: number;
  skipped: number;
  failed: number;
  cancelled: boolean;
  /** Set when the job stopped early because loads kept failing. */
  stoppedBecause?: string;
}

const PAUSE_MS = 250;
/** Loads failing one after another: the agent is not well, stop rather than fail them all. */
const MAX_FAILURES_IN_A_ROW = 3;

/** Whether the library holds a session whole and as the agent lists it now. */
export function keptAsListed(kept: KeptSession | undefined, listed: IndexTarget): boolean {
  return !!kept?.complete && !!kept.updatedAt && !!listed.updatedAt && sameTime(kept.updatedAt, listed.updatedAt);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export async function indexSessions(job: IndexJob): Promise<IndexResult> {
  const pause = job.pauseMs ?? PAUSE_MS;
  const result: IndexResult = { indexed: 0, skipped: 0, failed: 0, cancelled: false };
  const total = job.sessions.length;
  let inARow = 0;
  let done = 0;
  for (const target of job.sessions) {
    if (job.signal.aborted) break;
    job.progress({ done, total, sessionId: target.sessionId });
    if (keptAsListed(await job.kept(target.sessionId), target)) {
      result.skipped++;
      done++;
      continue;
    }
    while (job.busy() && !job.signal.aborted) {
      job.progress({ done, total, sessionId: target.sessionId, waiting: true });
      await sleep(pause, job.signal);
    }
    if (job.signal.aborted) break;
    try {
      await job.load(target.sessionId, job.signal);
      result.indexed++;
      inARow = 0;
    } catch (e) {
      if (job.signal.aborted) break;
      result.failed++;
      job.log?.(`Indexing ${target.sessionId} failed: ${e instanceof Error ? e.message : String(e)}`);
      if (++inARow >= MAX_FAILURES_IN_A_ROW) {
        result.stoppedBecause = e instanceof Error ? e.message : String(e);
        break;
      }
    }
    done++;
    job.progress({ done, total });
    await sleep(pause, job.signal);
  }
  result.cancelled = job.signal.aborted;
  return result;
}
