import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { ListPage } from '../agent/types';

/** Pages asked for before giving up: a session just opened or continued lists near the top. */
const MAX_PAGES = 3;

/**
 * A session as the agent lists it now, asked of the agent itself rather than of a list shown
 * earlier (whose row may predate a load that moved the session's `updatedAt`). Undefined when
 * the agent does not list it in the first pages.
 */
export async function agentListed(
  list: (params: { cwd: string; cursor?: string }) => Promise<ListPage>,
  cwd: string,
  sessionId: string,
  maxPages = MAX_PAGES,
): Promise<SessionInfo | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const got = await list(cursor === undefined ? { cwd } : { cwd, cursor });
    const found = got.sessions.find((s) => s.sessionId === sessionId);
    if (found) return found;
    cursor = got.nextCursor;
    if (cursor === undefined) return undefined;
  }
  return undefined;
}
