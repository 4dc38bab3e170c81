import * as path from 'node:path';
import type { JournalRecord } from './journal';
import { promptDigest } from './turns';

/** A session whose recorded turns changed a file: its first such turn, found again by its prompt. */
export interface TouchingSession {
  sessionId: string;
  /** When its last turn that changed the file ended (ms since the epoch). */
  at: number;
  /** The file as the journal names it (relative to the folder, `/`-separated). */
  path: string;
  /** The digest of the prompt of its first turn that changed the file… */
  prompt: string;
  /** …and how many earlier turns of the session had a prompt of that digest. */
  nth: number;
}

/**
 * `file` relative to `folder` as the journal names paths (`/`-separated), or undefined when it
 * is not inside the folder. Case is kept: git names paths as the file system spells them.
 */
export function journalPath(
  folder: string,
  file: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const rel = p.relative(folder, file);
  if (!rel || rel.startsWith('..') || p.isAbsolute(rel)) return undefined;
  return platform === 'win32' ? rel.split('\\').join('/') : rel;
}

/**
 * The sessions whose turns changed `rel` (whoever wrote it: a tool call, a command, the
 * agent's own process), from a folder's journal, the most recent first.
 */
export function sessionsTouching(records: readonly JournalRecord[], rel: string): TouchingSession[] {
  return firstTurnsChanging(records, (paths) => (paths.includes(rel) ? rel : undefined));
}

/**
 * The sessions whose turns changed a file whose path (relative to the folder) holds `like`
 * (folded to lower case, `/`-separated), with the first such path, the most recent first.
 */
export function sessionsChanging(
  records: readonly JournalRecord[],
  like: string,
): { sessionId: string; path: string }[] {
  return firstTurnsChanging(records, (paths) => paths.find((p) => p.toLowerCase().includes(like))).map(
    ({ sessionId, path }) => ({ sessionId, path }),
  );
}

/**
 * Each session with a turn whose paths `changed` picks one of: that path and prompt of its
 * first such turn, and when its last such turn ended; the most recent first.
 */
function firstTurnsChanging(
  records: readonly JournalRecord[],
  changed: (paths: readonly string[]) => string | undefined,
): TouchingSession[] {
  const seen = new Map<string, Map<string, number>>();
  const found = new Map<string, TouchingSession>();
  for (const r of records) {
    if (r.kind !== 'turn') continue;
    const digests = seen.get(r.sessionId) ?? new Map<string, number>();
    seen.set(r.sessionId, digests);
    const nth = digests.get(r.prompt) ?? 0;
    digests.set(r.prompt, nth + 1);
    const path = changed(r.paths);
    if (path === undefined) continue;
    const first = found.get(r.sessionId);
    if (first) first.at = Math.max(first.at, r.at);
    else found.set(r.sessionId, { sessionId: r.sessionId, at: r.at, path, prompt: r.prompt, nth });
  }
  return [...found.values()].sort((a, b) => b.at - a.at);
}

/** The index of the user message a {@link TouchingSession}'s turn began with, in a transcript. */
export function messageOfTurn(
  entries: readonly { type: string; text?: string }[],
  hit: Pick<TouchingSession, 'prompt' | 'nth'>,
): number | undefined {
  let nth = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.type !== 'user' || promptDigest(e.text ?? '') !== hit.prompt) continue;
    if (nth++ === hit.nth) return i;
  }
  return undefined;
}

/** What a session's turns changed in a folder, from its journal (no diff is computed). */
export interface ChangeSummary {
  /** Distinct files its turns changed. */
  files: number;
  added: number;
  deleted: number;
  turns: number;
}

/** Each session's {@link ChangeSummary} in a folder's journal. */
export function changeSummaries(records: readonly JournalRecord[]): Map<string, ChangeSummary> {
  const paths = new Map<string, Set<string>>();
  const out = new Map<string, ChangeSummary>();
  for (const t of records) {
    if (t.kind !== 'turn') continue;
    let sum = out.get(t.sessionId);
    if (!sum) out.set(t.sessionId, (sum = { files: 0, added: 0, deleted: 0, turns: 0 }));
    let seen = paths.get(t.sessionId);
    if (!seen) paths.set(t.sessionId, (seen = new Set()));
    for (const p of t.paths) seen.add(p);
    sum.added += t.added;
    sum.deleted += t.deleted;
    sum.turns++;
    // Past MAX_PATHS a turn lists only some of its files: its count is the floor.
    if (t.files > t.paths.length) sum.files += t.files - t.paths.length;
  }
  for (const [id, sum] of out) sum.files += paths.get(id)!.size;
  return out;
}
