import type { SessionInfo, SessionInfoUpdate } from '@agentclientprotocol/sdk';
import type { Event } from '../base/event';
import { Emitter } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import { SingleFlight } from '../base/singleFlight';
import type { ProtocolError } from '../agent/errors';
import type { Logger } from '../agent/log';
import type { ListPage, ListSessions } from '../agent/types';
import type { SessionCache } from './cache';
import { CACHE_ROWS } from './cache';
import { CursorRules, isInvalidCursor, Notices } from './cursorRules';
import type { FirstPages } from './pager';
import { mergeFirstPage } from './mergePage';
import { FolderPager } from './pager';
import { RowStore } from './rowStore';
import type { SessionRow } from './rows';
import { applyUpdate, stripDerived, toRow } from './rows';

/** What a list is doing. In `error` the rows already shown stay; `SessionList.error` says why. */
export type SessionListState = 'idle' | 'loading' | 'loadingMore' | 'error';

/**
 * What changed, so a view refreshes only that: `reset` (the rows were replaced, inserted or
 * removed), `appended` (rows from index `from` on are new), `row` (one row changed in place),
 * `state` (state, error, notice or cursor only). Every kind may come with a new state.
 */
export type SessionListChange =
  | { readonly kind: 'reset' }
  | { readonly kind: 'appended'; readonly from: number }
  | { readonly kind: 'row'; readonly sessionId: string }
  | { readonly kind: 'state' };

export interface SessionListOptions {
  readonly agentId: string;
  /** The workspace folder's absolute path, sent as `cwd`. */
  readonly folder: string;
  readonly list: ListSessions;
  readonly logger: Logger;
  readonly cache?: SessionCache;
}

/**
 * The sessions of one agent in one folder, as `session/list` pages them: explicit paging state
 * (`items`, `nextCursor`, `state`) and a change event. The agent's order is kept; rows are
 * unique by `sessionId`; sessions whose `cwd` is another folder are dropped whatever the agent
 * filtered. No work per page grows with the number of rows already shown. What a cursor means
 * (a loop, a restart, a page with nothing new, a refused cursor) is {@link CursorRules}'s call.
 *
 * The methods that fetch never reject: failures land in `state`/`error`.
 */
export class SessionList implements IDisposable {
  readonly agentId: string;
  readonly folder: string;
  private readonly pager: FolderPager;
  private readonly rules: CursorRules;
  private readonly logger: Logger;
  private readonly cache: SessionCache | undefined;
  private readonly changed = new Emitter<SessionListChange>();
  /** Fires after every change, saying what changed. */
  readonly onDidChange: Event<SessionListChange> = this.changed.event;

  private readonly rows = new RowStore();
  /** Created in this window and not yet listed by the agent (which may list a session only
   * after its first prompt): kept on top when the list is replaced. */
  private readonly pinned = new Map<string, SessionRow>();
  private cursor: string | undefined;
  private current: SessionListState = 'idle';
  private lastError: unknown;
  private lastNotice: string | undefined;
  private cached = false;
  private hasLoaded = false;
  private failedOp: 'first' | 'more' | undefined;
  /** The first page being fetched, and the next page: one request of each at a time. */
  private readonly first = new SingleFlight();
  private readonly more = new SingleFlight();
  /** A re-read of the first page while the list is shown ({@link revalidate}). */
  private readonly fresh = new SingleFlight();
  private disposed = false;

  constructor(options: SessionListOptions) {
    this.agentId = options.agentId;
    this.folder = options.folder;
    this.logger = options.logger;
    this.pager = new FolderPager(options.agentId, options.folder, options.list, options.logger);
    this.rules = new CursorRules(options.agentId, options.logger);
    this.cache = options.cache;
    this.changed.onListenerError = (e) => this.logger.error(`session list listener failed: ${String(e)}`);
  }

  /** The rows in the agent's order (created-here rows first). Replaced on `reset`. */
  get items(): readonly SessionRow[] {
    return this.rows.rows;
  }
  /** The cursor for "Load more…"; `undefined` when the list is complete or paging stopped. */
  get nextCursor(): string | undefined {
    return this.cursor;
  }
  get state(): SessionListState {
    return this.current;
  }
  /** Why the last fetch failed, untouched (AgentExited, AuthRequired, ProtocolError…). */
  get error(): unknown {
    return this.lastError;
  }
  /** A sentence for the user when paging ended early or started over. */
  get notice(): string | undefined {
    return this.lastNotice;
  }
  /** The rows come from the cache; the agent has not answered yet. */
  get fromCache(): boolean {
    return this.cached;
  }
  /** The agent has answered a first page at least once. */
  get loaded(): boolean {
    return this.hasLoaded;
  }

  get(sessionId: string): SessionRow | undefined {
    return this.rows.get(sessionId);
  }

  /**
   * Shows the cached rows at once (first time only), then fetches the first page and replaces
   * the rows with it. Concurrent calls share one request.
   */
  loadFirstPage(): Promise<void> {
    return this.startFirst(false);
  }

