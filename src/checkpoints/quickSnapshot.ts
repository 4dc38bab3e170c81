import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { splitZ } from '../platform/gitRun';
import type { FileEntry, LiveTree } from './liveTree';
import { LooseObjects } from './looseObjects';
import type { ShadowRepo } from './shadowRepo';
import { skippedFolderNames } from './skipRules';
import { LeadingDirs, MAX_SKIPPED_LISTED, type Snapshot, type SkippedFile } from './snapshot';

/** What the last snapshot of a watched folder left for the next one to start from. */
export interface SnapshotBase {
  tree: LiveTree;
  /** Every file it left out, by path (names that are not UTF-8 apart: only a full look sees them). */
  skipped: Map<string, SkippedFile>;
  notUtf8: SkippedFile[];
  /** Nested repositories (`sub/`): a change in one is left to git, which lists their files on their own. */
  nested: readonly string[];
}

/** What a changed path is now, as a snapshot takes it. `gone` may be a folder: all under it goes. */
type Found = { mode: FileEntry['mode']; path: string; bytes: Buffer } | { gone: string } | { skip: SkippedFile };

/** A folder made or moved in with more entries than this is left to git. */
const MAX_WALKED = 2000;

/** A change git must look at: a folder made, moved or replaced, a file changing while read. */
class LeftToGit extends Error {}

/**
 * The snapshot of a watched folder after `changed` paths (from the watch) changed since the
 * snapshot `base` holds: each is looked at here, the blobs and trees that changed are written
 * (see {@link LooseObjects}), and no git runs unless a new path may be ignored (one
 * `check-ignore` for all of them). It is the tree a full look would take, and `base` becomes it.
 * Undefined where only a full look can tell (a nested repository's files, a file changing as it
 * is read, a folder of more than {@link MAX_WALKED} entries made at once); `base` is then no
 * longer to be used.
 */
export async function quickSnapshot(
  repo: ShadowRepo,
  base: SnapshotBase,
  changed: readonly string[],
  limits: { maxFileBytes: number; skip: readonly string[] },
): Promise<Snapshot | undefined> {
  const paths = [...new Set(changed)].sort();
  if (paths.some((p) => base.nested.some((n) => p.startsWith(n) || `${p}/` === n))) return undefined;
  let found: Found[];
  try {
    const looker = new Looker(repo.folder, limits.maxFileBytes, skippedFolderNames(limits.skip));
    found = (await Promise.all(paths.map((p) => looker.look(p)))).flat();
    found = await withoutIgnored(repo, base, found);
  } catch (e) {
    if (e instanceof LeftToGit) return undefined;
    throw e;
  }
  const objects = new LooseObjects(path.join(repo.gitDir, 'objects'));
  const entries: { path: string; entry: FileEntry }[] = [];
  for (const f of found) {
    if ('bytes' in f) entries.push({ path: f.path, entry: { mode: f.mode, blob: objects.add('blob', f.bytes) } });
  }
  // Only now is the base changed (a failure from here on leaves it to be dropped by the caller).
  let updated = 0;
  const { tree, skipped } = base;
  for (const f of found) {
    if ('gone' in f) {
      for (const p of skipped.keys()) if (p === f.gone || p.startsWith(`${f.gone}/`)) skipped.delete(p);
      if (tree.get(f.gone) !== undefined) updated++;
      tree.remove(f.gone);
    } else if ('skip' in f) {
      skipped.set(f.skip.path, f.skip);
      if (tree.get(f.skip.path) !== undefined) updated++;
      tree.remove(f.skip.path);
    }
  }
  for (const { path: p, entry } of entries) {
    skipped.delete(p);
    const old = tree.get(p);
    if (old === undefined || old === 'folder' || old.blob !== entry.blob || old.mode !== entry.mode) updated++;
    // A file where the path needs a folder, which no change named: git looks at every file (the
    // base, half changed, is dropped by the caller, as after any snapshot it did not take).
    if (!tree.set(p, entry)) return undefined;
  }
  const id = tree.write(objects);
  await objects.flush();
  const all = [...skipped.values(), ...base.notUtf8];
  return {
    id,
    skipped: all.slice(0, MAX_SKIPPED_LISTED),
    skippedCount: all.length,
    updated,
    allSkipped: all,
    nested: [...base.nested],
  };
}

