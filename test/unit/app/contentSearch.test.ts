import * as assert from 'node:assert/strict';
import { ContentSearch, FIRST_HITS } from '../../../src/app/contentSearch';
import type { Library } from '../../../src/library/library';
import type { SearchFilter, SearchHit } from '../../../src/library/types';

/** A library whose searches answer when the test says, each with one hit naming what was searched. */
function slowLibrary() {
  const asked: string[] = [];
  const answers: Array<() => void> = [];
  const client = {
    warm: () => Promise.resolve(),
    search: (text: string) =>
      new Promise<SearchHit[]>((resolve) => {
        asked.push(text);
        answers.push(() =>
          resolve([{ agentId: 'a', sessionId: text, cwd: '/p', matched: 1, words: 1, snippet: `found ${text}` }]),
        );
      }),
  } as unknown as Library;
  /** Answers the oldest search still waiting. */
  const answer = async () => {
    answers.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { client, asked, answer };
}

describe('Resume Session content search, as the user types', () => {
  it('sends one search at a time: keystrokes typed meanwhile send only the last value', async () => {
    const { client, asked, answer } = slowLibrary();
    let changes = 0;
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => changes++,
    );
    search.run('pel');
    search.run('peli');
    search.run('pelic');
    search.run('pelican');
    assert.deepEqual(asked, ['pel'], 'the superseded values never reach the worker');
    assert.equal(search.pending, true);
    await answer();
    assert.deepEqual(asked, ['pel', 'pelican'], 'the last value goes once the search under way answers');
    assert.equal(changes, 0, 'the answer to a superseded value is not shown');
    await answer();
    assert.equal(search.pending, false);
    assert.equal(changes, 1);
    assert.deepEqual(
      search.hits.map((h) => h.sessionId),
      ['pelican'],
    );
  });

  it('keeps the same hits (the same array) when a new value finds the same sessions', async () => {
    const { client, answer } = slowLibrary();
    let changes = 0;
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => changes++,
    );
    search.run('quokka');
    await answer();
    const first = search.hits;
    // A trailing space: the same words, the same hit; the client answers for "quokka " with its own text.
    const sameAnswer = { ...first[0]! };
    (client as unknown as { search: () => Promise<SearchHit[]> }).search = () => Promise.resolve([sameAnswer]);
    search.run('quokka ');
    await new Promise((r) => setImmediate(r));
    assert.equal(changes, 2, 'told that the hits arrived');
    assert.equal(search.hits, first, 'the same array: nothing for the picker to hand over again');
  });

  it('clears the hits at once when the words are gone, without asking the library', async () => {
    const { client, asked, answer } = slowLibrary();
    let changes = 0;
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => changes++,
    );
    search.run('walrus');
    await answer();
    search.run('  ');
    assert.deepEqual(asked, ['walrus']);
    assert.equal(search.pending, false);
    assert.deepEqual(search.hits, []);
    assert.equal(changes, 2);
  });
});

describe('Resume Session content search: the first screen first', () => {
  /** A library holding `n` matching sessions, answering each search when the test says. */
  function manyHits(n: number) {
    const asked: number[] = [];
    const answers: Array<(fail?: boolean) => void> = [];
    let warmed = 0;
    const client = {
      warm: () => (warmed++, Promise.resolve()),
      search: (text: string, _scope: unknown, limit: number) =>
        new Promise<SearchHit[]>((resolve, reject) => {
          asked.push(limit);
          answers.push((fail) =>
            fail
              ? reject(new Error('the library stopped'))
              : resolve(
                  Array.from({ length: Math.min(n, limit) }, (_, i) => ({
                    agentId: 'a',
                    sessionId: `${text}-${i}`,
                    cwd: '/p',
                    matched: 1,
                    words: 1,
                    snippet: `…${text}…`,
                  })),
                ),
          );
        }),
    } as unknown as Library;
    const answer = async (fail?: boolean) => {
      answers.shift()!(fail);
      await new Promise((r) => setImmediate(r));
    };
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => {},
    );
    return { search, asked, answer, warmed: () => warmed };
  }

  it('reads ahead when the box opens, shows the first screen of hits with snippets, then the rest', async () => {
    const { search, asked, answer, warmed } = manyHits(300);
    assert.equal(warmed(), 1, 'what the first keystroke reads is read as the box opens');
    search.run('pelican');
    await answer();
    assert.equal(search.pending, false, 'the first answer is shown');
    assert.equal(search.complete, false, 'the rest is still to come');
    assert.equal(search.hits.length, FIRST_HITS);
    assert.ok(search.hits.every((h) => h.snippet));
    await answer();
    assert.equal(search.complete, true);
    assert.deepEqual(asked, [FIRST_HITS, 250]);
    assert.equal(search.hits.length, 200, 'the picker shows at most 200');
    assert.equal(search.hits[0]!.sessionId, 'pelican-0', 'the first answer stays at the top');
  });

  it('asks for no rest when the first answer held every hit', async () => {
    const { search, asked, answer } = manyHits(3);
    search.run('pelican');
    await answer();
    assert.equal(search.complete, true);
    assert.deepEqual(asked, [FIRST_HITS]);
  });

  it('a keystroke before the rest came searches the new value; the old rest is never shown', async () => {
    const { search, asked, answer } = manyHits(300);
    search.run('peli');
    await answer();
    search.run('pelican');
    await answer();
    assert.deepEqual(asked, [FIRST_HITS, 250, FIRST_HITS], 'the new value goes once the rest answered');
    assert.ok(search.hits.every((h) => h.sessionId.startsWith('peli-')) && search.pending);
    await answer();
    assert.equal(search.hits.length, FIRST_HITS);
    assert.ok(
      search.hits.every((h) => h.sessionId.startsWith('pelican-')),
      'the stale rest is dropped',
    );
  });

  it('keeps the first answer shown when the rest fails', async () => {
    const { search, answer } = manyHits(300);
    search.run('pelican');
    await answer();
    await answer(true);
    assert.equal(search.complete, true);
    assert.equal(search.hits.length, FIRST_HITS);
  });
});