  /**
   * The agent's process was replaced: the old one's cursors mean nothing to the new one.
   * Abandons whatever was under way and fetches the first page again; rows already shown stay
   * below it (as after an invalid cursor) and paging goes on from the new process's cursor.
   */
  reload(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.first.cancel();
    this.cursor = undefined;
    this.lastNotice = undefined;
    return this.startFirst(this.hasLoaded);
  }

  private startFirst(keepRows: boolean): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.first.current) return this.first.current;
    this.more.cancel();
    this.fresh.cancel();
    if (!this.hasLoaded && this.rows.size === 0) this.showCached();
    this.setState('loading');
    return this.first.start((signal) => this.runFirst(signal, keepRows));
  }

  /** Fetches the first page unless the agent already answered one. */
  ensureLoaded(): Promise<void> {
    return this.hasLoaded && !this.first.current ? Promise.resolve() : this.loadFirstPage();
  }

  /** Fetches the next page and appends it. A no-op without a cursor; concurrent calls share. */
  loadMore(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    const under = this.first.current ?? this.more.current;
    if (under) return under;
    if (this.cursor === undefined) return Promise.resolve();
    this.setState('loadingMore');
    return this.more.start((signal) => this.runMore(signal));
  }

  /** The user asked for a fresh list: stops paging and fetches the first page again. */
  refresh(): Promise<void> {
    this.lastNotice = undefined;
    return this.loadFirstPage();
  }

  /** Reads the first page again so a shown list stays fresh ({@link mergeFirstPage}); on a loaded, idle list. */
  revalidate(): Promise<void> {
    const busy = this.disposed || !this.hasLoaded || this.current !== 'idle' || this.first.current || this.more.current;
    return busy ? Promise.resolve() : (this.fresh.current ?? this.fresh.start((signal) => this.runFresh(signal)));
  }

  /** Repeats what failed: the next page when that failed, else the first page. */
  retry(): Promise<void> {
    return this.failedOp === 'more' ? this.loadMore() : this.loadFirstPage();
  }

  /** A `session_info_update`: the row changes in place, nothing is fetched. Unknown ids are ignored. */
  applyInfoUpdate(sessionId: string, update: SessionInfoUpdate): void {
    const row = this.rows.get(sessionId);
    if (!row || this.disposed) return;
    const next = applyUpdate(row, update);
    if (!next) return;
    const index = this.replaceRow(next);
    this.changed.fire({ kind: 'row', sessionId });
    if (index < CACHE_ROWS) this.saveCache();
  }

  /** A session created in this window: on top at once, and no duplicate once the agent lists it. */
  addCreated(session: SessionInfo): void {
    if (this.disposed) return;
    if (!this.pager.matches(session.cwd)) {
      this.logger.warn(
        `${this.agentId}: created session ${session.sessionId} is not in ${this.folder}; not listed here`,
      );
      return;
    }
    const existing = this.rows.get(session.sessionId);
    if (existing) {
      this.applyInfoUpdate(session.sessionId, { title: session.title, updatedAt: session.updatedAt });
      return;
    }
    const row = toRow(session);
    this.pinned.set(row.sessionId, row);
    this.rows.prepend(row);
    this.changed.fire({ kind: 'reset' });
    this.saveCache();
  }

  /** Forgets a session (after `session/delete`). */
  remove(sessionId: string): void {
    if (this.disposed || !this.rows.remove(sessionId)) return;
    this.pinned.delete(sessionId);
    this.changed.fire({ kind: 'reset' });
    this.saveCache();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const flight of [this.first, this.more, this.fresh]) flight.cancel();
    this.changed.dispose();
  }

  private async runFirst(signal: AbortSignal, keepRows: boolean): Promise<void> {
    try {
      const got = await this.pager.fromStart(signal);
      if (signal.aborted) return;
      this.hasLoaded = true;
      this.cached = false;
      if (keepRows) return this.restartWith(got, got.notice);
      this.replaceWith(got);
      this.lastNotice = got.notice;
      this.succeed({ kind: 'reset' });
      this.saveCache();
    } catch (e) {
      if (!signal.aborted) this.fail('first', e);
    }
  }

  /** No "Loading…" and no error row: a failed re-read is logged and the rows stay. */
  private async runFresh(signal: AbortSignal): Promise<void> {
    const got = await this.pager.fromStart(signal).catch((e: unknown) => {
      if (!signal.aborted) this.logger.warn(`${this.agentId}: re-reading the first page failed: ${String(e)}`);
    });
    if (!got || signal.aborted) return;
    for (const info of got.infos) this.pinned.delete(info.sessionId);
    const merged = mergeFirstPage(this.rows.rows, got.infos);
    if (!merged) return;
    this.rows.reset(merged.rows);
    const one = merged.added === 0 && merged.changed.length === 1;
    this.changed.fire(one ? { kind: 'row', sessionId: merged.changed[0]! } : { kind: 'reset' });
    this.saveCache();
  }

  private async runMore(signal: AbortSignal): Promise<void> {
    try {
      this.rules.beginRun();
      for (let cursor = this.cursor; cursor !== undefined;) {
        let page: ListPage;
        try {
          page = await this.pager.fetch(cursor, signal);
        } catch (e) {
          if (signal.aborted || !isInvalidCursor(e)) throw e;
          // Agents answer a stale cursor with -32602 or -32603: start over, lose nothing shown.
          this.logger.warn(
            `${this.agentId}: session/list rejected the cursor (${(e as ProtocolError).code}); starting again from the first page`,
          );
          const got = await this.pager.fromStart(signal);
          if (!signal.aborted) this.restartWith(got, Notices.cursorRejected);
          return;
        }
        if (signal.aborted) return;
        const infos = this.pager.inFolder(page);
        const from = this.rows.size;
        const added = this.take(infos);
        const verdict = this.rules.judge(page, { firstId: infos[0]?.sessionId, count: infos.length, added });
        if (verdict.kind === 'startOver') {
          this.restartWith(
            { infos, nextCursor: verdict.cursor, seen: new Set([verdict.cursor]) },
            Notices.cursorRejected,
          );
          return;
        }
        if (verdict.kind === 'stop') {
          this.cursor = undefined;
          this.lastNotice = verdict.notice;
          this.succeed({ kind: 'state' });
          return;
        }
        this.cursor = verdict.cursor;
        if (verdict.notice) this.lastNotice = verdict.notice;
        if (verdict.kind === 'append') {
          this.succeed(this.rows.size > from ? { kind: 'appended', from } : { kind: 'state' });
          if (from < CACHE_ROWS) this.saveCache();
          return;
        }
        cursor = verdict.again ? verdict.cursor : undefined;
      }
      this.succeed({ kind: 'state' });
    } catch (e) {
      if (!signal.aborted) this.fail('more', e);
    }
  }

  /** Appends a page's rows not shown yet; a created-here row the agent lists at last takes its data. How many it took. */
  private take(infos: readonly SessionInfo[]): number {
    let added = 0;
    for (const info of infos) {
      if (this.pinned.has(info.sessionId)) {
        // Listed at last: it stays where it is, with the agent's data.
        this.pinned.delete(info.sessionId);
        this.replaceRow(toRow(info));
        this.changed.fire({ kind: 'row', sessionId: info.sessionId });
        added++;
      } else if (!this.rows.has(info.sessionId)) {
        this.rows.append(toRow(info));
        added++;
      }
    }
    return added;
  }

  /** Replaces the rows with a fresh first page; created-here rows the agent does not list yet stay on top. */
  private replaceWith(got: FirstPages): void {
    const listed = new Set(got.infos.map((i) => i.sessionId));
    const rows: SessionRow[] = [];
    for (const row of [...this.pinned.values()].reverse()) {
      if (listed.has(row.sessionId)) this.pinned.delete(row.sessionId);
      else rows.push(row);
    }
    for (const info of got.infos) rows.push(toRow(info));
    this.rows.reset(rows);
    this.cursor = got.nextCursor;
    this.rules.fresh(got.infos[0]?.sessionId, got.seen);
  }

  /**
   * Starting over after the agent dropped the cursor (or its process). Deterministic merge: the
   * fresh first page, then every row shown before that it does not contain, in the order they
   * were shown. Paging goes on from the fresh page's cursor, skipping rows already shown.
   */
  private restartWith(got: FirstPages, notice: string | undefined): void {
    const before = this.rows.rows;
    this.replaceWith(got);
    for (const row of before) if (!this.rows.has(row.sessionId)) this.rows.append(row);
    this.rules.restarted(got.infos[0]?.sessionId, got.seen);
    this.lastNotice = notice ?? got.notice;
    this.succeed({ kind: 'reset' });
    this.saveCache();
  }

  private showCached(): void {
    if (!this.cache) return;
    const infos = this.cache.read(this.agentId, this.folder).filter((i) => this.pager.matches(i.cwd));
    if (infos.length === 0) return;
    this.rows.reset(infos.map(toRow));
    this.cached = true;
    this.changed.fire({ kind: 'reset' });
  }

  private replaceRow(row: SessionRow): number {
    const index = this.rows.replace(row);
    if (this.pinned.has(row.sessionId)) this.pinned.set(row.sessionId, row);
    return index;
  }

  private setState(state: SessionListState): void {
    this.current = state;
    this.lastError = undefined;
    this.changed.fire({ kind: 'state' });
  }

  private succeed(change: SessionListChange): void {
    this.current = 'idle';
    this.lastError = undefined;
    this.failedOp = undefined;
    this.changed.fire(change);
  }

  private fail(op: 'first' | 'more', error: unknown): void {
    this.current = 'error';
    this.lastError = error;
    this.failedOp = op;
    this.logger.warn(`${this.agentId}: session/list failed: ${error instanceof Error ? error.message : String(error)}`);
    this.changed.fire({ kind: 'state' });
  }

  private saveCache(): void {
    this.cache?.save(this.agentId, this.folder, this.rows.rows.slice(0, CACHE_ROWS).map(stripDerived));
  }
}
