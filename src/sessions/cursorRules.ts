import { ErrorCodes, ProtocolError } from '../agent/errors';
import type { Logger } from '../agent/log';
import type { ListPage } from '../agent/types';

/** Why paging stopped early or started over, in words for the user (shown as a notice row). */
export const Notices = {
  cursorLoop: 'The agent sent the same page cursor twice; paging stopped.',
  badCursor: 'The agent sent a page cursor that is not a string; paging stopped.',
  repeatedPage: 'The agent repeated a page; paging stopped.',
  cursorRejected: 'The list was refreshed: the agent no longer accepted the page cursor.',
} as const;

/** Pages in a row that may bring nothing new before paging waits for the user again. */
export const MAX_BARREN_PAGES = 10;

/** The cursor to follow after a page; `notice` when paging stops early and why. */
export interface Followed {
  readonly cursor: string | undefined;
  readonly notice?: string;
}

/**
 * The cursor to follow: none at the end, none when it was received before (a loop: `seen`
 * holds the cursors received since the first page, and takes this one), and none when it was
 * unusable (not a string: the rows of its page are kept, paging stops).
 */
export function followCursor(page: ListPage, seen: Set<string>, warn: (message: string) => void): Followed {
  if (page.badCursor) {
    warn('session/list sent a cursor that is not a string; paging stopped');
    return { cursor: undefined, notice: Notices.badCursor };
  }
  const next = page.nextCursor;
  if (next === undefined) return { cursor: undefined };
  if (seen.has(next)) {
    warn('session/list sent a cursor it had sent before; paging stopped');
    return { cursor: undefined, notice: Notices.cursorLoop };
  }
  seen.add(next);
  return { cursor: next };
}

/**
 * Agents reject a stale cursor with -32602, or with -32603 naming the cursor (Codex: "invalid
 * cursor" in `data`). Any other internal error is a failure to show, not a reason to start over.
 */
export function isInvalidCursor(e: unknown): boolean {
  if (!(e instanceof ProtocolError)) return false;
  if (e.code === ErrorCodes.InvalidParams) return true;
  if (e.code !== ErrorCodes.InternalError) return false;
  let data = '';
  try {
    data = typeof e.data === 'string' ? e.data : (JSON.stringify(e.data) ?? '');
  } catch {
    // Unserialisable data says nothing about the cursor.
  }
  return /cursor/i.test(e.message) || /cursor/i.test(data.slice(0, 2000));
}

/** What a page fetched with a cursor brought, as the list saw it. */
export interface PageFacts {
  /** The first of the page's sessions in this folder. */
  readonly firstId: string | undefined;
  /** The page's sessions in this folder. */
  readonly count: number;
  /** How many of them the list did not show yet (or showed only as created here). */
  readonly added: number;
}

/** What the list does with a page it fetched with a cursor. */
export type PageVerdict =
  /** New rows: they were appended; "Load more…" goes on from `cursor`. */
  | { readonly kind: 'append'; readonly cursor: string | undefined; readonly notice?: string }
  /** The agent answered the cursor with its first page again: start over from that page. */
  | { readonly kind: 'startOver'; readonly cursor: string }
  /** Only rows already shown: the agent ignores the cursor. Paging stops, never spins. */
  | { readonly kind: 'stop'; readonly notice: string }
  /**
   * Nothing new (an empty page, other folders' sessions, or rows skipped after a restart): fetch
   * `cursor` at once while `again`, else wait for the user (the barren-page budget is spent).
   */
  | { readonly kind: 'barren'; readonly cursor: string | undefined; readonly notice?: string; readonly again: boolean };

/**
 * The rules one list pages by, apart from the rows: what a repeated cursor means, how an agent
 * starting over from its first page is recognised, how many pages in a row may bring nothing
 * before paging waits, and (with {@link isInvalidCursor}) when a refused cursor means start over.
 */
export class CursorRules {
  /** Cursors received since the first page: one coming back means the agent loops. */
  private seen = new Set<string>();
  /** The first session of the last first page, to recognise an agent starting over. */
  private headId: string | undefined;
  /** After a restart the next pages repeat rows already shown: skip them instead of stopping. */
  private catchingUp = false;
  /** Some page after the first added rows since the last fresh first page. */
  private pastFirstPage = false;
  /** Pages in a row of this "Load more" that brought nothing. */
  private barren = 0;

  constructor(
    private readonly agentId: string,
    private readonly logger: Logger,
  ) {}

  /** A fresh first page replaced the rows; `seen` are the cursors received on the way to it. */
  fresh(firstId: string | undefined, seen: Set<string>): void {
    this.seen = seen;
    this.headId = firstId;
    this.catchingUp = false;
    this.pastFirstPage = false;
  }

  /** The rows shown before stay under a fresh first page: pages after it repeat some of them. */
  restarted(firstId: string | undefined, seen: Set<string>): void {
    this.fresh(firstId, seen);
    this.catchingUp = true;
  }

  /** A "Load more" begins: the barren-page budget is whole again. */
  beginRun(): void {
    this.barren = 0;
  }

  /** What to do with a page fetched with a cursor (its new rows already taken). */
  judge(page: ListPage, facts: PageFacts): PageVerdict {
    const raw = page.nextCursor;
    const backAtTop = facts.count > 0 && facts.firstId === this.headId;
    // An agent that treats an unknown cursor as "start again" sends the first page. A cursor
    // already seen is no loop here when paging had got past the first page: an agent that
    // ignores cursors never gets past page one.
    if (
      facts.added === 0 &&
      !this.catchingUp &&
      backAtTop &&
      raw !== undefined &&
      (this.pastFirstPage || !this.seen.has(raw))
    ) {
      this.warn('session/list answered a cursor with the first page again; starting over');
      return { kind: 'startOver', cursor: raw };
    }
    const next = followCursor(page, this.seen, (m) => this.warn(m));
    if (facts.added > 0) {
      this.catchingUp = false;
      this.pastFirstPage = true;
      return { kind: 'append', ...next };
    }
    if (facts.count > 0 && (!this.catchingUp || backAtTop)) {
      // Every row is one already shown: the agent ignores the cursor.
      this.warn('session/list repeated rows already shown; paging stopped');
      return { kind: 'stop', notice: Notices.repeatedPage };
    }
    const again = next.cursor !== undefined && ++this.barren < MAX_BARREN_PAGES;
    if (next.cursor !== undefined && !again) logBarren(this.logger, this.agentId, this.barren);
    return { kind: 'barren', ...next, again };
  }

  private warn(message: string): void {
    this.logger.warn(`${this.agentId}: ${message}`);
  }
}

/** Paging waits for "Load more" after `pages` pages in a row that brought nothing. */
export function logBarren(logger: Logger, agentId: string, pages: number): void {
  logger.info(`${agentId}: ${pages} pages in a row brought no new sessions; waiting for "Load more"`);
}
