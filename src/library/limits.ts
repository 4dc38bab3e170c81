/**
 * How much of a session's fields the library keeps: each has a size (agents send what they
 * like; twenty 10 MB titles once made every search keystroke take seconds and carry hundreds of
 * megabytes to the extension host). A title is kept as the Sessions view shows it (the chats'
 * side cuts it so; here a hard cap stands behind that), a time as a time; a session whose id or
 * folder is longer than any real one is not kept at all. Entries have theirs in `keep.ts`.
 */
import type { SessionWrite } from './types';

/** UTF-16 units of a title kept: the view shows 200 code points at most. */
export const MAX_TITLE_UNITS = 1_000;
/** Characters of an `updatedAt` kept (an ISO time takes under 40). */
export const MAX_TIME = 64;
/** An agent's or a session's id longer than this is not kept. */
export const MAX_KEY = 1_024;
/** A folder longer than this is not kept (no file system has longer paths). */
export const MAX_CWD = 4_096;

/** The start of a value too long to keep, for the log. */
const start = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** The write with its session's fields within their sizes, or why the session is not kept. */
export function boundWrite(w: SessionWrite): SessionWrite | string {
  if (w.agentId.length > MAX_KEY || w.sessionId.length > MAX_KEY)
    return `A session whose id is over ${MAX_KEY} characters (${start(w.sessionId)}) is not kept in the library.`;
  if (w.cwd.length > MAX_CWD)
    return `A session whose folder is over ${MAX_CWD} characters (${start(w.cwd)}) is not kept in the library.`;
  const title = w.info?.title;
  const time = w.info?.updatedAt;
  if (
    !(typeof title === 'string' && title.length > MAX_TITLE_UNITS) &&
    !(typeof time === 'string' && time.length > MAX_TIME)
  )
    return w;
  const info = { ...w.info };
  if (typeof title === 'string' && title.length > MAX_TITLE_UNITS)
    info.title = `${title.slice(0, MAX_TITLE_UNITS - 1)}…`;
  if (typeof time === 'string' && time.length > MAX_TIME) info.updatedAt = time.slice(0, MAX_TIME);
  return { ...w, info };
}
