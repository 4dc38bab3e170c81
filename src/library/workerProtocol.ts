/**
 * Requests from the extension host to the library's worker thread and their answers, over the
 * typed channel the webview uses (`protocol/channel.ts`: vscode-jsonrpc over a message port).
 * The worker answers in order, one at a time: a search sees every write sent before it.
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { ThreadEntry } from '../protocol/entries';
import type { EngineName } from './engine';
import type {
  KeptSession,
  LibraryStats,
  LinkedSession,
  Scope,
  SearchFilter,
  SearchHit,
  SessionKey,
  SessionLink,
  SessionWrite,
  TouchedHit,
} from './types';

/** What a failed request says beside its message. */
export interface LibraryFailure {
  /** The file is from a newer extension: the library stays off. */
  tooNew?: boolean;
  /** Another window held the file longer than this request waited: a later one may succeed. */
  busy?: boolean;
}

type None = Record<string, never>;

/** Each request's parameters and answer. */
export interface LibraryCalls {
  write: { params: SessionWrite; result: void };
  session: { params: SessionKey; result: KeptSession | undefined };
  sessions: { params: Scope; result: KeptSession[] };
  transcript: { params: SessionKey; result: ThreadEntry[] | undefined };
  entry: { params: SessionKey & { index: number }; result: ThreadEntry | undefined };
  search: { params: { text: string; scope: Scope; limit: number; filter?: SearchFilter }; result: SearchHit[] };
  /** Reads ahead what the first search reads (a search box opened). */
  warm: { params: None; result: void };
  touched: { params: { paths: string[]; scope: Scope; like?: string }; result: TouchedHit[] };
  link: { params: SessionLink; result: void };
  links: { params: SessionKey; result: LinkedSession[] };
  remove: { params: SessionKey; result: void };
  /** Forgets every kept session; answers how many copies of damaged files set aside it removed too. */
  clear: { params: None; result: { damagedCopies: number } };
  stats: { params: None; result: LibraryStats };
  setMaxBytes: { params: { maxBytes: number }; result: void };
  /** Closes the file between two holds; the worker can then be ended safely. */
  close: { params: None; result: void };
}

export type LibraryOp = keyof LibraryCalls;
export type ParamsOf<K extends LibraryOp> = LibraryCalls[K]['params'];
export type ResultOf<K extends LibraryOp> = LibraryCalls[K]['result'];
export type LibraryRequest<K extends LibraryOp> = RequestType<ParamsOf<K>, ResultOf<K>, LibraryFailure>;

const ops: LibraryOp[] = [
  'write',
  'session',
  'sessions',
  'transcript',
  'entry',
  'search',
  'warm',
  'touched',
  'link',
  'links',
  'remove',
  'clear',
  'stats',
  'setMaxBytes',
  'close',
];

/** The request type of each call, named `library/<op>`. */
export const libraryCalls = Object.fromEntries(ops.map((op) => [op, new RequestType(`library/${op}`)])) as {
  [K in LibraryOp]: LibraryRequest<K>;
};

export interface OpenedParams {
  engine?: EngineName;
  /** It could not open, for good (a newer extension's file, a disk that refuses): every request fails with this. */
  error?: string;
  tooNew?: boolean;
  /** Another window held the file all the while: each request tries again. */
  busy?: string;
}

/** Sent once, after the worker's first try at opening the file. */
export const openedEvent = new NotificationType<OpenedParams>('library/opened');
/** A line for the extension's log. */
export const logEvent = new NotificationType<string>('library/log');

/** What the worker is started with. */
export interface LibraryWorkerData {
  dir: string;
  maxBytes: number;
  /** How long a use of the file waits for another window's (tests shorten it). */
  busyWaitMs?: number;
  /** The SQLite to run on (tests run both); by default the host's own where it can. */
  engine?: EngineName;
  /**
   * The searching thread beside the writing one: it opens the file the writer opened, only
   * reads, and keeps its priority (a keystroke's search does not wait behind the machine's work).
   */
  reader?: boolean;
}

/** The writing worker thread's nice value on Linux: a busy machine's cores go to the chats first. */
export const WORKER_NICE = 10;
