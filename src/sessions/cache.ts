import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { IDisposable } from '../base/lifecycle';
import type { Logger } from '../agent/log';
import { silentLogger } from '../agent/log';
import { normalizePath } from '../platform/pathKey';

/** Where the cache persists; the UI passes `context.workspaceState`. */
export interface SessionCacheStore {
  get(key: string): unknown;
  set(key: string, value: unknown): Promise<void> | void;
}

/** How many rows are kept per (agent, folder): enough to fill the view at once. */
export const CACHE_ROWS = 200;
const VERSION = 1;
const MAX_TITLE_UNITS = 1000;
const MAX_META_KEYS = 5;
const MAX_DIRS = 32;

/** What is stored. Items only: cursors are opaque and "MUST NOT be persisted". */
interface Stored {
  readonly v: typeof VERSION;
  readonly rows: SessionInfo[];
}

interface KeyState {
  /** The signature last written or waiting to be written. */
  sig?: string;
  lastWrite: number;
  timer?: ReturnType<typeof setTimeout>;
  pending?: Stored;
}

export interface SessionCacheOptions {
  /** Writes per key are at least this far apart; later changes are coalesced. */
  readonly minIntervalMs?: number;
  readonly logger?: Logger;
}

/**
 * The first rows last seen per (agent, folder), shown at once while the agent is asked again
 * (stale-while-revalidate). Reads validate and never throw; writes happen only when the ids,
 * titles or times of the first rows changed, at most once a second per key.
 */
export class SessionCache implements IDisposable {
  private readonly keys = new Map<string, KeyState>();
  private readonly minIntervalMs: number;
  private readonly logger: Logger;

  constructor(
    private readonly store: SessionCacheStore,
    options: SessionCacheOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.logger = options.logger ?? silentLogger;
  }

  /** The cached rows for an agent and folder; `[]` when there are none or they are unreadable. */
  read(agentId: string, folder: string): SessionInfo[] {
    const key = cacheKey(agentId, folder);
    let raw: unknown;
    try {
      raw = this.store.get(key);
    } catch (e) {
      this.logger.warn(`session cache: could not read ${key}: ${String(e)}`);
      return [];
    }
    const rows = parseStored(raw);
    if (rows === undefined) {
      if (raw !== undefined) this.logger.warn(`session cache: ignored unreadable entry ${key}`);
      return [];
    }
    const state = this.state(key);
    state.sig ??= signature(rows);
    return rows;
  }

  /** Remembers the first rows of a list; a no-op when they have not changed. */
  save(agentId: string, folder: string, rows: readonly SessionInfo[]): void {
    const key = cacheKey(agentId, folder);
    const first = rows.slice(0, CACHE_ROWS);
    const sig = signature(first);
    const state = this.state(key);
    if (sig === state.sig) return;
    state.sig = sig;
    state.pending = { v: VERSION, rows: first.map(compact) };
    if (state.timer) return;
    const wait = state.lastWrite + this.minIntervalMs - Date.now();
    if (wait <= 0) {
      this.write(key, state);
    } else {
      state.timer = setTimeout(() => {
        state.timer = undefined;
        this.write(key, state);
      }, wait);
      state.timer.unref?.();
    }
  }

  /** Writes whatever is waiting now. */
  flush(): void {
    for (const [key, state] of this.keys) {
      if (state.timer) clearTimeout(state.timer);
      state.timer = undefined;
      this.write(key, state);
    }
  }

  dispose(): void {
    this.flush();
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { lastWrite: -Infinity };
      this.keys.set(key, state);
    }
    return state;
  }

  private write(key: string, state: KeyState): void {
    const value = state.pending;
    if (!value) return;
    state.pending = undefined;
    state.lastWrite = Date.now();
    try {
      const done = this.store.set(key, value);
      if (done) done.catch((e: unknown) => this.logger.warn(`session cache: could not write ${key}: ${String(e)}`));
    } catch (e) {
      this.logger.warn(`session cache: could not write ${key}: ${String(e)}`);
    }
  }
}

/** The storage key for an agent and folder; the folder is normalised so spellings agree. */
export function cacheKey(agentId: string, folder: string): string {
  return `acp.sessions.v${VERSION}:${agentId}:${normalizePath(folder)}`;
}

function signature(rows: readonly SessionInfo[]): string {
  return rows.map((r) => `${r.sessionId}\u0000${r.title ?? ''}\u0000${r.updatedAt ?? ''}`).join('\u0001');
}

/** Only what a row needs to be shown: bounded, so a hostile title cannot bloat the storage. */
function compact(info: SessionInfo): SessionInfo {
  const out: SessionInfo = { sessionId: info.sessionId, cwd: info.cwd };
  if (typeof info.title === 'string') out.title = info.title.slice(0, MAX_TITLE_UNITS);
  if (typeof info.updatedAt === 'string') out.updatedAt = info.updatedAt.slice(0, 64);
  if (Array.isArray(info.additionalDirectories) && info.additionalDirectories.length > 0) {
    out.additionalDirectories = info.additionalDirectories.slice(0, MAX_DIRS);
  }
  const meta = primitiveMeta(info._meta);
  if (meta) out._meta = meta;
  return out;
}

function primitiveMeta(meta: unknown): Record<string, string | number | boolean> | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const out: Record<string, string | number | boolean> = {};
  let n = 0;
  for (const [k, v] of Object.entries(meta)) {
    if (n >= MAX_META_KEYS) break;
    if (typeof v === 'string') out[k] = v.slice(0, 200);
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else continue;
    n++;
  }
  return n > 0 ? out : undefined;
}

/** Validates a stored value; rows of the wrong shape are skipped, a wrong envelope is ignored. */
function parseStored(raw: unknown): SessionInfo[] | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { v, rows } = raw as { v?: unknown; rows?: unknown };
  if (v !== VERSION || !Array.isArray(rows)) return undefined;
  const out: SessionInfo[] = [];
  const seen = new Set<string>();
  for (const r of rows.slice(0, CACHE_ROWS)) {
    const info = parseRow(r);
    if (info && !seen.has(info.sessionId)) {
      seen.add(info.sessionId);
      out.push(info);
    }
  }
  return out;
}

function parseRow(r: unknown): SessionInfo | undefined {
  if (typeof r !== 'object' || r === null) return undefined;
  const o = r as Record<string, unknown>;
  if (typeof o.sessionId !== 'string' || o.sessionId === '' || typeof o.cwd !== 'string' || o.cwd === '') {
    return undefined;
  }
  const info: SessionInfo = { sessionId: o.sessionId, cwd: o.cwd };
  if (typeof o.title === 'string') info.title = o.title.slice(0, MAX_TITLE_UNITS);
  if (typeof o.updatedAt === 'string') info.updatedAt = o.updatedAt.slice(0, 64);
  if (Array.isArray(o.additionalDirectories) && o.additionalDirectories.every((d) => typeof d === 'string')) {
    info.additionalDirectories = (o.additionalDirectories as string[]).slice(0, MAX_DIRS);
  }
  const meta = primitiveMeta(o._meta);
  if (meta) info._meta = meta;
  return info;
}
