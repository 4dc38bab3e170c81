import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { CheckpointFailed, StorageFull } from './errors';
import { splitZ } from '../platform/gitRun';
import { isDiskFull } from './gitProcess';
import type { ShadowRepo } from './shadowRepo';

/**
 * Why a file of the folder is not in a checkpoint: over the size limit, unreadable, changing
 * while git read it, neither a file nor a link (a socket, a pipe), a name that is not UTF-8.
 */
export type SkipReason = 'tooLarge' | 'unreadable' | 'changing' | 'special' | 'nameNotUtf8';

export interface SkippedFile {
  /** Relative to the folder, with `/` between names; absent for names that are not UTF-8. */
  path: string;
  reason: SkipReason;
  bytes?: number;
}

export interface Snapshot {
  /** The tree git keeps for it: the checkpoint's id. */
  id: string;
  /** Files left out, at most {@link MAX_SKIPPED_LISTED}; `skippedCount` has them all. */
  skipped: SkippedFile[];
  skippedCount: number;
  /** Paths whose entry changed since the previous snapshot of the folder, in any window. */
  updated: number;
  /** Every file left out: the next snapshot of a watched folder lists them again (see quickSnapshot). */
  allSkipped: SkippedFile[];
  /** The nested repositories found (`sub/`), whose files are listed on their own. */
  nested: string[];
}

export const MAX_SKIPPED_LISTED = 200;
/** Nested repositories inside nested repositories, this deep at most. */
const MAX_NESTING = 8;
/** A path update-index cannot read is left out and the update tried again, this often at most. */
const MAX_RETRIES = 20;
const STAT_CONCURRENCY = 64;

type Verdict = 'add' | 'remove' | 'forceRemove' | 'none';

/** Runs `fn` over `items`, `limit` at a time, keeping the order of results. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Takes a snapshot of the folder's working tree into the shadow repository and returns its
 * tree id. Git lists what changed since the shared index (files it tracks that changed or went,
 * untracked files not ignored), each of those is looked at here, and only those go into the
 * index: a file over the size limit, unreadable, or neither file nor link is left out (and
 * listed); a nested repository's files are listed on their own, since git would add the
 * repository as a submodule link (or stop, when it has no commit yet).
 */
