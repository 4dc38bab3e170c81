import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { Logger } from '../agent/log';
import type { ListPage, ListSessions } from '../agent/types';
import { normalizePath } from '../platform/pathKey';
import { followCursor, logBarren, MAX_BARREN_PAGES } from './cursorRules';

/** Pages fetched from the first one on, before they replace (or merge into) a list's rows. */
export interface FirstPages {
  /** This folder's sessions, unique by id, in the agent's order. */
  readonly infos: SessionInfo[];
  readonly nextCursor: string | undefined;
  /** Cursors received on the way, to detect a loop later. */
  readonly seen: Set<string>;
  /** Paging stopped early (a cursor came back, or one that is not a string): why. */
  readonly notice?: string;
}

/**
 * Reads `session/list` pages for one (agent, folder): asks with `cwd` set, drops what is not
 * this folder (the agent's filter is not trusted), logs what was dropped, and fetches from the
 * first page on. What a cursor means is {@link CursorRules}'s business.
 */
export class FolderPager {
  private readonly folderKey: string;

  constructor(
    private readonly agentId: string,
    private readonly folder: string,
    private readonly list: ListSessions,
    private readonly logger: Logger,
  ) {
    this.folderKey = normalizePath(folder);
  }

  fetch(cursor: string | undefined, signal: AbortSignal): Promise<ListPage> {
    return this.list(cursor === undefined ? { cwd: this.folder } : { cwd: this.folder, cursor }, signal);
  }

  /** Whether a session's cwd is this folder; the raw compare spares a path lookup per row. */
  matches(cwd: unknown): boolean {
    return typeof cwd === 'string' && (cwd === this.folder || normalizePath(cwd) === this.folderKey);
  }

  /** The page's sessions of this folder. */
  inFolder(page: ListPage): SessionInfo[] {
    const out: SessionInfo[] = [];
    let foreign = 0;
    for (const info of page.sessions) {
      if (typeof info.sessionId === 'string' && this.matches(info.cwd)) out.push(info);
      else foreign++;
    }
    if (page.dropped > 0) {
      this.logger.warn(
        `${this.agentId}: session/list sent ${page.dropped} malformed sessions; showing the other ${page.sessions.length}`,
      );
    }
    if (foreign > 0) {
      this.logger.info(
        `${this.agentId}: dropped ${foreign} of ${page.sessions.length} listed sessions not in ${this.folder}`,
      );
    }
    this.logger.debug(
      `${this.agentId}: session/list page: ${out.length} sessions${page.nextCursor === undefined ? ', last page' : ''}`,
    );
    return out;
  }

  /**
   * Fetches from the first page, following pages that carry a cursor but no session of this
   * folder (agents that filter by cwd after paging), up to {@link MAX_BARREN_PAGES}; then the
   * cursor is kept so "Load more…" stays offered.
   */
  async fromStart(signal: AbortSignal): Promise<FirstPages> {
    const seen = new Set<string>();
    const ids = new Set<string>();
    const infos: SessionInfo[] = [];
    let cursor: string | undefined;
    let notice: string | undefined;
    for (let i = 0; i < MAX_BARREN_PAGES; i++) {
      const page = await this.fetch(cursor, signal);
      if (signal.aborted) break;
      for (const info of this.inFolder(page)) {
        if (!ids.has(info.sessionId)) {
          ids.add(info.sessionId);
          infos.push(info);
        }
      }
      const next = followCursor(page, seen, (m) => this.logger.warn(`${this.agentId}: ${m}`));
      cursor = next.cursor;
      notice ??= next.notice;
      if (infos.length > 0 || cursor === undefined) break;
      if (i === MAX_BARREN_PAGES - 1) logBarren(this.logger, this.agentId, MAX_BARREN_PAGES);
    }
    return { infos, nextCursor: cursor, seen, notice };
  }
}
