import * as assert from 'node:assert/strict';
import {
  MAX_WORDS,
  bestText,
  compareRanked,
  fold,
  tokenHolds,
  wordQuery,
  queryWords,
  snippet,
  timeOf,
  wordStarts,
} from '../../../src/library/query';

describe('library: search words', () => {
  it('folds case and diacritics and splits on what is not a letter, digit or _', () => {
    assert.equal(fold('Ça Déjà'), 'ca deja');
    assert.deepEqual(queryWords('  ParseConfig, ENOENT!  src/lib_x.ts '), [
      'parseconfig',
      'enoent',
      'src',
      'lib_x',
      'ts',
    ]);
  });

  it('skips one-letter words and repeats, and looks up at most a few words', () => {
    assert.deepEqual(queryWords('a b cd cd e'), ['cd']);
    assert.equal(queryWords('w1 w2 w3 w4 w5 w6 w7 w8 w9 w10').length, MAX_WORDS);
    assert.deepEqual(queryWords('!!'), []);
  });

  it('quotes words for FTS5 as prefixes, short ones as whole words, doubling any quote', () => {
    assert.equal(wordQuery('abc'), '"abc"*');
    assert.equal(wordQuery('a"b'), '"a""b"*');
    assert.equal(wordQuery('db'), '"db"');
    assert.equal(tokenHolds('dbconfig', 'db'), false);
    assert.equal(tokenHolds('db', 'db'), true);
    assert.equal(tokenHolds('dbconfig', 'dbc'), true);
  });

  it('ranks sessions with every word first, then more words, then the most recent', () => {
    const rows = [
      { id: 'old-all', matched: 2, time: 1 },
      { id: 'new-one', matched: 1, time: 9 },
      { id: 'new-all', matched: 2, time: 5 },
      { id: 'undated-all', matched: 2, time: undefined },
    ];
    assert.deepEqual(
      rows.sort(compareRanked).map((r) => r.id),
      ['new-all', 'old-all', 'undated-all', 'new-one'],
    );
  });

  it('reads agent times, and nothing from what is not a date', () => {
    assert.equal(timeOf('2024-05-01T10:00:00Z'), Date.UTC(2024, 4, 1, 10));
    assert.equal(timeOf('yesterday'), undefined);
    assert.equal(timeOf(null), undefined);
  });

  it('finds where words start a token, not inside one', () => {
    assert.deepEqual(wordStarts('the Config parser reconfigured', ['conf', 'pars', 'zzz']), [4, 11, -1]);
    assert.deepEqual(wordStarts('Déjà vu', ['deja']), [0]);
    assert.deepEqual(wordStarts('dbconfig and the db', ['db']), [17], 'a short word matches whole words only');
    // Decomposed accents fold to fewer characters: the token path keeps the original positions.
    assert.deepEqual(wordStarts('cafe\u0301 db here', ['db', 'her']), [6, 9]);
  });

  it('picks the text that holds the most words, the first on a tie', () => {
    assert.equal(bestText(['alpha', 'alpha beta', 'beta alpha'], ['alpha', 'beta']), 1);
    assert.equal(bestText(['x', 'y'], ['alpha']), -1);
  });

  it('cuts a snippet around the first match on one line, with ellipses where cut', () => {
    const long = `${'lorem ipsum '.repeat(20)}the parseConfig\nthrew ENOENT ${'dolor sit '.repeat(30)}`;
    const s = snippet(long, ['enoent', 'parsec']);
    assert.match(s, /^….*the parseConfig threw ENOENT .*…$/);
    assert.ok(s.length <= 170, `snippet too long: ${s.length}`);
    assert.equal(snippet('short text', ['short']), 'short text');
  });
});
