import * as assert from 'node:assert/strict';
import { ContentSearch } from '../../../src/app/contentSearch';
import type { Library } from '../../../src/library/library';
import type { SearchHit } from '../../../src/library/types';

/** A library whose searches answer when the test says, each with one hit naming what was searched. */
function slowLibrary() {
  const asked: string[] = [];
  const answers: Array<() => void> = [];
  const client = {
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
