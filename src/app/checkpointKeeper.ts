import * as path from 'node:path';
import type { Logger } from '../agent/log';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { ChatSession } from '../chat/chatSession';
import { Checkpoints } from '../checkpoints/checkpoints';
import type { GitLocator } from '../platform/gitFind';
import { GitUnavailable } from '../checkpoints/errors';
import type { JournalRecord } from '../checkpoints/journal';
import {
  type ChangeSummary,
  changeSummaries,
  journalPath,
  sessionsChanging,
  sessionsTouching,
  type TouchingSession,
} from '../checkpoints/touching';
import type { FileChange } from '../checkpoints/treeDiff';
import { promptDigest, type TurnChanges, TurnCheckpoints, type TurnStart } from '../checkpoints/turns';
import type { ToolCallEntry } from '../protocol/entries';
import type { CheckpointSettings, SettingsSource } from './settings';

/** How many files no tool call named a changes row lists by name. */
const UNNAMED_SHOWN = 50;

/**
 * Said after a turn whose checkpoint before it was taken only after the prompt went: the agent
 * may have written before it, and what it wrote then is not in the turn's changes.
 */
function lateNotice(folder: string, waitMs: number): [title: string, description: string] {
  return [
    `The checkpoint of ${path.basename(folder) || folder} before this turn came late`,
    `Reading the folder took longer than the ${waitMs / 1000} s a prompt waits, so the prompt went first: ` +
      'what the agent changed before the checkpoint was taken is not in this turn’s changes, and ' +
      'Restore to before this message would keep it.',
  ];
}

export interface CheckpointKeeperPorts {
  /** The window's one git finder (else one of the keeper's own, for `git.path`). */
  git?: GitLocator;
  /** The extension's global storage (not synced): checkpoints go in its `checkpoints` folder. */
  storageDir: string;
  /** The bundled watch thread (`dist/checkpointsWatch.js`), when snapshots may look only at what changed. */
  watchWorker?: string;
  settings: SettingsSource;
  log: Logger;
  /** Told once a window when git is missing, too old or broken. */
  unavailable(message: string): void;
  /** How long a prompt waits for its checkpoints before it goes anyway (3 s). */
  promptWaitMs?: number;
}

/** What restoring the files to before a user message would change, folder by folder. */
export interface MessageRestorePlan {
  folders: { folder: string; before: string; changes: FileChange[] }[];
  /** The folders of the session no checkpoint was kept for before that message. */
  missing: string[];
}

/** A restore done: the checkpoint of each folder's state just before it, which undoes it. */
export interface RestoreDone {
  undo: { folder: string; id: string }[];
  written: number;
  deleted: number;
  /** Files that could not be written back (each says why). */
  failed: string[];
}

/** What a session's turns changed in its folders, from the journals (no diff is computed). */
export type SessionSummary = ChangeSummary;

/** A turn that ended with changes, as recorded in its folder's journal. */
export interface TurnRecorded {
  agentId: string;
  sessionId: string;
  changes: TurnChanges;
}

/**
 * The checkpoints of the window's chats: before each prompt, a checkpoint of each folder the
 * session works in (its cwd and the directories sent with it), which the prompt waits for; at
 * the turn's end, the after-checkpoint, the turn's diff in the folder's journal and a changes
 * row in the chat. Off with `acp.checkpoints.enabled`; without git it says so once and the chat
 * goes on as without it.
 */
export class CheckpointKeeper extends Disposable {
  readonly checkpoints: Checkpoints;
  readonly turns: TurnCheckpoints;
  /** Each running turn: its checkpoints, and where its entries start in the thread. */
  private readonly running = new WeakMap<ChatSession, { start: TurnStart; from: number }>();
  private readonly watched = new WeakSet<ChatSession>();
  private readonly recorded = this.register(new Emitter<TurnRecorded>());
  /** A turn ended and its changes were recorded (a row's figures changed). */
  readonly onDidRecordTurn = this.recorded.event;
  /** Turn ends, snapshots taken ahead and prunes under way, so a test or the window's close can wait for them. */
  private readonly ending = new Set<Promise<unknown>>();
  private pruned = false;
  /** Folders whose snapshot {@link prepare} started in this window. */
  private readonly prepared = new Set<string>();
  /** Checkpoints an Undo Restore on screen needs: never pruned. */
  readonly pinned = new Set<string>();

