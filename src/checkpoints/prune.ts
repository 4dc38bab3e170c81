import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Journal } from './journal';
import type { ShadowRepo } from './shadowRepo';

export interface PruneOptions {
  /** Checkpoints last used (taken, or named by a turn or a restore) longer ago than this go. */
  olderThanDays: number;
  /** Past this size of the whole storage, the oldest checkpoints go too. */
  maxBytes: number;
  /** Checkpoints that stay whatever their age (a visible Undo, a diff on screen). */
  keep?: Iterable<string>;
  /**
   * Objects no checkpoint holds are deleted only once they are this old: another window may be
   * writing a snapshot that uses them. 60 by default; tests that measure sizes pass 0.
   */
  graceMinutes?: number;
  now?: number;
}

export interface PruneResult {
  released: number;
  remaining: number;
  bytesBefore: number;
  bytesAfter: number;
}

/** One folder's store as prune sees it. */
interface Store {
  dir: string;
  repo?: ShadowRepo;
  journal: Journal;
  /** Kept ids and when each was last used. */
  ids: Map<string, number>;
  dirty: boolean;
}

const DAY = 24 * 60 * 60_000;
const MAX_ROUNDS = 4;

async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await diskUsage(p);
    else {
      const st = await fs.lstat(p).catch(() => undefined);
      // Blocks, not bytes: a loose object of 100 bytes takes a whole block on the disk.
      if (st) total += st.blocks ? st.blocks * 512 : st.size;
    }
  }
  return total;
}

async function loadStore(dir: string, open: (folder: string) => Promise<ShadowRepo>): Promise<Store | undefined> {
  const marker = await fs.readFile(path.join(dir, 'folder.json'), 'utf8').catch(() => undefined);
  if (!marker) return undefined;
  let folder: string;
  try {
    const named = (JSON.parse(marker) as { folder?: unknown }).folder;
    if (typeof named !== 'string') return undefined;
    folder = named;
  } catch {
    return undefined;
  }
  const journal = new Journal(path.join(dir, 'journal.jsonl'), path.dirname(dir));
  const exists = await fs.stat(folder).then(
    (st) => st.isDirectory(),
    () => false,
  );
  const repo = exists ? await open(folder).catch(() => undefined) : undefined;
  const ids = new Map<string, number>();
  const refs = path.join(dir, 'git', 'refs', 'checkpoints');
  for (const n of await fs.readdir(refs).catch(() => [] as string[])) {
    const st = await fs.stat(path.join(refs, n)).catch(() => undefined);
    if (st && /^[0-9a-f]{40,64}$/.test(n)) ids.set(n, st.mtimeMs);
  }
  const use = (id: string, at: number) => {
    if (ids.has(id)) ids.set(id, Math.max(ids.get(id)!, at));
  };
  for (const r of await journal.read()) {
    if (r.kind === 'checkpoint') use(r.id, r.at);
    else if (r.kind === 'turn') [r.before, r.after].forEach((id) => use(id, r.at));
    else if (r.kind === 'restore') [r.target, r.undo].forEach((id) => use(id, r.at));
  }
  // Once per prune even when nothing goes: git packs what snapshots wrote loose (a loose object
  // takes a whole block on the disk).
  return { dir, repo, journal, ids, dirty: true };
}

async function release(store: Store, ids: string[]): Promise<void> {
  for (const id of ids) {
    await fs.rm(path.join(store.dir, 'git', 'refs', 'checkpoints', id), { force: true });
    store.ids.delete(id);
  }
  await store.journal.forget(ids);
  store.dirty = true;
}

async function collect(store: Store, graceMinutes: number): Promise<void> {
  if (!store.dirty || !store.repo) return;
  store.dirty = false;
  const prune = graceMinutes <= 0 ? 'now' : `${Math.ceil(graceMinutes)}.minutes.ago`;
  // Refs stay loose files (they are listed and deleted as files); 128: another window's gc runs.
  await store.repo.runner.run({ args: ['-c', 'gc.packRefs=false', 'gc', '--quiet', `--prune=${prune}`], ok: [128] });
}

/**
 * Prunes the checkpoints of every folder in the storage: those last used before the cutoff,
 * then, while the storage is over `maxBytes`, the oldest of the rest, a half at a time; never
 * one in `keep`. Git then deletes what no checkpoint and no index holds. The store of a folder
 * that no longer exists goes whole once it keeps nothing.
 */
export async function prune(
  storage: string,
  options: PruneOptions,
  open: (folder: string) => Promise<ShadowRepo>,
): Promise<PruneResult> {
  const now = options.now ?? Date.now();
  const keep = new Set(options.keep ?? []);
  const grace = options.graceMinutes ?? 60;
  const cutoff = now - options.olderThanDays * DAY;
  const stores: Store[] = [];
  for (const n of await fs.readdir(storage).catch(() => [] as string[])) {
    if (!/^[0-9a-f]{24}$/.test(n)) continue;
    const store = await loadStore(path.join(storage, n), open);
    if (store) stores.push(store);
  }
  const bytesBefore = await diskUsage(storage);
  let released = 0;
  for (const store of stores) {
    const old = [...store.ids].filter(([id, at]) => at < cutoff && !keep.has(id)).map(([id]) => id);
    if (old.length) await release(store, old);
    released += old.length;
  }
  for (const store of stores) await collect(store, grace);
  let bytes = await diskUsage(storage);
  for (let round = 0; round < MAX_ROUNDS && bytes > options.maxBytes; round++) {
    const candidates = stores
      .flatMap((s) => [...s.ids].filter(([id]) => !keep.has(id)).map(([id, at]) => ({ s, id, at })))
      .sort((a, b) => a.at - b.at);
    if (candidates.length === 0) break;
    const take = candidates.slice(0, Math.max(1, Math.ceil(candidates.length / 2)));
    for (const store of stores) {
      const ids = take.filter((c) => c.s === store).map((c) => c.id);
      if (ids.length) await release(store, ids);
    }
    released += take.length;
    for (const store of stores) await collect(store, grace);
    bytes = await diskUsage(storage);
  }
  for (const store of stores) {
    if (!store.repo && store.ids.size === 0) await fs.rm(store.dir, { recursive: true, force: true });
  }
  return {
    released,
    remaining: stores.reduce((n, s) => n + s.ids.size, 0),
    bytesBefore,
    bytesAfter: await diskUsage(storage),
  };
}
