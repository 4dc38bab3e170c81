import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../agent/log';
import { silentLogger } from '../agent/log';
import { readBlob } from './blobs';
import { GitUnavailable, UnknownCheckpoint } from './errors';
import { GitLocator, GitMissing, MIN_GIT, type GitFound } from '../platform/gitFind';
import { splitZ } from '../platform/gitRun';
import { type CheckpointPhase, Journal, type JournalRecord } from './journal';
import { materialize, type Materialized } from './materialize';
import { prune, type PruneOptions, type PruneResult } from './prune';
import { applyRestore, restoreSteps, type RestoreOutcome } from './restore';
import { assertId, folderKey, ShadowRepo } from './shadowRepo';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_SKIP } from './skipRules';
import type { Snapshot, SkippedFile } from './snapshot';
import { Snapshots } from './snapshots';
import { diffTrees, type FileChange } from './treeDiff';

export interface CheckpointsOptions {
  /** Where every folder's shadow repository lives: the extension's global storage, shared by its windows. */
  storage: string;
  /** The window's one git finder; else one of its own for `gitPath`. */
  git?: GitLocator;
  /** A git the user configured (VS Code's `git.path`), when no finder is given. */
  gitPath?: string;
  /** Files larger than this are left out (listed as skipped). */
  maxFileBytes?: number;
  /** Gitignore patterns left out besides the folder's `.gitignore` files (`node_modules/` …). */
  skip?: readonly string[];
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Told once when git is missing, too old or broken; every call then throws {@link GitUnavailable}. */
  onUnavailable?: (error: GitUnavailable) => void;
  logger?: Logger;
  /**
   * The bundled watch thread (`dist/checkpointsWatch.js`). Given, and where the platform allows
   * it (see canWatch in folderWatch), each folder is watched and a snapshot looks only at what changed.
   */
  watchWorker?: string;
}

/** A snapshot of a folder's working tree, kept until pruned. */
export interface Checkpoint {
  id: string;
  folder: string;
  at: number;
  label: string;
  /** Files left out of it (too large, unreadable, neither file nor link), at most 200 listed. */
  skipped: SkippedFile[];
  skippedCount: number;
}

/** Which session and turn a checkpoint belongs to, for the folder's journal. */
export interface CheckpointMeta {
  phase?: CheckpointPhase;
  sessionId?: string;
  turn?: string;
}

/** What a restore would change: each file that differs from the checkpoint, with line counts. */
export interface RestorePlan {
  folder: string;
  target: string;
  changes: FileChange[];
}

export interface RestoreResult extends RestoreOutcome {
  target: string;
  /** The checkpoint of the state just before the restore: restoring it undoes the restore. */
  undo: Checkpoint;
}

/** A snapshot that changed this many entries is packed after it. */
const PACK_AFTER = 2000;

/** The working tree as it is now, in place of a checkpoint id. */
export const WORKING = 'working';

/**
 * Checkpoints of workspace folders: snapshots of the working tree kept in a git repository of
 * the extension's own per folder (see {@link ShadowRepo}), diffs between them, restore, and
 * the journal of which session and turn each belongs to. Operations on one folder run one at a
 * time in this window; other windows share the storage safely (each snapshot works on an index
 * file of its own, refs and journal lines are written whole).
 */
export class Checkpoints {
  private readonly locator: GitLocator;
  private toldUnavailable = false;
  private readonly repos = new Map<string, Promise<ShadowRepo>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly journals = new Map<string, Journal>();
  /** Packing started after a large snapshot, per folder (at most one each). */
  private readonly packing = new Map<string, Promise<void>>();
  private readonly snapshots: Snapshots;
  private readonly logger: Logger;
  private maxFileBytes: number;
  private skip: readonly string[];

  constructor(private readonly options: CheckpointsOptions) {
    this.logger = options.logger ?? silentLogger;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.skip = options.skip ?? DEFAULT_SKIP;
    this.snapshots = new Snapshots(options.watchWorker, options.platform, this.logger);
    this.locator =
      options.git ?? new GitLocator({ configured: options.gitPath, env: options.env, platform: options.platform });
  }

