// The reference agent's disk-backed session store: one ndjson file of updates per session and an
// index of session metadata kept sorted newest first, so a list page costs the page, not the
// store. The index is read once at start and rewritten atomically on every change. A seeded
// history is regenerated from its index entry (it is deterministic), so seeding 10,000 sessions
// writes one file, not 10,000; the session's file then holds only the turns added later.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { seededTurn } from './content';

/** One session as the index knows it. */
export interface IndexEntry {
  sessionId: string;
  cwd: string;
  /** ISO 8601; the sort key, newest first. */
  updatedAt: string;
  title: string | null;
  turns: number;
  additionalDirectories?: string[];
  /** Archived (`session/archive`): left out of `session/list` unless asked for. */
  archived?: boolean;
  /** Listed as the session's `_meta` (beside `messageCount`): marks such as a side chain's. */
  meta?: Record<string, unknown>;
  /** Seeded sessions: the first `turns` turns come from `seededTurn(cwd, turn, index)`. */
  seeded?: { turns: number; index: number };
}

/** A position in the sorted index: the page after it starts strictly after this key. */
export interface SortKey {
  updatedAt: string;
  sessionId: string;
}

interface IndexFile {
  version: 1;
  sessions: IndexEntry[];
}

/** Newest first; ties broken by id so every key has one place. */
export function compareKeys(a: SortKey, b: SortKey): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