export async function takeSnapshot(repo: ShadowRepo, maxFileBytes: number): Promise<Snapshot> {
  const index = await repo.tempIndex();
  try {
    const git = repo.runner;
    const [others, changed] = await Promise.all([
      git.run({ args: ['ls-files', '-z', '--others', '--exclude-standard'], index: index.path }),
      git.run({ args: ['diff-files', '-z', '--name-only'], index: index.path }),
    ]);
    const untracked = splitZ(others.stdout);
    const tracked = splitZ(changed.stdout);
    const skipped: SkippedFile[] = [];
    let notUtf8 = untracked.notUtf8 + tracked.notUtf8;
    const files: string[] = [];
    const nestedRepos: string[] = [];
    for (const p of untracked.parts) {
      if (!p.endsWith('/')) {
        files.push(p);
        continue;
      }
      nestedRepos.push(p);
      const nested = await listNested(repo, p, 1);
      files.push(...nested.parts);
      notUtf8 += nested.notUtf8;
    }
    const verdicts = new Map<string, Verdict>();
    const trackedSet = new Set(tracked.parts);
    const leading = new LeadingDirs(repo.folder);
    const classify = async (rel: string) => {
      const isTracked = trackedSet.has(rel);
      const v = await verdict(repo.folder, rel, isTracked, maxFileBytes, leading, skipped);
      verdicts.set(rel, v);
    };
    await pool([...new Set([...files, ...tracked.parts])], STAT_CONCURRENCY, classify);
    for (let i = 0; i < notUtf8; i++) skipped.push({ path: '', reason: 'nameNotUtf8' });

    // In the index's order: git inserts each entry where it belongs, and in any other order a
    // first snapshot of 50,000 files moves the entries after it 50,000 times.
    const sorted = [...verdicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const update = sorted.filter(([, v]) => v === 'add' || v === 'remove').map(([p]) => p);
    const forceRemove = sorted.filter(([, v]) => v === 'forceRemove').map(([p]) => p);
    // Entries that go first: a link that took a folder's place is then added where its files were.
    await forceRemoveAll(repo, index.path, forceRemove);
    const unreadable = await updateIndex(repo, index.path, update, skipped);
    await forceRemoveAll(repo, index.path, unreadable);
    const id = (await git.text({ args: ['write-tree'], index: index.path })).trim();
    await index.commit();
    return {
      id,
      skipped: skipped.slice(0, MAX_SKIPPED_LISTED),
      skippedCount: skipped.length,
      updated: update.length + forceRemove.length - unreadable.length,
      allSkipped: skipped,
      nested: nestedRepos,
    };
  } catch (e) {
    if (e instanceof StorageFull) await repo.removeFailedWrites();
    throw e;
  } finally {
    await index.discard();
  }
}

function zList(paths: readonly string[]): string {
  return paths.length ? `${paths.join('\0')}\0` : '';
}

async function forceRemoveAll(repo: ShadowRepo, index: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await repo.runner.run({ args: ['update-index', '-z', '--force-remove', '--stdin'], index, input: zList(paths) });
}

/**
 * `update-index --add --remove --replace` over the paths (the entries a file or link replaces
 * went first; `--replace` covers one that changed since it was looked at). A path git cannot
 * read (its permissions, or it changed under git) stops it, so that path is left out, listed,
 * and the update tried again without it. Returns the paths left out: their old entries go too.
 */
async function updateIndex(
  repo: ShadowRepo,
  index: string,
  paths: string[],
  skipped: SkippedFile[],
): Promise<string[]> {
  const left = new Set(paths);
  const out: string[] = [];
  for (let attempt = 0; left.size > 0; attempt++) {
    const r = await repo.runner.run({
      args: ['update-index', '-z', '--add', '--remove', '--replace', '--stdin'],
      index,
      input: zList([...left]),
      ok: [128],
    });
    if (r.code === 0) break;
    if (isDiskFull(r.stderr)) throw new StorageFull(repo.storage);
    const bad = /Unable to process path (.+)$/m.exec(r.stderr)?.[1];
    if (!bad || !left.has(bad) || attempt >= MAX_RETRIES) {
      throw new CheckpointFailed(`The checkpoint could not be taken: ${r.stderr.trim().split('\n').pop()}`, r.stderr);
    }
    skipped.push({ path: bad, reason: /Permission denied|EACCES/.test(r.stderr) ? 'unreadable' : 'changing' });
    out.push(bad);
    left.delete(bad);
  }
  return out;
}

/** The untracked files of a nested repository, listed with its own ignore files as their work tree. */
async function listNested(repo: ShadowRepo, rel: string, depth: number): Promise<{ parts: string[]; notUtf8: number }> {
  if (depth > MAX_NESTING) return { parts: [], notUtf8: 0 };
  const r = await repo.runner.run({
    args: ['ls-files', '-z', '--others', '--exclude-standard'],
    // An index file that does not exist is an empty index; nothing writes it.
    index: repo.tempPath('empty-index'),
    workTree: path.join(repo.folder, ...rel.split('/').filter(Boolean)),
  });
  const listed = splitZ(r.stdout);
  const parts: string[] = [];
  let notUtf8 = listed.notUtf8;
  for (const p of listed.parts) {
    if (!p.endsWith('/')) {
      parts.push(rel + p);
      continue;
    }
    const deeper = await listNested(repo, rel + p, depth + 1);
    parts.push(...deeper.parts);
    notUtf8 += deeper.notUtf8;
  }
  return { parts, notUtf8 };
}

/** Whether each folder on a path is a real folder (not a link), asked once per folder. */
export class LeadingDirs {
  private readonly known = new Map<string, Promise<boolean>>();
  constructor(private readonly root: string) {}

  /** True when every folder leading to `rel` is a real folder inside the root. */
  async plain(rel: string): Promise<boolean> {
    const parts = rel.split('/');
    parts.pop();
    for (let i = 1; i <= parts.length; i++) {
      if (!(await this.dir(parts.slice(0, i).join('/')))) return false;
    }
    return true;
  }

  private dir(rel: string): Promise<boolean> {
    let hit = this.known.get(rel);
    if (!hit) {
      hit = fs.lstat(path.join(this.root, rel)).then(
        (s) => s.isDirectory(),
        () => false,
      );
      this.known.set(rel, hit);
    }
    return hit;
  }
}

async function verdict(
  root: string,
  rel: string,
  tracked: boolean,
  maxFileBytes: number,
  leading: LeadingDirs,
  skipped: SkippedFile[],
): Promise<Verdict> {
  // A tracked file whose folder became a link is gone from the tree as git sees it (and git
  // refuses a path beyond a link): never read through the link.
  if (tracked && !(await leading.plain(rel))) return 'forceRemove';
  let st: Stats;
  try {
    st = await fs.lstat(path.join(root, ...rel.split('/')));
  } catch {
    return tracked ? 'remove' : 'none';
  }
  if (st.isSymbolicLink()) return 'add';
  if (st.isFile()) {
    if (st.size <= maxFileBytes) return 'add';
    skipped.push({ path: rel, reason: 'tooLarge', bytes: st.size });
    return tracked ? 'forceRemove' : 'none';
  }
  if (st.isDirectory()) return tracked ? 'forceRemove' : 'none';
  skipped.push({ path: rel, reason: 'special' });
  return tracked ? 'forceRemove' : 'none';
}