  /**
   * Resolves once the folder's watch is in place, after its first snapshot started it (at once
   * where there is none): the snapshot after the next one starts from memory.
   */
  async watchReady(folder: string): Promise<void> {
    await this.snapshots.ready((await this.repo(folder)).folder);
  }

  /** Ends the watches for good. */
  dispose(): void {
    this.snapshots.dispose();
  }

  private snapshot(repo: ShadowRepo): Promise<Snapshot> {
    return this.snapshots.take(repo, { maxFileBytes: this.maxFileBytes, skip: this.skip });
  }

  get storage(): string {
    return this.options.storage;
  }

  /** New limits (settings changed): the next snapshot of each folder applies them. */
  configure(limits: { maxFileBytes?: number; skip?: readonly string[] }): void {
    if (limits.maxFileBytes !== undefined) this.maxFileBytes = limits.maxFileBytes;
    if (limits.skip !== undefined) this.skip = limits.skip;
    this.repos.clear();
    this.snapshots.reset();
  }

  /** The git found, or {@link GitUnavailable} (told once to `onUnavailable`). */
  async available(): Promise<GitFound> {
    try {
      return await this.locator.find();
    } catch (e) {
      if (!(e instanceof GitMissing)) throw e;
      const unavailable = gitUnavailable(e);
      if (!this.toldUnavailable) {
        this.toldUnavailable = true;
        this.logger.warn(unavailable.message);
        this.options.onUnavailable?.(unavailable);
      }
      throw unavailable;
    }
  }

  private key(folder: string): string {
    return folderKey(folder, this.options.platform);
  }

  private repo(folder: string): Promise<ShadowRepo> {
    const key = this.key(folder);
    let repo = this.repos.get(key);
    if (!repo) {
      repo = this.available().then((git) =>
        ShadowRepo.open(folder, {
          storage: this.options.storage,
          git,
          skip: this.skip,
          env: this.options.env,
          platform: this.options.platform,
        }),
      );
      this.repos.set(key, repo);
      repo.catch(() => this.repos.delete(key));
    }
    return repo;
  }