/** Index of the first entry that sorts strictly after `key`. */
function firstAfter(list: readonly IndexEntry[], key: SortKey): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(list[mid], key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(list: IndexEntry[], entry: IndexEntry): void {
  const at = firstAfter(list, entry);
  // New and touched sessions are the newest, so this is nearly always an unshift.
  if (at === 0) list.unshift(entry);
  else list.splice(at, 0, entry);
}

function removeFrom(list: IndexEntry[], entry: IndexEntry): void {
  const at = list.indexOf(entry);
  if (at >= 0) list.splice(at, 1);
}

export class SessionStore {
  private readonly all: IndexEntry[] = [];
  private readonly byCwd = new Map<string, IndexEntry[]>();
  private readonly byId = new Map<string, IndexEntry>();
  private readonly indexPath: string;
  private readonly sessionsDir: string;
  /** The index file as last read or written, to notice another process's writes. */
  private seen = '';

  constructor(readonly dir: string) {
    this.indexPath = join(dir, 'index.json');
    this.sessionsDir = join(dir, 'sessions');
    mkdirSync(this.sessionsDir, { recursive: true });
    this.refresh();
  }

  /**
   * Re-reads the index when another agent process sharing the store has rewritten it (two
   * windows, two agent entries). A stat per call; a full read only after a foreign write.
   */
  refresh(): void {
    const stamp = this.stamp();
    if (stamp === this.seen) return;
    this.all.length = 0;
    this.byCwd.clear();
    this.byId.clear();
    if (stamp !== '') this.addMany(readIndex(this.indexPath));
    this.seen = stamp;
  }

  private stamp(): string {
    try {
      const st = statSync(this.indexPath);
      return `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      return '';
    }
  }

  get size(): number {
    return this.all.length;
  }

  get(sessionId: string): IndexEntry | undefined {
    this.refresh();
    return this.byId.get(sessionId);
  }

  /** The sorted entries for one cwd, or for the whole store. Callers must not mutate it. */
  sorted(cwd?: string): readonly IndexEntry[] {
    return cwd === undefined ? this.all : (this.byCwd.get(cwd) ?? []);
  }

  /** Up to `size` entries after `after` (or from the top), and whether more follow. */
  page(list: readonly IndexEntry[], after: SortKey | undefined, size: number): { items: IndexEntry[]; more: boolean } {
    const start = after ? firstAfter(list as IndexEntry[], after) : 0;
    const items = list.slice(start, start + size);
    return { items, more: start + size < list.length };
  }

  /** Adds entries in bulk (start-up, seeding): one sort instead of one insert each. */
  addMany(entries: IndexEntry[]): void {
    for (const entry of entries) {
      const old = this.byId.get(entry.sessionId);
      if (old) this.detach(old);
      this.byId.set(entry.sessionId, entry);
      this.all.push(entry);
      let forCwd = this.byCwd.get(entry.cwd);
      if (!forCwd) this.byCwd.set(entry.cwd, (forCwd = []));
      forCwd.push(entry);
    }
    this.all.sort(compareKeys);
    for (const list of this.byCwd.values()) list.sort(compareKeys);
  }

  add(entry: IndexEntry, updates: SessionUpdate[] = []): void {
    this.refresh();
    const old = this.byId.get(entry.sessionId);
    if (old) this.detach(old);
    this.byId.set(entry.sessionId, entry);
    insertSorted(this.all, entry);
    let forCwd = this.byCwd.get(entry.cwd);
    if (!forCwd) this.byCwd.set(entry.cwd, (forCwd = []));
    insertSorted(forCwd, entry);
    writeFileSync(this.sessionPath(entry.sessionId), toNdjson(updates));
    this.saveIndex();
  }

  /** Appends a finished turn and moves the session to the top. */
  appendTurn(
    sessionId: string,
    updates: SessionUpdate[],
    changes: { updatedAt: string; title?: string },
  ): IndexEntry | undefined {
    this.refresh();
    const entry = this.byId.get(sessionId);
    if (!entry) return undefined;
    appendFileSync(this.sessionPath(sessionId), toNdjson(updates));
    this.detach(entry);
    const next: IndexEntry = { ...entry, updatedAt: changes.updatedAt, turns: entry.turns + 1 };
    if (changes.title !== undefined) next.title = changes.title;
    this.place(next);
    return next;
  }

  /** Marks a session updated now without a new turn (a load that touches the session's file). */
  touch(sessionId: string, updatedAt: string): void {
    this.refresh();
    const entry = this.byId.get(sessionId);
    if (!entry) return;
    this.detach(entry);
    this.place({ ...entry, updatedAt });
  }

  /** Puts a changed entry back in its place in every order, and saves the index. */
  private place(next: IndexEntry): void {
    this.byId.set(next.sessionId, next);
    insertSorted(this.all, next);
    let forCwd = this.byCwd.get(next.cwd);
    if (!forCwd) this.byCwd.set(next.cwd, (forCwd = []));
    insertSorted(forCwd, next);
    this.saveIndex();
  }

  /** Changes a session's title or archive state in place: its position and time stay. */
  update(sessionId: string, changes: { title?: string; archived?: boolean }): IndexEntry | undefined {
    this.refresh();
    const entry = this.byId.get(sessionId);
    if (!entry) return undefined;
    if (changes.title !== undefined) entry.title = changes.title;
    if (changes.archived !== undefined) entry.archived = changes.archived;
    this.saveIndex();
    return entry;
  }

  delete(sessionId: string): boolean {
    this.refresh();
    const entry = this.byId.get(sessionId);
    if (!entry) return false;
    this.detach(entry);
    this.byId.delete(sessionId);
    rmSync(this.sessionPath(sessionId), { force: true });
    this.saveIndex();
    return true;
  }

  /** The whole history of a session, oldest first. */
  readUpdates(sessionId: string): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    const entry = this.byId.get(sessionId);
    if (entry?.seeded) {
      for (let turn = 0; turn < entry.seeded.turns; turn++)
        updates.push(...seededTurn(entry.cwd, turn, entry.seeded.index));
    }
    const path = this.sessionPath(sessionId);
    if (!existsSync(path)) return updates;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      try {
        updates.push(JSON.parse(line) as SessionUpdate);
      } catch {
        // A torn last line (a crash mid-append) loses one update, not the session.
      }
    }
    return updates;
  }

  sessionPath(sessionId: string): string {
    // Ids come from the client on load/delete: keep them inside the store whatever they hold.
    return join(this.sessionsDir, `${encodeURIComponent(sessionId)}.ndjson`);
  }

  saveIndex(): void {
    const file: IndexFile = { version: 1, sessions: this.all };
    const tmp = `${this.indexPath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(file));
    renameSync(tmp, this.indexPath);
    this.seen = this.stamp();
  }

  private detach(entry: IndexEntry): void {
    removeFrom(this.all, entry);
    const forCwd = this.byCwd.get(entry.cwd);
    if (forCwd) {
      removeFrom(forCwd, entry);
      if (forCwd.length === 0) this.byCwd.delete(entry.cwd);
    }
  }
}

export function toNdjson(updates: readonly SessionUpdate[]): string {
  let out = '';
  for (const update of updates) out += JSON.stringify(update) + '\n';
  return out;
}

function readIndex(path: string): IndexEntry[] {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<IndexFile>;
    return (parsed.sessions ?? []).filter(
      (e) => e && typeof e.sessionId === 'string' && typeof e.cwd === 'string' && typeof e.updatedAt === 'string',
    );
  } catch (error) {
    process.stderr.write(`reference agent: ignoring unreadable index ${path}: ${String(error)}\n`);
    return [];
  }
}
