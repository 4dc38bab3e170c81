import * as assert from 'node:assert/strict';
import { AgentExited, ErrorCodes, ProtocolError } from '../../../src/agent/errors';
import { MemoryLogger } from '../../../src/agent/log';
import type { ListPage } from '../../../src/agent/types';
import {
  CursorRules,
  isInvalidCursor,
  MAX_BARREN_PAGES,
  Notices,
  type PageFacts,
  type PageVerdict,
} from '../../../src/sessions/cursorRules';

const page = (nextCursor?: string, badCursor = false): ListPage => ({
  sessions: [],
  nextCursor,
  dropped: 0,
  ...(badCursor ? { pagingStopped: 'nextCursor is not a string', badCursor: true } : {}),
});

/** Where the list stands before the page: after a fresh first page, after a restart, or past page one. */
type Before = 'fresh' | 'restarted' | 'pastFirstPage';

function rules(before: Before): CursorRules {
  const r = new CursorRules('a', new MemoryLogger());
  // The first page began with "head" and gave cursor "c1".
  if (before === 'restarted') r.restarted('head', new Set(['c1']));
  else r.fresh('head', new Set(['c1']));
  r.beginRun();
  // Page two brought new rows: paging got past the first page.
  if (before === 'pastFirstPage') r.judge(page('c2'), { firstId: 'x', count: 3, added: 3 });
  return r;
}

const facts = (firstId: string | undefined, count: number, added: number): PageFacts => ({ firstId, count, added });

const cases: [string, Before, ListPage, PageFacts, PageVerdict][] = [
  [
    'new rows with a new cursor: append, page on',
    'fresh',
    page('c2'),
    facts('x', 5, 5),
    { kind: 'append', cursor: 'c2' },
  ],
  [
    'new rows on the last page: append, the end',
    'fresh',
    page(),
    facts('x', 5, 5),
    { kind: 'append', cursor: undefined },
  ],
  [
    'new rows, then a cursor sent before: append, stop with why',
    'fresh',
    page('c1'),
    facts('x', 5, 2),
    {
      kind: 'append',
      cursor: undefined,
      notice: Notices.cursorLoop,
    },
  ],
  [
    'new rows, then a cursor that is not a string: append, stop with why',
    'fresh',
    page(undefined, true),
    facts('x', 1, 1),
    {
      kind: 'append',
      cursor: undefined,
      notice: Notices.badCursor,
    },
  ],
  [
    'the first page again, with a new cursor: start over',
    'fresh',
    page('c9'),
    facts('head', 5, 0),
    {
      kind: 'startOver',
      cursor: 'c9',
    },
  ],
  [
    'the first page again past page one, even with its old cursor: start over',
    'pastFirstPage',
    page('c1'),
    facts('head', 5, 0),
    {
      kind: 'startOver',
      cursor: 'c1',
    },
  ],
  [
    'page one with its own cursor again before any progress: the agent ignores cursors, stop',
    'fresh',
    page('c1'),
    facts('head', 5, 0),
    {
      kind: 'stop',
      notice: Notices.repeatedPage,
    },
  ],
  [
    'rows already shown, not the first page: stop, never spin',
    'fresh',
    page('c3'),
    facts('y', 5, 0),
    {
      kind: 'stop',
      notice: Notices.repeatedPage,
    },
  ],
  [
    'after a restart, rows already shown: skip them and fetch on',
    'restarted',
    page('c3'),
    facts('y', 5, 0),
    {
      kind: 'barren',
      cursor: 'c3',
      again: true,
    },
  ],
  [
    'after a restart, the first page yet again: stop',
    'restarted',
    page('c3'),
    facts('head', 5, 0),
    {
      kind: 'stop',
      notice: Notices.repeatedPage,
    },
  ],
  [
    'after a restart, the first new row ends the catching up',
    'restarted',
    page('c3'),
    facts('y', 5, 1),
    {
      kind: 'append',
      cursor: 'c3',
    },
  ],
  [
    'an empty page with a cursor: fetch on at once',
    'fresh',
    page('c2'),
    facts(undefined, 0, 0),
    {
      kind: 'barren',
      cursor: 'c2',
      again: true,
    },
  ],
  [
    'an empty last page: done',
    'fresh',
    page(),
    facts(undefined, 0, 0),
    { kind: 'barren', cursor: undefined, again: false },
  ],
  [
    'an empty page with a cursor sent before: done, with why',
    'fresh',
    page('c1'),
    facts(undefined, 0, 0),
    {
      kind: 'barren',
      cursor: undefined,
      notice: Notices.cursorLoop,
      again: false,
    },
  ],
];

describe('CursorRules', () => {
  for (const [name, before, p, f, expected] of cases) {
    it(name, () => assert.deepEqual(rules(before).judge(p, f), expected));
  }

  it(`fetches at most ${MAX_BARREN_PAGES} pages in a row that bring nothing, then keeps the cursor and waits`, () => {
    const r = rules('fresh');
    const verdicts = Array.from({ length: MAX_BARREN_PAGES }, (_, i) =>
      r.judge(page(`e${i + 1}`), facts(undefined, 0, 0)),
    );
    assert.ok(verdicts.slice(0, -1).every((v) => v.kind === 'barren' && v.again));
    assert.deepEqual(verdicts.at(-1), { kind: 'barren', cursor: `e${MAX_BARREN_PAGES}`, again: false });
    r.beginRun();
    assert.deepEqual(r.judge(page('f1'), facts(undefined, 0, 0)), { kind: 'barren', cursor: 'f1', again: true });
  });

  it('takes every cursor it follows as seen: one coming back later is a loop', () => {
    const r = rules('fresh');
    assert.equal(r.judge(page('c2'), facts('x', 2, 2)).kind, 'append');
    assert.deepEqual(r.judge(page('c2'), facts('z', 2, 2)), {
      kind: 'append',
      cursor: undefined,
      notice: Notices.cursorLoop,
    });
  });
});

describe('isInvalidCursor', () => {
  const refused = (code: number, message: string, data?: unknown) =>
    new ProtocolError('A', 'session/list', message, code, data);
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  const cases: [string, unknown, boolean][] = [
    ['invalid params (-32602): the cursor', refused(ErrorCodes.InvalidParams, 'Invalid params'), true],
    ['an internal error naming the cursor', refused(ErrorCodes.InternalError, 'Invalid cursor'), true],
    [
      'an internal error with the cursor in data (Codex)',
      refused(ErrorCodes.InternalError, 'Internal error', { details: 'invalid cursor: abc' }),
      true,
    ],
    [
      'any other internal error: a failure to show',
      refused(ErrorCodes.InternalError, 'Internal error', { details: 'disk full' }),
      false,
    ],
    [
      'data that cannot be serialised says nothing',
      refused(ErrorCodes.InternalError, 'Internal error', circular),
      false,
    ],
    ['another code', refused(ErrorCodes.AuthRequired, 'bad cursor'), false],
    ['not a protocol error', new AgentExited('A', 1, null, ''), false],
  ];
  for (const [name, e, expected] of cases) it(name, () => assert.equal(isInvalidCursor(e), expected));
});