  /** Runs `fn` after every earlier operation on the folder in this window. */
  private queued<T>(folder: string, fn: (repo: ShadowRepo) => Promise<T>): Promise<T> {
    const key = this.key(folder);
    const before = this.queues.get(key) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(async () => fn(await this.repo(folder)));
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  /** The folder's journal; one instance per folder keeps its parsed records between reads. */
  private journal(repo: ShadowRepo): Journal {
    const file = path.join(repo.dir, 'journal.jsonl');
    let journal = this.journals.get(file);
    if (!journal) {
      journal = new Journal(file, this.options.storage);
      this.journals.set(file, journal);
    }
    return journal;
  }

  /**
   * Takes the folder's first snapshot ahead of time (nothing is recorded), so the checkpoint
   * before the first prompt only looks at what changed since.
   */
  prepare(folder: string): Promise<void> {
    return this.queued(folder, async (repo) => {
      this.packAfter(repo, await this.snapshot(repo));
    });
  }

  /**
   * A snapshot that wrote many files leaves as many loose objects, each taking a whole block on
   * the disk (a 200 MB folder took 214 MiB): git packs them in the background, off the folder's
   * queue. Safe beside snapshots of other windows: only objects something refers to are packed.
   */
  private packAfter(repo: ShadowRepo, snap: Snapshot): void {
    const key = this.key(repo.folder);
    if (snap.updated < PACK_AFTER || this.packing.has(key)) return;
    const run = repo.runner
      .run({ args: ['repack', '-d', '-q'] })
      .then(
        () => undefined,
        (e: unknown) => this.logger.warn(`checkpoints: packing ${repo.folder} failed: ${String(e)}`),
      )
      .finally(() => this.packing.delete(key));
    this.packing.set(key, run);
  }

  /** Resolves when the background work started so far (packing) is done. */
  async settled(): Promise<void> {
    await Promise.all(this.packing.values());
  }

  /** Takes a checkpoint of the folder's working tree and records it. */
  checkpoint(folder: string, label: string, meta: CheckpointMeta = {}): Promise<Checkpoint> {
    return this.queued(folder, (repo) => this.take(repo, label, meta));
  }

  private async take(repo: ShadowRepo, label: string, meta: CheckpointMeta): Promise<Checkpoint> {
    const snap = await this.snapshot(repo);
    await repo.keep(snap.id);
    this.packAfter(repo, snap);
    const at = Date.now();
    await this.journal(repo).append({
      kind: 'checkpoint',
      id: snap.id,
      at,
      label,
      phase: meta.phase ?? 'manual',
      ...(meta.sessionId ? { sessionId: meta.sessionId } : {}),
      ...(meta.turn ? { turn: meta.turn } : {}),
      ...(snap.skippedCount ? { skipped: snap.skipped, skippedCount: snap.skippedCount } : {}),
    });
    return { id: snap.id, folder: repo.folder, at, label, skipped: snap.skipped, skippedCount: snap.skippedCount };
  }

  /** Appends records to the folder's journal (turns, a checkpoint that came late). */
  record(folder: string, ...records: JournalRecord[]): Promise<void> {
    return this.repo(folder).then((repo) => this.journal(repo).append(...records));
  }

  /** The folder's journal: every checkpoint, turn and restore still kept, oldest first. */
  async history(folder: string): Promise<JournalRecord[]> {
    return this.journal(await this.repo(folder)).read();
  }

  /**
   * The folder's journal when checkpoints of it are kept, else nothing: unlike {@link history},
   * nothing is created for a folder never checkpointed (a tooltip may ask about any folder).
   */
  async keptHistory(folder: string): Promise<JournalRecord[]> {
    const marker = path.join(this.options.storage, this.key(folder), 'folder.json');
    if (!(await fs.stat(marker).catch(() => undefined))) return [];
    return this.history(folder);
  }

  private async tree(repo: ShadowRepo, id: string): Promise<string> {
    if (id === WORKING) return (await this.snapshot(repo)).id;
    assertId(id);
    const kept = await repo.kept();
    if (!kept.some((k) => k.id === id)) throw new UnknownCheckpoint(id);
    return id;
  }

  /**
   * The files that differ from checkpoint `from` to `to` (another checkpoint, or
   * {@link WORKING}), with lines added and deleted unless `counts` is false.
   */
  diff(folder: string, from: string, to: string, options: { counts?: boolean } = {}): Promise<FileChange[]> {
    return this.queued(folder, async (repo) => {
      const a = await this.tree(repo, from);
      const b = await this.tree(repo, to);
      return diffTrees(repo.runner, a, b, options.counts ?? true);
    });
  }

  /** The paths of the files (and links) a checkpoint holds, relative to the folder, sorted. */
  files(folder: string, id: string): Promise<string[]> {
    return this.queued(folder, async (repo) => {
      const tree = await this.tree(repo, id);
      const out = await repo.runner.run({ args: ['ls-tree', '-r', '-z', '--name-only', tree] });
      return splitZ(out.stdout).parts;
    });
  }

  /** A file's bytes in a checkpoint, by the blob id a {@link FileChange} names. */
  read(folder: string, blob: string): Promise<Buffer | undefined> {
    assertId(blob);
    return this.repo(folder).then((repo) => readBlob(repo.runner, blob));
  }

  /** What restoring `id` would change now, limited to `files` (paths relative to the folder) when given. */
  planRestore(folder: string, id: string, files?: readonly string[]): Promise<RestorePlan> {
    return this.queued(folder, async (repo) => {
      const target = await this.tree(repo, id);
      const now = await this.tree(repo, WORKING);
      const changes = only(await diffTrees(repo.runner, now, target), files);
      return { folder: repo.folder, target, changes };
    });
  }

  /**
   * Writes the folder's files back as checkpoint `id` has them (only `files` when given). The
   * present state is checkpointed first, so `restore(folder, result.undo.id)` undoes it. The
   * caller makes sure no turn is running on the folder; a prompt's checkpoint taken in this
   * window waits until the restore is done.
   */
  restore(
    folder: string,
    id: string,
    options: { files?: readonly string[]; sessionId?: string } = {},
  ): Promise<RestoreResult> {
    return this.queued(folder, async (repo) => {
      const target = await this.tree(repo, id);
      const undo = await this.take(repo, `Before restoring to ${target.slice(0, 8)}`, {
        phase: 'undo',
        sessionId: options.sessionId,
      });
      const changes = only(await diffTrees(repo.runner, undo.id, target, false), options.files);
      const captured = new Set(changes.filter((c) => c.before).map((c) => c.path));
      const outcome = await applyRestore(repo, restoreSteps(changes), captured);
      await this.journal(repo).append({
        kind: 'restore',
        at: Date.now(),
        target,
        undo: undo.id,
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
        written: outcome.written.length,
        deleted: outcome.deleted.length,
      });
      this.logger.info(
        `checkpoints: restored ${repo.folder} to ${target.slice(0, 8)} (${outcome.written.length} written, ${outcome.deleted.length} deleted, ${outcome.kept.length} kept, ${outcome.failed.length} failed); undo ${undo.id.slice(0, 8)}`,
      );
      return { target, undo, ...outcome };
    });
  }

  /**
   * Writes checkpoint `id` of `folder` into `target`, another folder (see {@link materialize}):
   * a fork from a message starts in a worktree with the files as they were before it.
   */
  materialize(folder: string, id: string, target: string): Promise<Materialized> {
    return this.queued(folder, async (repo) => materialize(repo, await this.tree(repo, id), target, this.maxFileBytes));
  }

  /** Prunes every folder's checkpoints in the storage (see {@link prune}). */
  async prune(options: PruneOptions): Promise<PruneResult> {
    await this.available();
    // Git deletes what nothing names: no snapshot builds on one held in memory from before.
    this.snapshots.forget();
    return prune(this.options.storage, options, (folder) => this.repo(folder));
  }

  /** Deletes the checkpoints of `folder`, or of every folder when none is given. */
  async clear(folder?: string): Promise<void> {
    if (folder !== undefined) {
      await this.queued(folder, async (repo) => {
        this.repos.delete(this.key(folder));
        this.snapshots.forget(repo.folder);
        await fs.rm(repo.dir, { recursive: true, force: true });
      });
      return;
    }
    const names = await fs.readdir(this.options.storage).catch(() => [] as string[]);
    for (const n of names) {
      if (/^[0-9a-f]{24}$/.test(n)) await fs.rm(path.join(this.options.storage, n), { recursive: true, force: true });
    }
    this.repos.clear();
    this.snapshots.forget();
  }
}

/** Why checkpoints cannot run, in the sentence the user reads. */
function gitUnavailable(e: GitMissing): GitUnavailable {
  const need = `${MIN_GIT.join('.')} or newer`;
  if (e.kind === 'missing') {
    return new GitUnavailable(
      'missing',
      `Checkpoints need git ${need}, ${e.detail}. Install git to keep checkpoints; everything else works without them.`,
    );
  }
  return new GitUnavailable(e.kind, `Checkpoints need git ${need}; ${e.detail}. Everything else works without them.`);
}

/** The changes whose path is one of `files` (all of them when none are given). */
function only(changes: FileChange[], files: readonly string[] | undefined): FileChange[] {
  if (!files) return changes;
  const wanted = new Set(files.map((f) => f.replace(/\\/g, '/').replace(/^\.\//, '')));
  return changes.filter((c) => wanted.has(c.path));
}
