/**
 * Requests from the extension host to the library's worker thread and their answers, over the
 * typed channel the webview uses (`protocol/channel.ts`: vscode-jsonrpc over a message port).
 * The worker answers in order, one at a time: a search sees every write sent before it.
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { ThreadEntry } from '../protocol/entries';
import type { KeptSession, LibraryStats, Scope, SearchHit, SessionKey, SessionWrite, TouchedHit } from './types';

/** Each request's parameters and answer. */
export interface LibraryCalls {
  write: { params: SessionWrite; result: void };
  session: { params: SessionKey; result: KeptSession | undefined };
  sessions: { params: Scope; result: KeptSession[] };
  transcript: { params: SessionKey; result: ThreadEntry[] | undefined };
  search: { params: { text: string; scope: Scope; limit: number }; result: SearchHit[] };
  touched: { params: { paths: string[]; scope: Scope }; result: TouchedHit[] };
  remove: { params: SessionKey; result: void };
  clear: { params: Record<string, never>; result: void };
  stats: { params: Record<string, never>; result: LibraryStats };
  setMaxBytes: { params: { maxBytes: number }; result: void };
  /** Closes the file between two transactions; the worker can then be ended safely. */
  close: { params: Record<string, never>; result: void };
}

export type LibraryOp = keyof LibraryCalls;
export type ParamsOf<K extends LibraryOp> = LibraryCalls[K]['params'];
export type ResultOf<K extends LibraryOp> = LibraryCalls[K]['result'];

/** What a failed request says beside its message. */
export interface LibraryFailure {
  /** The file is from a newer extension: the library stays off. */
  tooNew?: boolean;
}

export type LibraryRequest<K extends LibraryOp> = RequestType<ParamsOf<K>, ResultOf<K>, LibraryFailure>;

const ops: LibraryOp[] = [
  'write',
  'session',
  'sessions',
  'transcript',
  'search',
  'touched',
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
  /** It could not open: every request fails with this. */
  error?: string;
  tooNew?: boolean;
}

/** Sent once the store is open, or could not be opened. */
export const openedEvent = new NotificationType<OpenedParams>('library/opened');
/** A line for the extension's log. */
export const logEvent = new NotificationType<string>('library/log');

/** What the worker is started with. */
export interface LibraryWorkerData {
  dir: string;
  maxBytes: number;
}

/** The worker thread's nice value on Linux: a busy machine's cores go to the chats first. */
export const WORKER_NICE = 10;
