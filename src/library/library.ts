/**
 * The session library as the extension host sees it: an asynchronous front for the store, which
 * runs in worker threads (one writes, one beside it reads). Nothing here blocks: writes are posted and searched text comes back
 * as a promise. When the library cannot open (a newer extension's file, a broken disk) every
 * call fails with that reason, and callers go on without it.
 */
import { ResponseError } from 'vscode-jsonrpc';
import type { IDisposable } from '../base/lifecycle';
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
import { LibraryThread } from './libraryThread';
import {
  libraryCalls,
  type LibraryFailure,
  type LibraryOp,
  type LibraryRequest,
  type LibraryWorkerData,
  type ParamsOf,
  type ResultOf,
} from './workerProtocol';

export interface LibraryOptions {
  /** The bundled worker script (`dist/libraryWorker.js`). */
  workerPath: string;
  /** The extension's global storage directory. */
  dir: string;
  maxBytes: number;
  /** The SQLite to run on (tests run both); by default the host's own where it can. */
  engine?: EngineName;
  /** How long a use of the file waits for another window's (tests shorten it). */
  busyWaitMs?: number;
  log?: (message: string) => void;
  /**
   * Told once when writes start failing (a full disk, storage that refuses writes), with what
   * to tell the user. Chats go on; what was not written is loaded from the agent next time.
   */
  writeFailed?: (message: string) => void;
}

/** How long a close waits for the worker to finish its current transaction. */
const CLOSE_WAIT_MS = 5_000;

export class LibraryUnavailable extends Error {
  constructor(
    message: string,
    readonly tooNew = false,
    /** Another window held the file all the while: this call failed, a later one may not. */
    readonly busy = false,
  ) {
    super(message);
  }
}

/**
 * Calls the reading thread answers. The writing thread lowers its priority (keeping a long
 * transcript takes a core for a second), so on a busy machine a search sent to it waits behind
 * everything else: a keystroke's search and opening a hit go to a thread beside it that keeps
 * the machine's normal priority.
 */
const READS = new Set<LibraryOp>(['search', 'warm', 'touched', 'transcript', 'entry']);
/** Calls that change the file: a read sent after one is sent once it was answered. */
const WRITES = new Set<LibraryOp>(['write', 'link', 'remove', 'clear', 'setMaxBytes']);

export class Library implements IDisposable {
  private readonly writer: LibraryThread;
  /** The reading thread, started on the first read; undefined once it failed (reads go to the writer). */
  private reader: Promise<LibraryThread | undefined> | undefined;
  /** Settles once every write sent so far was answered. */
  private written: Promise<unknown> = Promise.resolve();
  private failure: LibraryUnavailable | undefined;
  private closing: Promise<void> | undefined;
  /** Writes are failing now (logged once per run of failures). */
  private failingWrites = false;
  private toldWriteFailed = false;
  /** Which SQLite the worker runs on, once it opened the file. */
  engine: EngineName | undefined;
  /** Resolves once the worker tried the file (another window may hold it yet), or rejects with why it cannot open. */
  readonly ready: Promise<void>;

  private readonly log: (message: string) => void;

