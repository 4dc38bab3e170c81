/**
 * The session library as the extension host sees it: an asynchronous front for the store, which
 * runs in a worker thread. Nothing here blocks: writes are posted and searched text comes back
 * as a promise. When the library cannot open (a newer extension's file, a broken disk) every
 * call fails with that reason, and callers go on without it.
 */
import { Worker } from 'node:worker_threads';
import type { IDisposable } from '../base/lifecycle';
import type { ThreadEntry } from '../protocol/entries';
import type { KeptSession, LibraryStats, Scope, SearchHit, SessionKey, SessionWrite, TouchedHit } from './types';
import type { LibraryCalls, LibraryOp, LibraryReply, LibraryWorkerData } from './workerProtocol';

export interface LibraryOptions {
  /** The bundled worker script (`dist/libraryWorker.js`). */
  workerPath: string;
  /** The extension's global storage directory. */
  dir: string;
  maxBytes: number;
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
  ) {
    super(message);
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

export class Library implements IDisposable {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: LibraryUnavailable | undefined;
  private closing: Promise<void> | undefined;
  /** Writes are failing now (logged once per run of failures). */
  private failingWrites = false;
  private toldWriteFailed = false;
  /** Resolves once the store opened, or rejects with why it could not. */
  readonly ready: Promise<void>;

  private readonly log: (message: string) => void;

  constructor(private readonly opts: LibraryOptions) {
    const log = (this.log = opts.log ?? (() => {}));
    const data: LibraryWorkerData = { dir: opts.dir, maxBytes: opts.maxBytes };
    this.worker = new Worker(opts.workerPath, { workerData: data });
    let opened: (error?: LibraryUnavailable) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => {
      opened = (error) => (error ? reject(error) : resolve());
    });
    // A caller that never awaits `ready` still sees the failure through its calls.
    this.ready.catch(() => {});
    this.worker.on('message', (m: LibraryReply) => {
      if ('log' in m) return log(m.log);
      if ('ready' in m) {
        if (m.error) this.fail(new LibraryUnavailable(m.error, m.tooNew));
        return opened(this.failure);
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new LibraryUnavailable(m.message, m.tooNew));
    });
    const lost = (why: string) => {
      const error = new LibraryUnavailable(`The session library stopped: ${why}`);
      this.fail(error);
      opened(error);
    };
    this.worker.on('error', (e) => {
      log(`The session library failed: ${e.message}`);
      lost(e.message);
    });
    this.worker.on('exit', (code) => lost(`its worker exited (${code})`));
  }

  /** Whether calls can still succeed. */
  get available(): boolean {
    return this.failure === undefined;
  }

  private fail(error: LibraryUnavailable): void {
    this.failure ??= error;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
  }

  private call<K extends LibraryOp>(op: K, params: LibraryCalls[K]['params']): Promise<LibraryCalls[K]['result']> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, op, params });
    });
  }

  write(w: SessionWrite): Promise<void> {
    return this.call('write', w).then(
      () => {
        if (this.failingWrites) this.log('The session library saves again.');
        this.failingWrites = false;
      },
      (e: unknown) => {
        // A library that stopped or closed says so elsewhere; this is a write the file refused.
        if (!this.failure) this.writeRefused(e instanceof Error ? e.message : String(e));
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

  search(text: string, scope: Scope = {}, limit = 50): Promise<SearchHit[]> {
    return this.call('search', { text, scope, limit });
  }

  touched(paths: string[], scope: Scope = {}): Promise<TouchedHit[]> {
    return this.call('touched', { paths, scope });
  }

  remove(key: SessionKey): Promise<void> {
    return this.call('remove', { agentId: key.agentId, sessionId: key.sessionId });
  }

  clear(): Promise<void> {
    return this.call('clear', {});
  }

  stats(): Promise<LibraryStats> {
    return this.call('stats', {});
  }

  setMaxBytes(maxBytes: number): Promise<void> {
    return this.call('setMaxBytes', { maxBytes });
  }

  /** Lets the worker finish what it was sent and close the file, then ends it. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.failure) {
        const closed = this.call('close', {}).catch(() => {});
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
        clearTimeout(timer);
      }
      this.fail(new LibraryUnavailable('The session library is closed.'));
      await this.worker.terminate();
    })();
    return this.closing;
  }

  dispose(): void {
    void this.close();
  }
}
