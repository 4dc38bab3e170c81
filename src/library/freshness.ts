/**
 * When a kept transcript may stand for a session's history. The agent is the source of truth:
 * the kept copy is shown at once only when it is whole and the agent's `updatedAt` has not
 * moved since it was kept; then a resume attaches without a replay. Anything else loads as
 * without a library, and the load replaces the kept copy. Pure.
 */
import type { KeptSession } from './types';

/** How `acp.openMode` is set: its value, and whether the user chose it (not the default). */
export interface OpenModeSetting {
  mode: 'auto' | 'load' | 'resume';
  explicit: boolean;
}

export type OpenPlan =
  /** Show the kept transcript now and attach with `session/resume`. */
  | { kind: 'kept' }
  /** Attach as without a library; `reason` says why the kept copy is not used (for the log). */
  | { kind: 'agent'; reason: string };

export interface OpenFacts {
  kept: Pick<KeptSession, 'complete' | 'updatedAt' | 'entries'> | undefined;
  /** The session's `updatedAt` in the agent's list now (absent when the list does not say). */
  listed: string | null | undefined;
  setting: OpenModeSetting;
  /** Whether the agent advertises `session/resume`; undefined while it has not started. */
  canResume: boolean | undefined;
}

/** Whether the agent's time says nothing happened since `kept`: the same text, or the same instant. */
export function sameTime(kept: string, listed: string): boolean {
  if (kept === listed) return true;
  const a = Date.parse(kept);
  const b = Date.parse(listed);
  return !Number.isNaN(a) && a === b;
}

export function openPlan(f: OpenFacts): OpenPlan {
  if (f.setting.explicit && f.setting.mode === 'load') return { kind: 'agent', reason: 'acp.openMode is "load"' };
  if (!f.kept || f.kept.entries === 0) return { kind: 'agent', reason: 'not kept' };
  if (!f.kept.complete) return { kind: 'agent', reason: 'the kept copy is not the whole history' };
  if (f.canResume === false) return { kind: 'agent', reason: 'the agent cannot resume' };
  if (!f.listed || !f.kept.updatedAt) return { kind: 'agent', reason: 'no updatedAt to compare' };
  if (!sameTime(f.kept.updatedAt, f.listed)) return { kind: 'agent', reason: 'the session moved on since it was kept' };
  return { kind: 'kept' };
}
