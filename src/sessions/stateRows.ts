import { AuthRequired, CannotList } from '../agent/errors';
import type { SessionListState } from './sessionList';

/**
 * A row that says where a list is rather than showing a session. The Sessions tree and Resume
 * Session each draw them their own way; which rows there are is decided here, once.
 */
export type StateRow =
  /** The agent does not list sessions at all: the only row, with New Session. */
  | { readonly kind: 'cannotList' }
  /** The agent asks the user to sign in before it lists. */
  | { readonly kind: 'signIn' }
  /** Paging ended early or started over: why (below the rows it did list). */
  | { readonly kind: 'notice'; readonly text: string }
  /** A first page with nothing to show yet (`more: false`), or a further page. */
  | { readonly kind: 'loading'; readonly more: boolean }
  /** The last fetch failed (not for want of sign-in): Retry. */
  | { readonly kind: 'error'; readonly error: unknown }
  /** The agent has more: "Load more…". */
  | { readonly kind: 'loadMore' }
  /** The agent answered and lists nothing in this folder. */
  | { readonly kind: 'empty' };

/** What the rows depend on: a `SessionList` is one. */
export interface ListStatus {
  readonly state: SessionListState;
  readonly error: unknown;
  readonly notice: string | undefined;
  readonly nextCursor: string | undefined;
  readonly items: { readonly length: number };
  readonly loaded: boolean;
}

/**
 * The state rows of one list, in the order they go under its session rows: a notice first, then
 * at most one of loading, sign in, error, load more or empty. An agent that cannot list has
 * that one row and nothing else.
 */
export function stateRows(list: ListStatus): StateRow[] {
  if (list.state === 'error' && list.error instanceof CannotList) return [{ kind: 'cannotList' }];
  const out: StateRow[] = [];
  if (list.notice) out.push({ kind: 'notice', text: list.notice });
  if (list.state === 'loading' && list.items.length === 0) out.push({ kind: 'loading', more: false });
  else if (list.state === 'loadingMore') out.push({ kind: 'loading', more: true });
  else if (list.state === 'error')
    out.push(list.error instanceof AuthRequired ? { kind: 'signIn' } : { kind: 'error', error: list.error });
  else if (list.nextCursor !== undefined) out.push({ kind: 'loadMore' });
  else if (list.items.length === 0 && list.loaded && list.state === 'idle') out.push({ kind: 'empty' });
  return out;
}
