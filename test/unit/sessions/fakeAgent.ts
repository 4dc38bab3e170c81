import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { ListPage, ListSessions } from '../../../src/agent/types';

/** One recorded `session/list` call. */
export interface ListCall {
  readonly cwd: string;
  readonly cursor: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A page answer, an error to throw, or a function of the call. */
export type Answer = ListPage | Error | ((call: ListCall) => ListPage | Error | Promise<ListPage>);

/**
 * A scripted `session/list`: answers by cursor (`''` is the first page). Unknown cursors get
 * `fallback`, or an error naming the cursor.
 */
export class FakeAgent {
  readonly calls: ListCall[] = [];
  constructor(
    public pages: Record<string, Answer>,
    public fallback?: Answer,
  ) {}

  readonly list: ListSessions = async (params, signal) => {
    const call = { cwd: params.cwd, cursor: params.cursor, signal };
    this.calls.push(call);
    const answer = this.pages[params.cursor ?? ''] ?? this.fallback;
    if (answer === undefined) throw new Error(`no page for cursor ${params.cursor}`);
    const result = typeof answer === 'function' ? await answer(call) : answer;
    if (result instanceof Error) throw result;
    return result;
  };
}

export function session(id: string, cwd: string, extra: Partial<SessionInfo> = {}): SessionInfo {
  return { sessionId: id, cwd, title: `Title ${id}`, updatedAt: '2025-10-29T14:22:15Z', ...extra };
}

export function page(sessions: SessionInfo[], nextCursor?: string, dropped = 0): ListPage {
  return { sessions, nextCursor, dropped };
}

/** `count` sessions named `${prefix}${i}`. */
export function sessions(prefix: string, count: number, cwd: string): SessionInfo[] {
  return Array.from({ length: count }, (_, i) => session(`${prefix}${i}`, cwd));
}

/** A promise with its resolvers outside, to hold an answer back. */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
