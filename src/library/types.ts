/**
 * The session library's vocabulary, shared by its store (in a worker thread) and the host side
 * that talks to it. Plain data only: everything here crosses `postMessage`.
 */
import type { ThreadEntry } from '../protocol/entries';
import type { SessionStats, StatsChange } from './stats';

/** A session as the agent names it. */
export interface SessionKey {
  agentId: string;
  sessionId: string;
}

/** What the agent last reported of a kept session, and what the library knows of its copy. */
export interface KeptSession extends SessionKey {
  cwd: string;
  title?: string;
  /** The session's `updatedAt` as the agent last reported it (verbatim). */
  updatedAt?: string;
  /**
   * The kept entries are the whole history: a load finished, or the session began in this
   * client. A resume without a kept history keeps only what came after it: searchable, but
   * never shown as the whole history.
   */
  complete: boolean;
  /** Entries kept. */
  entries: number;
  /** Bytes the kept entries take (their JSON and their searchable text). */
  bytes: number;
  /** Milliseconds since the epoch: first kept, and last opened (eviction takes the oldest first). */
  keptAt: number;
  openedAt: number;
  /** What the session used and cost, and how long its turns ran (see `stats.ts`). */
  stats?: SessionStats;
}

/** Session fields a write may set; absent fields stay as they are. */
export interface SessionInfo {
  title?: string | null;
  updatedAt?: string | null;
  complete?: boolean;
  /** The agent's last usage report, and the time and cost turns added since the last write. */
  stats?: StatsChange;
}

/** One write to a kept session: what changed since the last one. */
export interface SessionWrite extends SessionKey {
  /** The session's working directory (kept on the first write, updated on later ones). */
  cwd: string;
  info?: SessionInfo;
  /** Drop the kept entries first: a load replays the whole history again. */
  reset?: boolean;
  /** Entries added or changed, by their index in the thread. */
  entries?: Array<{ index: number; entry: ThreadEntry }>;
  /** The session was opened (eviction keeps the most recently opened). */
  opened?: boolean;
  /**
   * Changes the chat showed before this write never reached the library (it was off, or a write
   * failed): what is kept lacks them, so it is not the whole history until a write starts over.
   */
  partial?: boolean;
  /**
   * Secret values of the session's agent to mask (its `env` values, resolved secrets, MCP env
   * and header values), on top of the keys that always look secret.
   */
  secrets?: readonly string[];
}

/** Which kept sessions a search or listing covers. */
export interface Scope {
  agentId?: string;
  /** The sessions whose cwd is this path (as the caller normalises it, see `pathKey`). */
  cwd?: string;
}

/**
 * Which of the sessions in scope a search keeps (Resume Session's typed filters): applied before
 * the hits are ranked and cut to the limit, so that only the hits kept get a snippet made.
 */
export interface SearchFilter {
  /** Sessions of one of these agents, or of an agent whose id holds `agentLike` (lower case). */
  agentIds?: readonly string[];
  agentLike?: string;
  /** Sessions whose cwd, in lower case, holds this. */
  folderLike?: string;
  /** Milliseconds: the agent's `updatedAt` on or after this (a session without one is left out). */
  after?: number;
  /** Milliseconds: the agent's `updatedAt` before this (a session without one is left out). */
  before?: number;
}

/** A kept session that holds some of the words searched for. */
export interface SearchHit extends SessionKey {
  cwd: string;
  title?: string;
  updatedAt?: string;
  /** How many of the query's words the session holds (all of them ranks first). */
  matched: number;
  words: number;
  /** A line of the entry that matched best, and that entry's index. */
  snippet?: string;
  entryIndex?: number;
}

/** A kept session whose tool calls read, wrote or diffed a file. */
export interface TouchedHit extends SessionKey {
  cwd: string;
  title?: string;
  updatedAt?: string;
  /** The first entry that touched the file. */
  entryIndex: number;
  /** The path as the agent spelled it. */
  path: string;
}

/** One session continued in another ("Continue in Another Agent…"): `from` was handed to `to`. */
export interface SessionLink {
  from: SessionKey;
  to: SessionKey;
}

/** A session linked to another, as seen from that other one. */
export interface LinkedSession extends SessionKey {
  /** `to`: the session was continued in this one; `from`: it continues this one. */
  direction: 'to' | 'from';
  /** What the library keeps of it (absent when it keeps nothing of it, or not yet). */
  title?: string;
  cwd?: string;
  /** When the link was made, milliseconds since the epoch. */
  at: number;
}

/** The library's size and contents. */
export interface LibraryStats {
  sessions: number;
  entries: number;
  /** Bytes in use in the file (free pages not counted). */
  bytes: number;
  /** The file's size on disk, with the free pages not yet given back. */
  fileBytes: number;
  maxBytes: number;
}