  constructor(private readonly opts: LibraryOptions) {
    const log = (this.log = opts.log ?? (() => {}));
    let opened: (error?: LibraryUnavailable) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => {
      opened = (error) => (error ? reject(error) : resolve());
    });
    // A caller that never awaits `ready` still sees the failure through its calls.
    this.ready.catch(() => {});
    this.writer = new LibraryThread(opts.workerPath, this.workerData(), {
      log,
      opened: (p) => {
        if (p.error) this.fail(new LibraryUnavailable(p.error, p.tooNew));
        if (p.busy) log(`The session library waits for another window: ${p.busy}`);
        this.engine = p.engine;
        opened(this.failure);
      },
      lost: (why) => {
        const error = new LibraryUnavailable(`The session library stopped: ${why}`);
        this.fail(error);
        opened(error);
      },
    });
  }

  private workerData(reader?: true): LibraryWorkerData {
    const data: LibraryWorkerData = { dir: this.opts.dir, maxBytes: this.opts.maxBytes };
    if (this.opts.engine) data.engine = this.opts.engine;
    if (this.opts.busyWaitMs !== undefined) data.busyWaitMs = this.opts.busyWaitMs;
    if (reader) data.reader = true;
    return data;
  }

  /** Whether calls can still succeed. */
  get available(): boolean {
    return this.failure === undefined;
  }

  private fail(error: LibraryUnavailable): void {
    if (this.failure) return;
    this.failure = error;
    // Every call still waiting is answered with this failure.
    this.writer.disconnect();
    void this.reader?.then((r) => r?.disconnect());
  }

  /**
   * The reading thread, once it opened the file the writer opened (the writer makes or repairs
   * it first); undefined when it could not: reads then go to the writer, as they did before.
   */
  private readingThread(): Promise<LibraryThread | undefined> {
    this.reader ??= this.ready.then(
      () =>
        new Promise<LibraryThread | undefined>((resolve) => {
          const gone = (why: string) => {
            if (!this.closing) this.log(`The session library reads in its writing thread: ${why}`);
            this.reader = Promise.resolve(undefined);
            resolve(undefined);
            void thread.terminate();
          };
          const thread: LibraryThread = new LibraryThread(this.opts.workerPath, this.workerData(true), {
            log: this.log,
            // Another window holding the file is no failure: each read tries again.
            opened: (p) => (p.error ? gone(p.error) : resolve(thread)),
            lost: gone,
          });
        }),
      () => undefined,
    );
    return this.reader;
  }

  private async call<K extends LibraryOp>(op: K, params: ParamsOf<K>): Promise<ResultOf<K>> {
    if (this.failure) throw this.failure;
    let thread = this.writer;
    if (READS.has(op)) {
      const written = this.written;
      const reader = await this.readingThread();
      await written;
      if (this.failure) throw this.failure;
      if (reader) thread = reader;
    }
    const answer = this.send(thread, op, params);
    if (WRITES.has(op)) this.written = Promise.allSettled([this.written, answer]);
    return answer;
  }

  private async send<K extends LibraryOp>(thread: LibraryThread, op: K, params: ParamsOf<K>): Promise<ResultOf<K>> {
    try {
      const request = libraryCalls[op] as LibraryRequest<K>;
      const result = (await thread.channel.sendRequest(request, params)) as ResultOf<K> | null;
      // JSON-RPC answers "nothing" with null.
      return (result ?? undefined) as ResultOf<K>;
    } catch (e) {
      if (this.failure) throw this.failure;
      if (e instanceof ResponseError) {
        const why = (e.data ?? {}) as LibraryFailure;
        throw new LibraryUnavailable(e.message, why.tooNew, why.busy);
      }
      throw new LibraryUnavailable(e instanceof Error ? e.message : String(e));
    }
  }

  write(w: SessionWrite): Promise<void> {
    return this.call('write', w).then(
      () => {
        if (this.failingWrites) this.log('The session library saves again.');
        this.failingWrites = false;
      },
      (e: unknown) => {
        // A library that stopped or closed says so elsewhere. Another window holding the file is
        // no failure of the disk: logged; a session that missed the write loads from the agent.
        if (e instanceof LibraryUnavailable && e.busy) this.log(`A change was not kept: ${e.message}`);
        else if (!this.failure) this.writeRefused(e instanceof Error ? e.message : String(e));
        throw e;
      },
    );
  }

  private writeRefused(why: string): void {
    if (this.failingWrites) return;
    this.failingWrites = true;
    this.log(`The session library could not save a change (${why}); sessions it could not keep load from the agent.`);
    if (this.toldWriteFailed) return;
    this.toldWriteFailed = true;
    this.opts.writeFailed?.(
      `The session library could not save to disk (${why}). Chats go on as usual; ` +
        'a session it could not keep whole loads from its agent when opened again.',
    );
  }

  session(key: SessionKey): Promise<KeptSession | undefined> {
    return this.call('session', { agentId: key.agentId, sessionId: key.sessionId });
  }

  sessions(scope: Scope = {}): Promise<KeptSession[]> {
    return this.call('sessions', scope);
  }

  transcript(key: SessionKey): Promise<ThreadEntry[] | undefined> {
    return this.call('transcript', { agentId: key.agentId, sessionId: key.sessionId });
  }

  /** One kept entry of a session, by its index; undefined when it is not kept. */
  entry(key: SessionKey, index: number): Promise<ThreadEntry | undefined> {
    return this.call('entry', { agentId: key.agentId, sessionId: key.sessionId, index });
  }

  /** The sessions that hold the words, best first; with `filter`, only those it keeps. */
  search(text: string, scope: Scope = {}, limit = 50, filter?: SearchFilter): Promise<SearchHit[]> {
    return this.call('search', filter ? { text, scope, limit, filter } : { text, scope, limit });
  }

  /** Reads ahead what the first search reads: a search box opened. */
  warm(): Promise<void> {
    return this.call('warm', {});
  }

  touched(paths: string[], scope: Scope = {}): Promise<TouchedHit[]> {
    return this.call('touched', { paths, scope });
  }

  /** Kept sessions whose tool calls touched a file whose path holds `like` (a `file:` filter). */
  touchedLike(like: string, scope: Scope = {}): Promise<TouchedHit[]> {
    return this.call('touched', { paths: [], scope, like });
  }

  /** Keeps that `link.from` was continued in `link.to`. */
  link(link: SessionLink): Promise<void> {
    const key = (k: SessionKey) => ({ agentId: k.agentId, sessionId: k.sessionId });
    return this.call('link', { from: key(link.from), to: key(link.to) });
  }

  /** The sessions linked to `key`, either way. */
  links(key: SessionKey): Promise<LinkedSession[]> {
    return this.call('links', { agentId: key.agentId, sessionId: key.sessionId });
  }

  remove(key: SessionKey): Promise<void> {
    return this.call('remove', { agentId: key.agentId, sessionId: key.sessionId });
  }

  /**
   * Forgets every kept session and removes the copies of damaged files set aside; resolves with
   * how many of those went.
   */
  clear(): Promise<{ damagedCopies: number }> {
    return this.call('clear', {});
  }

  stats(): Promise<LibraryStats> {
    return this.call('stats', {});
  }

  setMaxBytes(maxBytes: number): Promise<void> {
    return this.call('setMaxBytes', { maxBytes });
  }

  /** Lets the workers finish what they were sent and close the file, then ends them. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const starting = this.reader;
      // No read starts another; one still starting is ended once it started.
      this.reader = Promise.resolve(undefined);
      const reader = await starting;
      const threads = reader ? [this.writer, reader] : [this.writer];
      if (!this.failure) {
        const closed = Promise.all(threads.map((t) => this.send(t, 'close', {}).catch(() => {})));
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
        clearTimeout(timer);
      }
      this.fail(new LibraryUnavailable('The session library is closed.'));
      await Promise.all(threads.map((t) => t.terminate()));
    })();
    return this.closing;
  }

  dispose(): void {
    void this.close();
  }
}
