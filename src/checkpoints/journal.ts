import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeAtomic } from '../platform/atomicWrite';
import { withFileLock } from './fileLock';
import type { SkippedFile } from './snapshot';
import { storageWrite } from './shadowRepo';

/** Why a checkpoint was taken. */
export type CheckpointPhase = 'before' | 'after' | 'undo' | 'manual';

/** A checkpoint taken, and which session and turn it belongs to. */
export interface CheckpointRecord {
  kind: 'checkpoint';
  id: string;
  /** Milliseconds since the epoch. */
  at: number;
  label: string;
  phase: CheckpointPhase;
  sessionId?: string;
  /** The turn's id: its `before` and `after` checkpoints carry the same. */
  turn?: string;
  skipped?: SkippedFile[];
  skippedCount?: number;
}

/** A turn that ended: what it changed, for rows and tooltips that must not compute diffs. */
export interface TurnRecord {
  kind: 'turn';
  sessionId: string;
  turn: string;
  at: number;
  before: string;
  after: string;
  /** A digest of the prompt, to find the user message it belongs to. */
  prompt: string;
  files: number;
  added: number;
  deleted: number;
  /** The paths changed (at most {@link MAX_PATHS}), for "sessions that touched this file". */
  paths: string[];
  /** Changed paths no tool call of the turn named. */
  unnamed: string[];
  ranCommands: boolean;
  /**
   * The before-checkpoint finished after the prompt had gone (it took longer than the wait):
   * it may hold what the agent wrote at the very start of the turn.
   */
  late?: boolean;
}

export interface RestoreRecord {
  kind: 'restore';
  at: number;
  target: string;
  undo: string;
  sessionId?: string;
  written: number;
  deleted: number;
}

/** Checkpoints pruned or cleared: records naming them are dropped when read. */
export interface ForgetRecord {
  kind: 'forget';
  at: number;
  ids: string[];
}

export type JournalRecord = CheckpointRecord | TurnRecord | RestoreRecord | ForgetRecord;

export const MAX_PATHS = 1000;
/** Past this size the journal is rewritten without what was forgotten. */
const COMPACT_BYTES = 1024 * 1024;

function valid(r: unknown): r is JournalRecord {
  if (!r || typeof r !== 'object') return false;
  const k = (r as { kind?: unknown }).kind;
  return k === 'checkpoint' || k === 'turn' || k === 'restore' || k === 'forget';
}

/**
 * A folder's record of checkpoints, sessions and turns: one JSON line per record, appended
 * under a lock shared with other windows, so it survives reloads and two windows on the same
 * folder. A line cut short (a crash mid-write) is skipped when read.
 */
export class Journal {
  private readonly lock: string;
  private cache: { size: number; mtimeMs: number; records: JournalRecord[] } | undefined;

  constructor(
    readonly file: string,
    private readonly storage: string,
  ) {
    this.lock = `${file}.lock`;
  }

  async append(...records: JournalRecord[]): Promise<void> {
    if (records.length === 0) return;
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    await storageWrite(this.storage, async () => {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await withFileLock(this.lock, () => fs.appendFile(this.file, text));
    });
  }

  /** Every record, without those about forgotten checkpoints (and without the forget records). */
  async read(): Promise<JournalRecord[]> {
    const st = await fs.stat(this.file).catch(() => undefined);
    if (!st) return [];
    if (this.cache && this.cache.size === st.size && this.cache.mtimeMs === st.mtimeMs) return this.cache.records;
    const text = await fs.readFile(this.file, 'utf8').catch(() => '');
    const all: JournalRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const r: unknown = JSON.parse(line);
        if (valid(r)) all.push(r);
      } catch {
        // A line cut short by a crash.
      }
    }
    const records = live(all);
    this.cache = { size: st.size, mtimeMs: st.mtimeMs, records };
    return records;
  }

  /** Drops records of `ids`; rewrites the file once it has grown, else appends a forget record. */
  async forget(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.append({ kind: 'forget', at: Date.now(), ids: [...ids] });
    const st = await fs.stat(this.file).catch(() => undefined);
    if (!st || st.size < COMPACT_BYTES) return;
    await storageWrite(this.storage, () =>
      withFileLock(this.lock, async () => {
        const text = await fs.readFile(this.file, 'utf8');
        const kept = live(
          text
            .split('\n')
            .filter(Boolean)
            .flatMap((l) => {
              try {
                const r: unknown = JSON.parse(l);
                return valid(r) ? [r] : [];
              } catch {
                return [];
              }
            }),
        );
        await writeAtomic(this.file, kept.map((r) => JSON.stringify(r)).join('\n') + (kept.length ? '\n' : ''));
      }),
    );
  }
}

/** The records that do not name a forgotten checkpoint. */
function live(all: readonly JournalRecord[]): JournalRecord[] {
  const gone = new Set<string>();
  for (const r of all) if (r.kind === 'forget') for (const id of r.ids) gone.add(id);
  // A checkpoint taken again after it was forgotten (the same tree) is alive again.
  const lastForget = new Map<string, number>();
  all.forEach((r, i) => {
    if (r.kind === 'forget') for (const id of r.ids) lastForget.set(id, i);
  });
  return all.filter((r, i) => {
    if (r.kind === 'forget') return false;
    const ids = r.kind === 'checkpoint' ? [r.id] : r.kind === 'turn' ? [r.before, r.after] : [r.target, r.undo];
    return ids.every((id) => !gone.has(id) || (lastForget.get(id) ?? -1) < i);
  });
}