  constructor(private readonly ports: CheckpointKeeperPorts) {
    super();
    const s = ports.settings.value.checkpoints;
    this.checkpoints = new Checkpoints({
      storage: path.join(ports.storageDir, 'checkpoints'),
      git: ports.git,
      gitPath: s.gitPath,
      maxFileBytes: s.maxFileBytes,
      skip: s.skip,
      logger: ports.log,
      onUnavailable: (e) => ports.unavailable(`${e.message} Checkpoints are off; everything else works.`),
      watchWorker: ports.watchWorker,
    });
    this.register({ dispose: () => this.checkpoints.dispose() });
    this.turns = new TurnCheckpoints(this.checkpoints, {
      ...(ports.promptWaitMs === undefined ? {} : { waitMs: ports.promptWaitMs }),
      onError: (folder, e) => {
        // Said once by `onUnavailable`.
        if (!(e instanceof GitUnavailable)) ports.log.warn(`checkpoint of ${folder} failed: ${errorText(e)}`);
      },
    });
    let limits = limitsOf(s);
    let retention = `${s.keepDays} ${s.maxBytes}`;
    this.register(
      ports.settings.onDidChange((next) => {
        const kept = `${next.checkpoints.keepDays} ${next.checkpoints.maxBytes}`;
        // Shorter retention applies now, not at the next window's first checkpoint.
        if (kept !== retention && this.pruned) this.track(this.prune());
        retention = kept;
        const now = limitsOf(next.checkpoints);
        if (now === limits) return;
        limits = now;
        this.checkpoints.configure({ maxFileBytes: next.checkpoints.maxFileBytes, skip: next.checkpoints.skip });
      }),
    );
  }

  get enabled(): boolean {
    return this.ports.settings.value.checkpoints.enabled;
  }

  /** The folders a session works in: its cwd and the directories sent with it. */
  foldersOf(session: ChatSession): string[] {
    const roots = session.roots.length ? session.roots : [session.target.cwd];
    return [...new Set(roots)];
  }

  /**
   * The user began a prompt in a chat (typed, or a chat opened with a draft): each of its
   * folders' snapshots is taken now, once a window, in the background, so the checkpoint before
   * the prompt only looks at what changed since (a folder's first snapshot reads every file).
   * Nothing is recorded.
   */
  readonly prepare = (session: ChatSession): void => {
    if (!this.enabled) return;
    for (const folder of this.foldersOf(session)) {
      if (this.prepared.has(folder)) continue;
      this.prepared.add(folder);
      const taking = this.checkpoints.prepare(folder).catch((e: unknown) => {
        if (!(e instanceof GitUnavailable)) this.ports.log.warn(`checkpoint of ${folder} failed: ${errorText(e)}`);
      });
      this.track(taking);
    }
  };

  /** `ChatSessionDeps.beforePrompt`: the prompt goes once each folder's checkpoint is taken (bounded wait). */
  readonly beforePrompt = async (sessionId: string, prompt: string, session: ChatSession): Promise<void> => {
    if (!this.enabled) return;
    this.watch(session);
    const from = session.thread.entries.length;
    const start = await this.turns.begin(sessionId, this.foldersOf(session), prompt);
    this.running.set(session, { start, from });
    if (!this.pruned) {
      this.pruned = true;
      this.track(Promise.all(start.before.values()).then(() => this.prune()));
    }
  };

  private watch(session: ChatSession): void {
    if (this.watched.has(session)) return;
    this.watched.add(session);
    session.onDidEndTurn(() => {
      const turn = this.running.get(session);
      this.running.delete(session);
      if (!turn) return;
      this.track(this.endTurn(session, turn.start, turn.from));
    });
  }