/** Looks at changed paths as a full look would take them. */
class Looker {
  private readonly leading: LeadingDirs;
  private walked = 0;

  constructor(
    private readonly root: string,
    private readonly maxFileBytes: number,
    private readonly skipNames: ReadonlySet<string>,
  ) {
    this.leading = new LeadingDirs(root);
  }

  async look(rel: string): Promise<Found[]> {
    // A path beyond a link is not in the folder's tree (git refuses it): never read through it.
    if (!(await this.leading.plain(rel))) return [{ gone: rel }];
    const abs = path.join(this.root, ...rel.split('/'));
    let st: Stats;
    try {
      st = await fs.lstat(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return [{ gone: rel }];
      throw new LeftToGit();
    }
    // A folder made, moved in or replaced: what was under it goes, what is under it now comes.
    if (st.isDirectory()) return [{ gone: rel }, ...(await this.folder(rel))];
    if (st.isSymbolicLink()) {
      const target = await fs.readlink(abs, { encoding: 'buffer' }).catch(() => {
        throw new LeftToGit();
      });
      return [{ mode: '120000', path: rel, bytes: target }];
    }
    if (!st.isFile()) return [{ skip: { path: rel, reason: 'special' } }];
    if (st.size > this.maxFileBytes) return [{ skip: { path: rel, reason: 'tooLarge', bytes: st.size } }];
    const bytes = await fs.readFile(abs).catch(() => {
      throw new LeftToGit();
    });
    const after = await fs.lstat(abs).catch(() => undefined);
    // Changed while it was read: git decides what is kept of it, as a full look does.
    if (!after || after.mtimeMs !== st.mtimeMs || after.size !== bytes.length || after.ino !== st.ino)
      throw new LeftToGit();
    // The executable bit as git reads it (core.filemode): the owner's.
    return [{ mode: st.mode & 0o100 ? '100755' : '100644', path: rel, bytes }];
  }

  /** Everything under a folder, but folders the skip list names; a repository in it is left to git. */
  private async folder(rel: string): Promise<Found[]> {
    const names = await fs.readdir(path.join(this.root, ...rel.split('/')), { encoding: 'buffer' }).catch(() => {
      throw new LeftToGit();
    });
    this.walked += names.length;
    if (this.walked > MAX_WALKED) throw new LeftToGit();
    const out: Found[] = [];
    for (const raw of names) {
      const name = raw.toString('utf8');
      // A name that is not UTF-8, or a nested repository: git lists those.
      if (!Buffer.from(name, 'utf8').equals(raw) || name === '.git') throw new LeftToGit();
      const child = `${rel}/${name}`;
      // A folder the skip list names: nothing in it is kept.
      if (this.skipNames.has(name) && (await fs.lstat(path.join(this.root, ...child.split('/')))).isDirectory())
        continue;
      out.push(...(await this.look(child)));
    }
    return out;
  }
}

/**
 * Drops the paths new to the snapshot that the folder's ignore rules leave out, as `ls-files
 * --others --exclude-standard` would. A path already in the snapshot stays whatever the rules
 * say (git keeps what it tracks), and one left out before was not ignored then: the rules have
 * not changed since (a `.gitignore` changing makes the watch look at every file).
 */
async function withoutIgnored(repo: ShadowRepo, base: SnapshotBase, found: Found[]): Promise<Found[]> {
  // A file where a folder was is new too: git tracked the folder's files, not it.
  const isNew = (p: string) => typeof base.tree.get(p) !== 'object' && !base.skipped.has(p);
  const asked = found
    .filter((f) => !('gone' in f))
    .map(pathOf)
    .filter(isNew);
  if (asked.length === 0) return found;
  const r = await repo.runner.run({
    args: ['check-ignore', '-z', '--stdin', '--no-index'],
    input: `${asked.join('\0')}\0`,
    ok: [1],
  });
  const ignored = new Set(splitZ(r.stdout).parts);
  return found.filter((f) => !ignored.has(pathOf(f)));
}

function pathOf(f: Found): string {
  return 'gone' in f ? f.gone : 'skip' in f ? f.skip.path : f.path;
}
