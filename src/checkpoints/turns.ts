import { createHash, randomBytes } from 'node:crypto';
import type { ToolCallEntry } from '../protocol/entries';
import type { Checkpoints } from './checkpoints';
import { type Checkpoint, WORKING } from './checkpoints';
import { MAX_PATHS, type TurnRecord } from './journal';
import { relativeKey } from '../platform/pathKey';
import { namedPaths, ranCommands } from './toolPaths';
import type { FileChange } from './treeDiff';

export interface TurnOptions {
  /**
   * How long a prompt waits for its checkpoints before it goes anyway. A checkpoint that comes
   * later is still kept, and its turn is marked `late`: it may hold the agent's first writes.
   */
  waitMs?: number;
  /** A folder's checkpoint failed (git missing, disk full…): the turn goes on without it. */
  onError?: (folder: string, error: unknown) => void;
  platform?: NodeJS.Platform;
}

/** A turn under way: the checkpoints taken before its prompt went. */
export interface TurnStart {
  readonly id: string;
  readonly sessionId: string;
  readonly folders: readonly string[];
  /** A digest of the prompt, kept to find the user message a turn belongs to. */
  readonly prompt: string;
  readonly before: ReadonlyMap<string, Promise<Checkpoint | undefined>>;
  /** Folders whose checkpoint was not taken when the prompt went. */
  readonly late: ReadonlySet<string>;
}

/** A changed file of a turn, and whether a tool call of the turn named it. */
export interface TurnFile extends FileChange {
  /** False: no tool call named it, so a command or the user changed it during the turn. */
  named: boolean;
}

/** What one turn changed in one folder, whoever wrote it. */
export interface TurnChanges {
  folder: string;
  sessionId: string;
  turn: string;
  before: string;
  after: string;
  files: TurnFile[];
  added: number;
  deleted: number;
  ranCommands: boolean;
  late: boolean;
}

export const DEFAULT_WAIT_MS = 3000;

export function promptDigest(prompt: string): string {
  return createHash('sha256').update(prompt).digest('hex').slice(0, 16);
}

/**
 * Checkpoints around each prompt turn of a session: `begin` before the prompt goes (the prompt
 * waits for it, up to `waitMs`), `end` when the turn is over, which takes the after-checkpoint,
 * diffs the two and records the turn in the folder's journal (it survives reloads, and windows
 * share it).
 */
export class TurnCheckpoints {
  private readonly pending = new Map<string, { turn: string; all: Promise<unknown> }>();

  constructor(
    readonly checkpoints: Checkpoints,
    private readonly options: TurnOptions = {},
  ) {}

  /** How long a prompt waits for its checkpoints. */
  get waitMs(): number {
    return this.options.waitMs ?? DEFAULT_WAIT_MS;
  }

  /** Checkpoints each folder; resolves once all are taken, or after `waitMs` with the rest marked late. */
  async begin(sessionId: string, folders: readonly string[], prompt: string): Promise<TurnStart> {
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const before = new Map<string, Promise<Checkpoint | undefined>>();
    for (const folder of folders) {
      before.set(
        folder,
        this.checkpoints
          .checkpoint(folder, 'Before the prompt', { phase: 'before', sessionId, turn: id })
          .catch((e) => {
            this.options.onError?.(folder, e);
            return undefined;
          }),
      );
    }
    const all = Promise.all(before.values());
    this.pending.set(sessionId, { turn: id, all });
    const late = new Set<string>();
    const settled = new Set<string>();
    for (const [folder, p] of before) void p.then(() => settled.add(folder));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([all, new Promise<void>((r) => (timer = setTimeout(r, this.waitMs)))]);
    clearTimeout(timer);
    // Let the checkpoints that finished in the same tick count as on time.
    await Promise.resolve();
    for (const folder of folders) if (!settled.has(folder)) late.add(folder);
    return { id, sessionId, folders: [...folders], prompt: promptDigest(prompt), before, late };
  }

  /** Resolves when the before-checkpoints of the session's current turn are taken (or failed). */
  async settled(sessionId: string): Promise<void> {
    await this.pending.get(sessionId)?.all;
  }

  /**
   * Ends the turn: an after-checkpoint of each folder, the diff from before, each file marked
   * by whether one of `toolCalls` (the turn's) named it, and a record in the journal.
   */
  async end(turn: TurnStart, toolCalls: readonly ToolCallEntry[]): Promise<TurnChanges[]> {
    const platform = this.options.platform ?? process.platform;
    const out: TurnChanges[] = [];
    for (const folder of turn.folders) {
      try {
        const before = await turn.before.get(folder);
        if (!before) continue;
        const after = await this.checkpoints.checkpoint(folder, 'After the turn', {
          phase: 'after',
          sessionId: turn.sessionId,
          turn: turn.id,
        });
        const changes = await this.checkpoints.diff(folder, before.id, after.id);
        const named = namedPaths(toolCalls, [folder, before.folder], platform);
        const files = changes.map((c) => ({ ...c, named: named.has(relativeKey(c.path, platform)) }));
        const result: TurnChanges = {
          folder,
          sessionId: turn.sessionId,
          turn: turn.id,
          before: before.id,
          after: after.id,
          files,
          added: files.reduce((n, f) => n + (f.added ?? 0), 0),
          deleted: files.reduce((n, f) => n + (f.deleted ?? 0), 0),
          ranCommands: ranCommands(toolCalls),
          late: turn.late.has(folder),
        };
        const record: TurnRecord = {
          kind: 'turn',
          sessionId: turn.sessionId,
          turn: turn.id,
          at: Date.now(),
          before: before.id,
          after: after.id,
          prompt: turn.prompt,
          files: files.length,
          added: result.added,
          deleted: result.deleted,
          paths: files.slice(0, MAX_PATHS).map((f) => f.path),
          unnamed: files
            .filter((f) => !f.named)
            .slice(0, MAX_PATHS)
            .map((f) => f.path),
          ranCommands: result.ranCommands,
          ...(result.late ? { late: true } : {}),
        };
        await this.checkpoints.record(folder, record);
        out.push(result);
      } catch (e) {
        this.options.onError?.(folder, e);
      }
    }
    if (this.pending.get(turn.sessionId)?.turn === turn.id) this.pending.delete(turn.sessionId);
    return out;
  }

  /** The session's recorded turns in the folder, oldest first. */
  async turns(folder: string, sessionId: string): Promise<TurnRecord[]> {
    return (await this.checkpoints.history(folder)).filter(
      (r): r is TurnRecord => r.kind === 'turn' && r.sessionId === sessionId,
    );
  }

  /** The session's net changes in the folder: from its first checkpoint to the working tree now. */
  async sessionChanges(folder: string, sessionId: string): Promise<FileChange[]> {
    const first = (await this.checkpoints.history(folder)).find(
      (r) => r.kind === 'checkpoint' && r.sessionId === sessionId && r.phase === 'before',
    );
    if (!first || first.kind !== 'checkpoint') return [];
    return this.checkpoints.diff(folder, first.id, WORKING);
  }

  /** The sessions whose recorded turns changed `file` (relative to the folder), most recent first. */
  async sessionsTouching(folder: string, file: string): Promise<string[]> {
    const platform = this.options.platform ?? process.platform;
    const key = relativeKey(file, platform);
    const turns = (await this.checkpoints.history(folder)).filter(
      (r): r is TurnRecord => r.kind === 'turn' && r.paths.some((p) => relativeKey(p, platform) === key),
    );
    return [...new Set(turns.reverse().map((t) => t.sessionId))];
  }
}