describe('Resume Session content search: archives and filters', () => {
  const hits: SearchHit[] = [
    { agentId: 'a', sessionId: 'kept', cwd: '/p', matched: 1, words: 1, updatedAt: '2026-11-20T10:00:00Z' },
    { agentId: 'a', sessionId: 'gone', cwd: '/p', matched: 1, words: 1, updatedAt: '2026-11-21T10:00:00Z' },
    {
      agentId: 'codex',
      sessionId: 'other',
      cwd: '/q/webshop',
      matched: 1,
      words: 1,
      updatedAt: '2026-10-02T10:00:00Z',
    },
  ];
  function searchOf(scope: 'window' | 'everything' = 'window') {
    const asked: Array<{ text: string; scope: unknown }> = [];
    const client = {
      warm: () => Promise.resolve(),
      search: (text: string, s: unknown) => {
        asked.push({ text, scope: s });
        return Promise.resolve(hits);
      },
    } as unknown as Library;
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => {},
      { archived: (_agent, id) => id === 'gone', agentName: (id) => (id === 'codex' ? 'Codex CLI' : undefined) },
    );
    search.setScope(scope);
    const found = async (typed: string) => {
      search.run(typed);
      await new Promise((r) => setImmediate(r));
      return search.hits.map((h) => `${h.sessionId}${h.archived ? ' (archived)' : ''}`);
    };
    return { search, asked, found };
  }

  it('leaves an archived session out of the hits, and marks it when is:archived asks for it', async () => {
    const { found } = searchOf('everything');
    assert.deepEqual(await found('pelican'), ['kept', 'other']);
    assert.deepEqual(await found('pelican is:archived'), ['kept', 'gone (archived)', 'other']);
  });

  it('searches the one folder of the window, or everything kept', async () => {
    const { search, asked, found } = searchOf();
    await found('pelican');
    assert.deepEqual(asked.at(-1), { text: 'pelican', scope: { cwd: '/p' } });
    search.setScope('everything');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(asked.at(-1), { text: 'pelican', scope: {} }, 'a new scope searches again at once');
    assert.deepEqual(await found('pelican'), ['kept', 'other']);
  });

  it('takes agent:, in:, after: and before: out of the words and filters by them', async () => {
    const { asked, found } = searchOf('everything');
    assert.deepEqual(await found('agent:codex pelican'), ['other']);
    assert.equal(asked.at(-1)!.text, 'pelican', 'filters are not searched as words');
    assert.deepEqual(await found('pelican agent:CLI'), ['other'], "the agent's name matches too");
    assert.deepEqual(await found('in:webshop pelican'), ['other']);
    assert.deepEqual(await found('pelican after:2026-11-01'), ['kept']);
    assert.deepEqual(await found('pelican before:2026-11-01'), ['other']);
    assert.deepEqual(await found('pelican after:2026-11-01 before:2026-11-21'), ['kept']);
  });

  it('says what is wrong with a filter it cannot read, and searches the rest', async () => {
    const { search, found } = searchOf('everything');
    assert.deepEqual(await found('pelican after:yesterday'), ['kept', 'other']);
    assert.deepEqual(search.filters.problems, ['"after:yesterday": a date is written YYYY-MM-DD']);
    await found('pelican is:pinned');
    assert.deepEqual(search.filters.problems, ['"is:pinned": only is:archived is known']);
  });

  it('file: keeps the sessions that touched such a file (a turn changed it, or a tool call named it), also without words', async () => {
    const likes: string[] = [];
    const client = {
      warm: () => Promise.resolve(),
      search: () => Promise.resolve(hits),
      touchedLike: (like: string) => {
        likes.push(like);
        return Promise.resolve(
          'src/cart.ts'.includes(like)
            ? [
                {
                  agentId: 'codex',
                  sessionId: 'other',
                  cwd: '/q/webshop',
                  entryIndex: 4,
                  path: '/q/webshop/src/Cart.ts',
                  updatedAt: '2026-10-02T10:00:00Z',
                },
              ]
            : [],
        );
      },
      sessions: () =>
        Promise.resolve([
          { agentId: 'a', sessionId: 'kept', cwd: '/p', title: 'Kept', updatedAt: '2026-11-20T10:00:00Z' },
        ]),
    } as unknown as Library;
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => {},
      {
        archived: (_agent, id) => id === 'gone',
        changedFiles: (like) =>
          Promise.resolve(
            'src/cart.ts'.includes(like)
              ? [
                  { sessionId: 'kept', path: 'src/cart.ts' },
                  { sessionId: 'gone', path: 'src/cart.ts' },
                ]
              : [],
          ),
      },
    );
    search.setScope('everything');
    const found = async (typed: string) => {
      search.run(typed);
      while (search.pending) await new Promise((r) => setImmediate(r));
      return search.hits.map((h) => [h.sessionId, h.snippet, h.entryIndex]);
    };
    assert.deepEqual(
      (await found('pelican file:Cart.TS')).map((h) => h[0]),
      ['kept', 'other'],
      'the hits of the words that touched it, archived ones still left out',
    );
    assert.equal(likes.at(-1), 'cart.ts', 'folded to lower case');
    assert.deepEqual(
      await found('file:src\\cart'),
      [
        ['kept', 'src/cart.ts', undefined],
        ['other', '/q/webshop/src/Cart.ts', 4],
      ],
      'alone, the sessions that touched it, newest first, each with the file as its line',
    );
    assert.equal(likes.at(-1), 'src/cart', 'a Windows separator typed is a /');
    assert.deepEqual(await found('pelican file:nothing.ts'), []);
    assert.equal(search.filters.file, 'nothing.ts');
  });

  it('file: over everything kept reads the journals of every kept folder, over the window only its own', async () => {
    const kept = [
      { agentId: 'a', sessionId: 'here', cwd: '/p', title: 'Here', updatedAt: '2026-11-20T10:00:00Z' },
      { agentId: 'codex', sessionId: 'away', cwd: '/q/webshop', title: 'Away', updatedAt: '2026-11-21T10:00:00Z' },
    ];
    const client = {
      warm: () => Promise.resolve(),
      touchedLike: () => Promise.resolve([]),
      sessions: () => Promise.resolve(kept),
    } as unknown as Library;
    const read: string[][] = [];
    const journals: Record<string, string> = { '/p': 'here', '/q/webshop': 'away' };
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => {},
      {
        changedFiles: (_like, folders) => {
          read.push([...folders]);
          return Promise.resolve(folders.map((f) => ({ sessionId: journals[f]!, path: 'src/cart.ts' })));
        },
      },
    );
    const found = async (typed: string) => {
      search.run(typed);
      while (search.pending) await new Promise((r) => setImmediate(r));
      return search.hits.map((h) => h.sessionId);
    };
    assert.deepEqual(await found('file:cart'), ['here']);
    assert.deepEqual(read.at(-1), ['/p'], "the window's folder's journal");
    search.setScope('everything');
    assert.deepEqual(await found('file:cart.ts'), ['away', 'here'], 'newest first');
    assert.deepEqual(read.at(-1)?.sort(), ['/p', '/q/webshop'], 'every kept folder’s journal');
  });

  it('has the library apply the typed filters before it ranks, cuts and makes snippets', async () => {
    const asked: { text: string; limit: number; filter?: SearchFilter }[] = [];
    const client = {
      warm: () => Promise.resolve(),
      search: (text: string, _scope: unknown, limit: number, filter?: SearchFilter) => {
        asked.push({ text, limit, ...(filter ? { filter } : {}) });
        return Promise.resolve([]);
      },
    } as unknown as Library;
    const search = new ContentSearch(
      () => client,
      ['/p'],
      () => {},
      {
        agentIds: () => ['claude', 'codex'],
        agentName: (id) => (id === 'claude' ? 'Anthropic Claude' : 'Codex CLI'),
      },
    );
    search.setScope('everything');
    const run = async (typed: string) => {
      search.run(typed);
      while (search.pending) await new Promise((r) => setImmediate(r));
      return asked.at(-1)!;
    };
    const plain = await run('zebra');
    assert.equal(plain.filter, undefined);
    const filtered = await run('agent:Anthropic in:Shop after:2026-11-01 before:2026-12-01 zebra');
    assert.equal(filtered.text, 'zebra');
    assert.deepEqual(filtered.filter, {
      agentLike: 'anthropic',
      agentIds: ['claude'],
      folderLike: 'shop',
      after: new Date(2026, 10, 1).getTime(),
      before: new Date(2026, 11, 1).getTime(),
    });
    assert.equal(
      filtered.limit,
      plain.limit,
      'no more hits asked for than without filters: only those shown get snippets',
    );
  });
});