  private async endTurn(session: ChatSession, start: TurnStart, from: number): Promise<void> {
    const tools = session.thread.entries.slice(from).filter((e): e is ToolCallEntry => e.type === 'tool');
    const all = await this.turns.end(start, tools);
    for (const changes of all) {
      if (changes.files.length) {
        const unnamed = changes.files.filter((f) => !f.named).map((f) => f.path);
        session.thread.addChanges({
          folder: changes.folder,
          turn: changes.turn,
          files: changes.files.length,
          added: changes.added,
          deleted: changes.deleted,
          unnamed: unnamed.slice(0, UNNAMED_SHOWN),
          unnamedCount: unnamed.length,
        });
        this.recorded.fire({ agentId: session.target.agentId, sessionId: start.sessionId, changes });
      }
      // Also when nothing shows as changed: the agent's writes may all be before the checkpoint.
      if (changes.late) session.thread.addNotice('warning', ...lateNotice(changes.folder, this.turns.waitMs));
    }
  }

  /**
   * The checkpoint of each of the session's folders taken before the user message at `index`.
   * The message's turn is found in each folder's journal by the digest of its text (the n-th
   * message of that text is the n-th turn of it), so it works for a session loaded after a
   * reload too. A folder no checkpoint was kept for is absent.
   */
  async beforeMessage(session: ChatSession, index: number): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const entries = session.thread.entries;
    const entry = entries[index];
    const sessionId = session.sessionId;
    if (entry?.type !== 'user' || !sessionId) return found;
    const digest = promptDigest(entry.text);
    let nth = 0;
    for (let i = 0; i < index; i++) {
      const e = entries[i];
      if (e?.type === 'user' && promptDigest(e.text) === digest) nth++;
    }
    for (const folder of this.foldersOf(session)) {
      const turns = (await this.turns.turns(folder, sessionId)).filter((t) => t.prompt === digest);
      const turn = turns[nth];
      if (turn) found.set(folder, turn.before);
    }
    return found;
  }

  /** What restoring the files to before the user message at `index` would change. */
  async planMessageRestore(session: ChatSession, index: number): Promise<MessageRestorePlan> {
    const before = await this.beforeMessage(session, index);
    const plan: MessageRestorePlan = { folders: [], missing: [] };
    for (const folder of this.foldersOf(session)) {
      const id = before.get(folder);
      if (!id) {
        plan.missing.push(folder);
        continue;
      }
      const p = await this.checkpoints.planRestore(folder, id);
      plan.folders.push({ folder, before: id, changes: p.changes });
    }
    return plan;
  }

  /** Writes the planned folders back; each folder's present state is checkpointed first (its undo). */
  async restore(session: ChatSession, plan: MessageRestorePlan): Promise<RestoreDone> {
    const done: RestoreDone = { undo: [], written: 0, deleted: 0, failed: [] };
    for (const { folder, before, changes } of plan.folders) {
      if (changes.length === 0) continue;
      const r = await this.checkpoints.restore(folder, before, {
        sessionId: session.sessionId,
        files: changes.map((c) => c.path),
      });
      this.pinned.add(r.undo.id);
      done.undo.push({ folder, id: r.undo.id });
      done.written += r.written.length;
      done.deleted += r.deleted.length;
      done.failed.push(...r.failed.map((f) => `${f.path}: ${f.reason}`));
    }
    return done;
  }

  /** Puts back what a restore replaced, from its undo checkpoints. */
  async undoRestore(session: ChatSession, done: RestoreDone): Promise<RestoreDone> {
    const out: RestoreDone = { undo: [], written: 0, deleted: 0, failed: [] };
    for (const { folder, id } of done.undo) {
      const r = await this.checkpoints.restore(folder, id, { sessionId: session.sessionId });
      this.pinned.delete(id);
      out.undo.push({ folder, id: r.undo.id });
      out.written += r.written.length;
      out.deleted += r.deleted.length;
      out.failed.push(...r.failed.map((f) => `${f.path}: ${f.reason}`));
    }
    return out;
  }

  /**
   * What the session's recorded turns changed in `folders`: distinct files, lines added and
   * deleted summed over its turns. Undefined when no turn of it is recorded. Reads only the
   * journals (kept parsed between reads), so a tooltip can ask.
   */
  async sessionSummary(sessionId: string, folders: readonly string[]): Promise<SessionSummary | undefined> {
    return (await this.sessionSummaries(folders)).get(sessionId);
  }

  /** {@link sessionSummary} of every session with recorded turns in `folders`, by session id. */
  async sessionSummaries(folders: readonly string[]): Promise<Map<string, SessionSummary>> {
    const out = new Map<string, SessionSummary>();
    for (const folder of new Set(folders)) {
      const records = await this.checkpoints.keptHistory(folder).catch((): JournalRecord[] => []);
      for (const [id, s] of changeSummaries(records)) {
        const sum = out.get(id);
        if (!sum) out.set(id, { ...s });
        else for (const k of ['files', 'added', 'deleted', 'turns'] as const) sum[k] += s[k];
      }
    }
    return out;
  }

  /**
   * The sessions whose recorded turns changed `file`, from the journals of the folders that
   * hold it, the most recent first. Reads only the journals.
   */
  async sessionsTouching(file: string, folders: readonly string[]): Promise<(TouchingSession & { folder: string })[]> {
    const out: (TouchingSession & { folder: string })[] = [];
    for (const folder of new Set(folders)) {
      const rel = journalPath(folder, file);
      if (rel === undefined) continue;
      const records = await this.checkpoints.keptHistory(folder).catch((): JournalRecord[] => []);
      out.push(...sessionsTouching(records, rel).map((t) => ({ ...t, folder })));
    }
    return out.sort((a, b) => b.at - a.at);
  }

  /** For a `file:` filter: the sessions whose turns changed a file whose path holds `like`. */
  async sessionsChanging(like: string, folders: readonly string[]): Promise<{ sessionId: string; path: string }[]> {
    const out: { sessionId: string; path: string }[] = [];
    for (const folder of new Set(folders)) {
      const records = await this.checkpoints.keptHistory(folder).catch((): JournalRecord[] => []);
      out.push(...sessionsChanging(records, like));
    }
    return out;
  }

  /** The session's net changes in each folder: from its first checkpoint there to the files now. */
  async sessionChanges(
    sessionId: string,
    folders: readonly string[],
  ): Promise<{ folder: string; changes: FileChange[] }[]> {
    const out: { folder: string; changes: FileChange[] }[] = [];
    for (const folder of new Set(folders)) {
      if ((await this.checkpoints.keptHistory(folder)).length === 0) continue;
      const changes = await this.turns.sessionChanges(folder, sessionId);
      if (changes.length) out.push({ folder, changes });
    }
    return out;
  }

  private track(work: Promise<unknown>): void {
    this.ending.add(work);
    void work.finally(() => this.ending.delete(work)).catch(() => undefined);
  }

  /** Resolves when the work under way is done: turn ends recorded, prunes and packing over. */
  async settled(): Promise<void> {
    while (this.ending.size) await Promise.all(this.ending).catch(() => undefined);
    await this.checkpoints.settled();
  }

  /** Deletes every folder's checkpoints (the turns under way first record what they can). */
  async clear(): Promise<void> {
    await this.settled().catch(() => undefined);
    await this.checkpoints.clear();
    this.pinned.clear();
  }

  /** Prunes by the retention settings, sparing what an Undo on screen needs. */
  async prune(): Promise<void> {
    const s = this.ports.settings.value.checkpoints;
    try {
      const r = await this.checkpoints.prune({ olderThanDays: s.keepDays, maxBytes: s.maxBytes, keep: this.pinned });
      if (r.released)
        this.ports.log.info(`checkpoints: pruned ${r.released}, ${r.remaining} kept (${r.bytesAfter} bytes on disk)`);
    } catch (e) {
      if (!(e instanceof GitUnavailable)) this.ports.log.warn(`checkpoints: pruning failed: ${errorText(e)}`);
    }
  }
}

function limitsOf(s: CheckpointSettings): string {
  return JSON.stringify([s.maxFileBytes, s.skip]);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
