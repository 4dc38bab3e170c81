import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeAtomic } from '../platform/atomicWrite';
import { normalizePath } from '../platform/pathKey';
import { CheckpointFailed, FolderMissing, StorageFull, UnknownCheckpoint } from './errors';
import type { GitFound } from '../platform/gitFind';
import { ShadowGit, isDiskFull } from './gitProcess';
import { ATTRIBUTES, excludeFile } from './skipRules';

/** A checkpoint id: the id of the tree git keeps for it. */
export const CHECKPOINT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Where each kept checkpoint has a ref, so git's pruning keeps its objects. */
const REFS = 'refs/checkpoints';
/** Temporary index files older than this were left by a window that died: removed on open. */
const STALE_TEMP_MS = 60 * 60_000;

export interface ShadowOptions {
  storage: string;
  git: GitFound;
  skip: readonly string[];
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** The folder a shadow repository's files live in under the storage: a digest of the folder's normalised path. */
export function folderKey(folder: string, platform: NodeJS.Platform = process.platform): string {
  return createHash('sha256').update(normalizePath(folder, platform)).digest('hex').slice(0, 24);
}

/** A value for git's config file, quoted (Windows paths carry backslashes). */
function configValue(v: string): string {
  if (/[\r\n]/.test(v)) throw new CheckpointFailed('A folder path with a line break cannot be checkpointed.', v);
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The shadow repository's config: everything that could run a program or convert a file is off. */
export function shadowConfig(gitDir: string, folder: string, platform: NodeJS.Platform): string {
  const win = platform === 'win32';
  return [
    '[core]',
    '\trepositoryformatversion = 0',
    '\tbare = false',
    `\tworktree = ${configValue(folder)}`,
    `\tfilemode = ${!win}`,
    `\tsymlinks = ${!win}`,
    `\tignorecase = ${win || platform === 'darwin'}`,
    ...(platform === 'darwin' ? ['\tprecomposeunicode = true'] : []),
    ...(win ? ['\tlongpaths = true'] : []),
    // A folder that does not exist: no hook of ours or the user's can ever run.
    `\thooksPath = ${configValue((win ? path.win32 : path.posix).join(gitDir, 'no-hooks'))}`,
    '\tfsmonitor = false',
    '\tautocrlf = false',
    '\tsafecrlf = false',
    '\tquotePath = false',
    '\tlogAllRefUpdates = false',
    '\tpreloadIndex = true',
    '\tlooseCompression = 1',
    '[index]',
    '\tversion = 4',
    '\tskipHash = true',
    '[gc]',
    '\tauto = 0',
    '[advice]',
    '\taddEmbeddedRepo = false',
    '',
  ].join('\n');
}

/** A temporary index of one operation: a copy of the shared one, which it replaces when committed. */
export interface TempIndex {
  readonly path: string;
  /** Makes this index the shared one (its stat cache speeds up the next snapshot). */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * The git repository of the extension's own that keeps one folder's checkpoints: its git
 * directory lives in our storage and its work tree is the folder. Nothing is ever written under
 * the folder's own `.git`; the folder need not be a repository at all.
 */
export class ShadowRepo {
  readonly dir: string;
  readonly gitDir: string;
  readonly runner: ShadowGit;
  private readonly tmpDir: string;
  private readonly baseIndex: string;

  private constructor(
    readonly folder: string,
    readonly storage: string,
    private readonly options: ShadowOptions,
  ) {
    const platform = options.platform ?? process.platform;
    this.dir = path.join(storage, folderKey(folder, platform));
    this.gitDir = path.join(this.dir, 'git');
    this.tmpDir = path.join(this.dir, 'tmp');
    this.baseIndex = path.join(this.gitDir, 'index');
    this.runner = new ShadowGit(
      { git: options.git.path, gitDir: this.gitDir, workTree: folder, home: path.join(storage, 'home'), storage },
      options.env,
      platform,
    );
  }

  /** Opens (creating it if needed) the shadow repository of `folder`, which must be a folder. */
  static async open(folder: string, options: ShadowOptions): Promise<ShadowRepo> {
    let real: string;
    try {
      real = await fs.realpath(folder);
      if (!(await fs.stat(real)).isDirectory()) throw new FolderMissing(folder);
    } catch (e) {
      if (e instanceof FolderMissing) throw e;
      throw new FolderMissing(folder);
    }
    const repo = new ShadowRepo(real, options.storage, options);
    await storageWrite(options.storage, () => repo.ensure());
    return repo;
  }

  private async ensure(): Promise<void> {
    const platform = this.options.platform ?? process.platform;
    await fs.mkdir(path.join(this.storage, 'home'), { recursive: true });
    await fs.mkdir(this.tmpDir, { recursive: true });
    const marker = path.join(this.dir, 'folder.json');
    const ready = await fs.readFile(marker, 'utf8').then(
      () => true,
      () => false,
    );
    if (!ready) {
      // Two windows may get here at once: `git init` on a repository only re-initialises it,
      // and every file after it is written whole, then renamed into place.
      await fs.mkdir(this.gitDir, { recursive: true });
      await this.runner.run({ args: ['init', '--quiet', '--template='] });
      await writeAtomic(path.join(this.gitDir, 'config'), shadowConfig(this.gitDir, this.folder, platform));
      await fs.mkdir(path.join(this.gitDir, 'info'), { recursive: true });
      await fs.mkdir(path.join(this.gitDir, REFS), { recursive: true });
      await writeAtomic(path.join(this.gitDir, 'info', 'attributes'), ATTRIBUTES);
      await writeAtomic(
        marker,
        JSON.stringify({ folder: this.folder, created: new Date().toISOString() }, undefined, 2) + '\n',
      );
    }
    const exclude = excludeFile(this.options.skip);
    const excludePath = path.join(this.gitDir, 'info', 'exclude');
    const current = await fs.readFile(excludePath, 'utf8').catch(() => undefined);
    if (current !== exclude) {
      await writeAtomic(excludePath, exclude);
      // Files already in the index stay in it whatever the excludes say: start the index afresh.
      await fs.rm(this.baseIndex, { force: true });
    }
    if (ready) await this.removeStaleTemps();
  }

  private async removeStaleTemps(): Promise<void> {
    const names = await fs.readdir(this.tmpDir).catch(() => [] as string[]);
    const now = Date.now();
    for (const n of names) {
      const p = path.join(this.tmpDir, n);
      const st = await fs.stat(p).catch(() => undefined);
      if (st && now - st.mtimeMs > STALE_TEMP_MS) await fs.rm(p, { recursive: true, force: true });
    }
  }

  /** A fresh path in this repository's temporary folder. */
  tempPath(prefix: string): string {
    return path.join(this.tmpDir, `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}`);
  }

  /**
   * An index for one operation: a copy of the shared index (or none: an empty index). Windows
   * and sessions that snapshot the same folder at once each work on their own copy, so git's
   * `index.lock` never stands between them.
   */
  async tempIndex(): Promise<TempIndex> {
    const tmp = this.tempPath('index');
    // Git trusts an entry's cached stat only when the file is older than the index file. The
    // copy is dated as the original (taken before the copy, so never later): a change in the
    // same instant as the original's writing is still looked at.
    const st = await fs.stat(this.baseIndex).catch(() => undefined);
    if (st) {
      try {
        await fs.copyFile(this.baseIndex, tmp);
        await fs.utimes(tmp, st.atime, new Date(Math.floor(st.mtimeMs) - 1));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
          await fs.rm(tmp, { force: true });
          throw e;
        }
      }
    }
    let done = false;
    return {
      path: tmp,
      commit: async () => {
        if (done) return;
        done = true;
        // Another window's index may be replacing it at the same moment: either is fine.
        await fs.rename(tmp, this.baseIndex).catch(() => fs.rm(tmp, { force: true }));
      },
      discard: async () => {
        if (done) return;
        done = true;
        await fs.rm(tmp, { force: true });
      },
    };
  }

  /**
   * Removes the temporary object files git leaves when the disk fills in the middle of a write
   * (it stops without deleting them): they would keep the disk full. Another window writing at
   * the same moment on the same full disk fails either way.
   */
  async removeFailedWrites(): Promise<void> {
    const objects = path.join(this.gitDir, 'objects');
    for (const d of await fs.readdir(objects).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{2}$/.test(d)) continue;
      for (const f of await fs.readdir(path.join(objects, d)).catch(() => [] as string[])) {
        if (f.startsWith('tmp_obj_')) await fs.rm(path.join(objects, d, f), { force: true });
      }
    }
  }

  private refPath(id: string): string {
    return path.join(this.gitDir, REFS, id);
  }

  /** Keeps `id`'s objects from being pruned: a ref, written as git writes loose refs. */
  async keep(id: string): Promise<void> {
    assertId(id);
    const ref = this.refPath(id);
    if (await exists(ref)) return;
    await storageWrite(this.storage, async () => {
      await fs.mkdir(path.dirname(ref), { recursive: true });
      await writeAtomic(ref, `${id}\n`);
    });
  }

  /** Lets `id`'s objects be pruned. */
  async release(id: string): Promise<void> {
    assertId(id);
    await fs.rm(this.refPath(id), { force: true });
  }

  /** The ids that have a ref, with the time their ref was written. */
  async kept(): Promise<{ id: string; at: number }[]> {
    const dir = path.join(this.gitDir, REFS);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const out: { id: string; at: number }[] = [];
    for (const n of names) {
      if (!CHECKPOINT_ID.test(n)) continue;
      const st = await fs.stat(path.join(dir, n)).catch(() => undefined);
      if (st) out.push({ id: n, at: st.mtimeMs });
    }
    return out;
  }

  /** Throws {@link UnknownCheckpoint} unless `id` is a tree this repository holds. */
  async assertHas(id: string): Promise<void> {
    assertId(id);
    const r = await this.runner.run({ args: ['cat-file', '-t', id], ok: [1, 128] });
    if (r.code !== 0 || r.stdout.toString('utf8').trim() !== 'tree') throw new UnknownCheckpoint(id);
  }
}

export function assertId(id: string): void {
  if (!CHECKPOINT_ID.test(id)) throw new UnknownCheckpoint(String(id));
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** Runs a write to the storage; a full disk becomes {@link StorageFull}. */
export async function storageWrite<T>(storage: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof StorageFull) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' || isDiskFull(String(e)))
      throw new StorageFull(storage);
    throw e;
  }
}
