// session/list with cursor paging, and the ways real agents get paging wrong (see DESIGN.md, "Real
// agents differ"). Cursors are keyset positions (updatedAt, sessionId), so a page is found by a
// binary search and stays correct when sessions are added or deleted between pages.
import { isAbsolute } from 'node:path';
import {
  type ListSessionsRequest,
  type ListSessionsResponse,
  RequestError,
  type SessionInfo,
} from '@agentclientprotocol/sdk/unstable';
import { hostileTitle } from './content';
import type { ServeOptions } from './options';
import type { IndexEntry, SessionStore, SortKey } from './store';

export function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify({ v: 1, u: key.updatedAt, i: key.sessionId })).toString('base64url');
}

/** The key in a cursor, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): SortKey | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      v?: unknown;
      u?: unknown;
      i?: unknown;
    };
    if (parsed.v !== 1 || typeof parsed.u !== 'string' || typeof parsed.i !== 'string') return undefined;
    return { updatedAt: parsed.u, sessionId: parsed.i };
  } catch {
    return undefined;
  }
}

function overrideTitle(mode: NonNullable<ServeOptions['titles']>, entry: IndexEntry, index: number): string | null {
  switch (mode) {
    case 'null':
      return null;
    case 'empty':
      return '';
    case 'long':
      return `${entry.title ?? 'A long title'} `.repeat(60).slice(0, 500);
    case 'multiline':
      return `${entry.title ?? 'Untitled'}\nline two of the title\r\nline three\n\nline five`;
    case 'hostile':
      return hostileTitle(index);
  }
}

function toInfo(entry: IndexEntry, options: ServeOptions, index: number): SessionInfo {
  const info: SessionInfo = {
    sessionId: entry.sessionId,
    cwd: entry.cwd,
    title: options.titles ? overrideTitle(options.titles, entry, index) : entry.title,
    updatedAt: entry.updatedAt,
    _meta: { messageCount: entry.turns * 2, ...entry.meta },
  };
  if (entry.additionalDirectories?.length) info.additionalDirectories = entry.additionalDirectories;
  // "Agents that advertise the archive capability MUST include it on every listed session."
  if (!options.without.has('archive')) info.archived = entry.archived === true;
  return info;
}

/** A probe: does a filter keep sessions that are not archived? */
const UNARCHIVED = { archived: false } as IndexEntry;

/**
 * Which archive states a request lists. An agent without the capability knows no filter (a
 * stable agent's parser drops the field), so it lists everything but what it archived
 * itself — nothing, as it cannot archive.
 */
function archiveFilter(params: ListSessionsRequest, options: ServeOptions): (e: IndexEntry) => boolean {
  if (options.without.has('archive')) return () => true;
  const filter = params.archived ?? 'exclude';
  switch (filter) {
    case 'exclude':
      return (e) => e.archived !== true;
    case 'only':
      return (e) => e.archived === true;
    case 'include':
      return () => true;
    default:
      // "An Agent MUST return -32602 for a value it does not support."
      throw RequestError.invalidParams({ archived: filter }, 'unknown archived filter');
  }
}

/** Entries of the wrong shape, as some adapters send; typed loosely on purpose. */
function badShapes(): SessionInfo[] {
  return [
    { sessionId: 12345, cwd: '/tmp/bad-shape', title: 'numeric sessionId' },
    { sessionId: 'sess_badshape_relative', cwd: 'relative/path', title: 'relative cwd' },
    { sessionId: 'sess_badshape_title', cwd: '/tmp/bad-shape', title: { text: 'an object' }, updatedAt: 'not a date' },
    { sessionId: 'sess_badshape_nocwd', title: 'missing cwd' },
    null,
  ] as unknown as SessionInfo[];
}

export class SessionLister {
  private hugeSent = false;
  private pagesAnswered = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly options: ServeOptions,
  ) {}

  list(params: ListSessionsRequest): ListSessionsResponse {
    const { options, store } = this;
    store.refresh();
    const cwd = params.cwd ?? undefined;
    if (cwd !== undefined && !isAbsolute(cwd)) {
      throw RequestError.invalidParams({ cwd }, 'cwd must be an absolute path');
    }
    if (params.cursor != null && options.listFailAfter !== undefined && this.pagesAnswered >= options.listFailAfter) {
      throw new RequestError(-32010, 'Session store unavailable');
    }
    this.pagesAnswered++;
    let after: SortKey | undefined;
    if (params.cursor != null && !options.ignoreCursor) {
      after = decodeCursor(params.cursor);
      if (!after) {
        if (options.invalidCursorCode === 'restart') {
          process.stderr.write('reference agent: invalid cursor, starting again from the first page\n');
        } else {
          throw new RequestError(options.invalidCursorCode, 'Invalid cursor', { cursor: params.cursor });
        }
      }
    }
    // Filtering after paging (--empty-pages) walks the whole store, like adapters that read their
    // session files in order and only then drop other projects' sessions.
    const all = options.emptyPages ? store.sorted() : store.sorted(cwd);
    // The archive filter "applies before pagination"; a store with nothing archived needs no copy.
    const keep = archiveFilter(params, options);
    const source = all.some((e) => e.archived === true) || !keep(UNARCHIVED) ? all.filter(keep) : all;
    const page = store.page(source, after, options.pageSize);
    let entries = page.items;
    if (options.emptyPages && cwd !== undefined) entries = entries.filter((e) => e.cwd === cwd);
    if (options.hideEmpty) entries = entries.filter((e) => e.turns > 0);
    const sessions = entries.map((e, i) => toInfo(e, options, i));
    if (options.badListShapes) sessions.splice(Math.min(1, sessions.length), 0, ...badShapes());

    let nextCursor: string | undefined;
    const last = page.items.at(-1);
    if (options.repeatCursor) {
      // Always the cursor after the first page: the client must notice it has seen it before.
      const first = store.page(source, undefined, options.pageSize).items.at(-1);
      nextCursor = encodeCursor(first ?? { updatedAt: '9999', sessionId: '' });
    } else if (options.ignoreCursor) {
      nextCursor = encodeCursor(last ?? { updatedAt: '9999', sessionId: '' });
    } else if (page.more && last) {
      nextCursor = encodeCursor(last);
    }
    const response: ListSessionsResponse = { sessions };
    if (options.echoKey) response._meta = { echo: `key ${process.env.ACP_REF_KEY ?? ''}` };
    // Long enough to be cut in the trace, the key all along it: no cut may leave a piece visible.
    if (options.echoKeyRoutes) response._meta = { many: `${process.env.ACP_REF_KEY ?? ''} `.repeat(2500) };
    if (nextCursor !== undefined) response.nextCursor = nextCursor;
    if (options.hugeMessage && !this.hugeSent) {
      this.hugeSent = true;
      // Over the SDK's 32 MiB default limit: the client must fail cleanly, not hang or crash.
      response._meta = { padding: 'x'.repeat(33 * 1024 * 1024 + 4096) };
    }
    return response;
  }
}
