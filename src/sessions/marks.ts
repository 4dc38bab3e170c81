import type { SessionInfo } from '@agentclientprotocol/sdk';
import { Emitter, type Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import { silentLogger, type Logger } from '../agent/log';
import { normalizePath } from '../platform/pathKey';
import { sessionKey } from '../agent/sessionKey';
import { MAX_TITLE, sanitizeText } from './title';

/**
 * Where the marks persist: the UI passes `context.globalState`, so a name or an archive
 * survives reloads and is the same in every window (a session belongs to its agent, not to
 * a workspace).
 */
export interface MarksStore {
  get(key: string): unknown;
  set(key: string, value: unknown): Promise<void> | void;
}

/** At most this many names and this many archived sessions are kept; the oldest go first. */
export const MAX_MARKS = 5000;
const NAMES_KEY = 'acp.sessionNames.v1';
const ARCHIVE_KEY = 'acp.archivedSessions.v1';
const MAX_ID = 1024;
const MAX_PATH = 4096;

/** A session archived on this side, with what is needed to list it without asking the agent. */
export interface ArchivedSession {
  readonly agentId: string;
  readonly info: SessionInfo;
  /** When it was archived (ms since the epoch). */
  readonly at: number;
}

/** A name the user gave. */
export interface SessionName {
  readonly name: string;
  /**
   * The agent's title when the user renamed it through an agent that stores titles
   * (`session/set_title`): Reset Name gives that title back to the agent.
   */
  readonly before?: string;
  readonly at: number;
}

/** What the storage held when last read: nothing read yet. */
const UNREAD = Symbol('unread');

/**
 * The names the user gave sessions and the sessions archived on this side, per (agent,
 * session id), for agents that do not store them (no `sessionCapabilities.title` or
 * `.archive`). Everything read back is checked: stored data may be old, hand-edited or
 * written by another version. Names are cleaned like titles (one line, no control or bidi
 * characters, at most 200 characters).
 *
 * Another window may write the same storage: the store's value is compared by identity on
 * each read, and parsed again only when it is not the one last seen.
 */
export class SessionMarks implements IDisposable {
  private readonly changed = new Emitter<{ agentId: string; sessionIds: readonly string[] }>();
  /** Fires when a name or an archive state changed here. */
  readonly onDidChange: Event<{ agentId: string; sessionIds: readonly string[] }> = this.changed.event;
  private namesRaw: unknown = UNREAD;
  private names = new Map<string, SessionName>();
  private archiveRaw: unknown = UNREAD;
  private archive = new Map<string, ArchivedSession>();
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly limit: number;

  constructor(
    private readonly store: MarksStore,
    options: { logger?: Logger; now?: () => number; limit?: number } = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    this.limit = options.limit ?? MAX_MARKS;
  }

  /** The name the user gave a session, if any. */
  nameOf(agentId: string, sessionId: string): string | undefined {
    return this.readNames().get(sessionKey(agentId, sessionId))?.name;
  }

  /** The name with what is kept beside it. */
  nameEntry(agentId: string, sessionId: string): SessionName | undefined {
    return this.readNames().get(sessionKey(agentId, sessionId));
  }

  /**
   * Names a session. The name is cleaned; one that cleans to nothing removes the name.
   * `before` is the agent's title when the agent stores the name too (kept from the first
   * rename on, so Reset Name goes back to the agent's own title). Returns the name kept (or
   * `undefined` when removed).
   */
  setName(agentId: string, sessionId: string, name: string, before?: string): string | undefined {
    const clean = sanitizeText(name, MAX_TITLE);
    if (!clean) {
      this.resetName(agentId, sessionId);
      return undefined;
    }
    const names = this.readNames();
    const key = sessionKey(agentId, sessionId);
    const old = names.get(key);
    if (old?.name === clean) return clean;
    const kept = old ? old.before : before?.slice(0, 1000);
    names.delete(key);
    names.set(key, { name: clean, at: this.now(), ...(kept !== undefined ? { before: kept } : {}) });
    this.writeNames(trim(names, this.limit));
    this.changed.fire({ agentId, sessionIds: [sessionId] });
    return clean;
  }

  /** Forgets the name given here: the session shows the agent's title again. */
  resetName(agentId: string, sessionId: string): void {
    const names = this.readNames();
    if (!names.delete(sessionKey(agentId, sessionId))) return;
    this.writeNames(names);
    this.changed.fire({ agentId, sessionIds: [sessionId] });
  }

  isArchived(agentId: string, sessionId: string): boolean {
    return this.readArchive().has(sessionKey(agentId, sessionId));
  }

  /** Archives sessions on this side, keeping what "Show Archived Sessions" lists. */
  archiveSessions(agentId: string, infos: readonly SessionInfo[]): void {
    const archive = this.readArchive();
    const ids: string[] = [];
    for (const info of infos) {
      const kept = compactInfo(info);
      if (!kept) continue;
      const key = sessionKey(agentId, kept.sessionId);
      archive.delete(key);
      archive.set(key, { agentId, info: kept, at: this.now() });
      ids.push(kept.sessionId);
    }
    if (ids.length === 0) return;
    this.writeArchive(trim(archive, this.limit));
    this.changed.fire({ agentId, sessionIds: ids });
  }

  unarchiveSessions(agentId: string, sessionIds: readonly string[]): void {
    const archive = this.readArchive();
    const gone = sessionIds.filter((id) => archive.delete(sessionKey(agentId, id)));
    if (gone.length === 0) return;
    this.writeArchive(archive);
    this.changed.fire({ agentId, sessionIds: gone });
  }

  /** The sessions archived here for an agent (and folder, when given), last archived first. */
  archived(agentId: string, folder?: string): ArchivedSession[] {
    const want = folder === undefined ? undefined : normalizePath(folder);
    const out: ArchivedSession[] = [];
    for (const entry of this.readArchive().values()) {
      if (entry.agentId !== agentId) continue;
      if (want !== undefined && normalizePath(entry.info.cwd) !== want) continue;
      out.push(entry);
    }
    return out.reverse();
  }

  dispose(): void {
    this.changed.dispose();
  }

  private readNames(): Map<string, SessionName> {
    const raw = this.safeGet(NAMES_KEY);
    if (raw !== this.namesRaw) {
      this.namesRaw = raw;
      this.names = parseNames(raw, this.limit, () =>
        this.logger.warn(`session names: ignored unreadable ${NAMES_KEY}`),
      );
    }
    return this.names;
  }

  private readArchive(): Map<string, ArchivedSession> {
    const raw = this.safeGet(ARCHIVE_KEY);
    if (raw !== this.archiveRaw) {
      this.archiveRaw = raw;
      this.archive = parseArchive(raw, this.limit, () =>
        this.logger.warn(`archived sessions: ignored unreadable ${ARCHIVE_KEY}`),
      );
    }
    return this.archive;
  }

  private writeNames(names: Map<string, SessionName>): void {
    const value = { v: 1, names: Object.fromEntries(names) };
    this.names = names;
    this.namesRaw = value;
    this.safeSet(NAMES_KEY, value);
  }

  private writeArchive(archive: Map<string, ArchivedSession>): void {
    const value = { v: 1, sessions: [...archive.values()] };
    this.archive = archive;
    this.archiveRaw = value;
    this.safeSet(ARCHIVE_KEY, value);
  }

  private safeGet(key: string): unknown {
    try {
      return this.store.get(key);
    } catch (e) {
      this.logger.warn(`could not read ${key}: ${String(e)}`);
      return undefined;
    }
  }

  private safeSet(key: string, value: unknown): void {
    try {
      const done = this.store.set(key, value);
      if (done) done.catch((e: unknown) => this.logger.warn(`could not write ${key}: ${String(e)}`));
    } catch (e) {
      this.logger.warn(`could not write ${key}: ${String(e)}`);
    }
  }
}

/** Keeps the newest `limit` entries (maps keep insertion order; newest last). */
function trim<V>(map: Map<string, V>, limit: number): Map<string, V> {
  for (const key of map.keys()) {
    if (map.size <= limit) break;
    map.delete(key);
  }
  return map;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const validId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID;

function parseNames(raw: unknown, limit: number, bad: () => void): Map<string, SessionName> {
  const out = new Map<string, SessionName>();
  if (raw === undefined) return out;
  if (!isRecord(raw) || raw.v !== 1 || !isRecord(raw.names)) {
    bad();
    return out;
  }
  const entries: [string, SessionName][] = [];
  for (const [key, value] of Object.entries(raw.names)) {
    const [agentId, sessionId, extra] = key.split('\n');
    if (extra !== undefined || !validId(agentId) || !validId(sessionId) || !isRecord(value)) continue;
    const name = typeof value.name === 'string' ? sanitizeText(value.name, MAX_TITLE) : '';
    if (!name) continue;
    const at = typeof value.at === 'number' && Number.isFinite(value.at) ? value.at : 0;
    const before = typeof value.before === 'string' ? { before: value.before.slice(0, 1000) } : {};
    entries.push([key, { name, at, ...before }]);
  }
  entries.sort((a, b) => a[1].at - b[1].at);
  for (const [key, entry] of entries.slice(-limit)) out.set(key, entry);
  return out;
}

function parseArchive(raw: unknown, limit: number, bad: () => void): Map<string, ArchivedSession> {
  const out = new Map<string, ArchivedSession>();
  if (raw === undefined) return out;
  if (!isRecord(raw) || raw.v !== 1 || !Array.isArray(raw.sessions)) {
    bad();
    return out;
  }
  const entries: ArchivedSession[] = [];
  for (const value of raw.sessions) {
    if (!isRecord(value) || !validId(value.agentId) || value.agentId.includes('\n')) continue;
    const info = compactInfo(value.info);
    if (!info) continue;
    entries.push({ agentId: value.agentId, info, at: typeof value.at === 'number' ? value.at : 0 });
  }
  entries.sort((a, b) => a.at - b.at);
  for (const entry of entries.slice(-limit)) out.set(sessionKey(entry.agentId, entry.info.sessionId), entry);
  return out;
}

/** What an archived row keeps: id, cwd, title and time, bounded; `undefined` for a shape that cannot be a session. */
function compactInfo(raw: unknown): SessionInfo | undefined {
  if (!isRecord(raw) || !validId(raw.sessionId) || raw.sessionId.includes('\n')) return undefined;
  if (typeof raw.cwd !== 'string' || raw.cwd.length === 0 || raw.cwd.length > MAX_PATH) return undefined;
  const info: SessionInfo = { sessionId: raw.sessionId, cwd: raw.cwd };
  if (typeof raw.title === 'string') info.title = raw.title.slice(0, 1000);
  if (typeof raw.updatedAt === 'string') info.updatedAt = raw.updatedAt.slice(0, 64);
  return info;
}
