import * as assert from 'node:assert/strict';
import { AgentExited, AuthRequired, CannotList, ProtocolError } from '../../../src/agent/errors';
import { stateRows, type ListStatus, type StateRow } from '../../../src/sessions/stateRows';

const list = (over: Partial<ListStatus> & { count?: number }): ListStatus => ({
  state: 'idle',
  error: undefined,
  notice: undefined,
  nextCursor: undefined,
  loaded: true,
  ...over,
  items: { length: over.count ?? 0 },
});

const failure = new ProtocolError('A', 'session/list', 'store unavailable', -32603);
const exited = new AgentExited('A', 1, null, '');

// One table for both views: the Sessions tree and Resume Session draw exactly these rows.
const cases: [string, ListStatus, StateRow[]][] = [
  [
    'an agent that cannot list: that row alone',
    list({ state: 'error', error: new CannotList('A'), notice: 'n' }),
    [{ kind: 'cannotList' }],
  ],
  [
    'sign-in wanted: a sign-in row, not an error',
    list({ state: 'error', error: new AuthRequired('A', '') }),
    [{ kind: 'signIn' }],
  ],
  [
    'a failure keeps its error for the words',
    list({ state: 'error', error: failure, count: 3 }),
    [{ kind: 'error', error: failure }],
  ],
  [
    'an agent that stopped is an error too',
    list({ state: 'error', error: exited }),
    [{ kind: 'error', error: exited }],
  ],
  [
    'the first page, nothing to show yet',
    list({ state: 'loading', loaded: false }),
    [{ kind: 'loading', more: false }],
  ],
  ['a first page again over rows already shown: no loading row', list({ state: 'loading', count: 2 }), []],
  [
    'a refresh over rows with a cursor keeps "Load more"',
    list({ state: 'loading', count: 2, nextCursor: 'c' }),
    [{ kind: 'loadMore' }],
  ],
  ['a further page', list({ state: 'loadingMore', count: 2, nextCursor: 'c' }), [{ kind: 'loading', more: true }]],
  ['more to fetch', list({ count: 2, nextCursor: 'c' }), [{ kind: 'loadMore' }]],
  ['the agent lists nothing here', list({}), [{ kind: 'empty' }]],
  ['nothing fetched yet: no "empty"', list({ loaded: false }), []],
  ['a complete list: no state row', list({ count: 5 }), []],
  [
    'a notice goes first, above the next row',
    list({ count: 5, nextCursor: 'c', notice: 'repeated' }),
    [{ kind: 'notice', text: 'repeated' }, { kind: 'loadMore' }],
  ],
  [
    'a notice stays while a page fails',
    list({ state: 'error', error: failure, notice: 'restarted', count: 1 }),
    [
      { kind: 'notice', text: 'restarted' },
      { kind: 'error', error: failure },
    ],
  ],
];

describe('stateRows', () => {
  for (const [name, input, expected] of cases) {
    it(name, () => assert.deepEqual(stateRows(input), expected));
  }
});
