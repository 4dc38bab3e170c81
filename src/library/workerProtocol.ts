/**
 * Requests from the extension host to the library's worker thread and their answers. The
 * worker answers in order, one at a time: a search sees every write sent before it.
 */
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

export interface LibraryRequest<K extends LibraryOp = LibraryOp> {
  id: number;
  op: K;
  params: LibraryCalls[K]['params'];
}

export type LibraryReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; message: string; tooNew?: boolean }
  /** Sent once the store is open (or could not be opened: then every request fails with that). */
  | { id: 0; ready: true; error?: string; tooNew?: boolean }
  /** A line for the extension's log. */
  | { id: 0; log: string };

/** What the worker is started with. */
export interface LibraryWorkerData {
  dir: string;
  maxBytes: number;
}

/** The worker thread's nice value on Linux: a busy machine's cores go to the chats first. */
export const WORKER_NICE = 10;
