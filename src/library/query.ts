/**
 * Search words: how typed text becomes the words the index is asked for, how a session's
 * matches rank, and the snippet a hit shows. Pure. Typed words and the text the index holds
 * are folded by the same function ({@link fold}, before indexing too), and split as SQLite's
 * `unicode61` tokenizer splits them (letters, digits and `_`).
 */

/** Words shorter than this are not looked up by content: a letter would match every session. */
export const MIN_WORD = 2;
/**
 * Words this long or longer match as prefixes (the last one is still being typed); shorter
 * ones only as whole words ("db", "ui"): as prefixes they would match nearly every session.
 * A Hangul syllable, a Han character or a kana counts twice: two of them ("검색", "検索") say as
 * much as a word, and the particle written onto a Korean or Japanese word ("검색이") would
 * otherwise hide it from a whole-word match.
 */
export const PREFIX_FROM = 3;

const WIDE = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

/** A word's length as the rules above count it. */
function weight(word: string): number {
  return word.length + (word.match(WIDE)?.length ?? 0);
}

/** Whether a word is looked up as a prefix (else as a whole word). */
export function asPrefix(word: string): boolean {
  return weight(word) >= PREFIX_FROM;
}
/** At most this many words of a query are looked up. */
export const MAX_WORDS = 8;
/** Characters of context a snippet shows before its first match. */
const SNIPPET_BEFORE = 40;
/** Characters a snippet shows in all. */
const SNIPPET_LENGTH = 160;

/** A token: letters (with the marks on them, in decomposed text), digits and `_`. */
const TOKEN = /[\p{L}\p{M}\p{N}_]+/gu;

/**
 * Folds case and diacritics, for what is indexed and what is typed alike: lower case, marks
 * taken off the decomposed form, then composed again (NFC). Composing again matters: Hangul
 * decomposes into jamo, which are letters, not marks, and the text holds syllables; text and
 * typing may come in either form (macOS names files in NFD).
 */
export function fold(s: string): string {
  // Most text is ASCII, which has no marks to take off: lower case is all (and much cheaper).
  if (!NOT_ASCII.test(s)) return s.toLowerCase();
  return s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

const NOT_ASCII = /[^\x00-\x7f]/;

/** The distinct words to look up for typed text, in the order typed. */
export function queryWords(typed: string): string[] {
  const words = new Set<string>();
  for (const m of fold(typed).matchAll(TOKEN)) {
    if (weight(m[0]) >= MIN_WORD) words.add(m[0]);
    if (words.size === MAX_WORDS) break;
  }
  return [...words];
}

/** An FTS5 query for one word: a prefix, or a whole word when it is short (see {@link PREFIX_FROM}). */
export function wordQuery(word: string): string {
  const quoted = `"${word.replace(/"/g, '""')}"`;
  return asPrefix(word) ? `${quoted}*` : quoted;
}

/** Whether a folded token holds the word as the index matches it. */
export function tokenHolds(token: string, word: string): boolean {
  return asPrefix(word) ? token.startsWith(word) : token === word;
}

/** A session's part in a search: how many of the query's words it holds, and when it was updated. */
export interface Ranked {
  matched: number;
  /** Milliseconds since the epoch; sessions without a time sort last. */
  time: number | undefined;
}

/** Sessions that hold every word first, then those that hold more words, then the most recent. */
export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.matched !== b.matched) return b.matched - a.matched;
  return (b.time ?? -Infinity) - (a.time ?? -Infinity);
}

/** Milliseconds of an agent's `updatedAt`, or undefined when it is absent or not a date. */
export function timeOf(updatedAt: string | null | undefined): number | undefined {
  if (!updatedAt) return undefined;
  const t = Date.parse(updatedAt);
  return Number.isNaN(t) ? undefined : t;
}

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where each word first starts a token in `text` (case and diacritics folded), or -1. */
export function wordStarts(text: string, words: readonly string[]): number[] {
  return startsOf(words)(text);
}

/**
 * {@link wordStarts} for one query's words, made once: a search runs it over every entry of the
 * chunk that matched, for each of its hits.
 */
function startsOf(words: readonly string[]): (text: string) => number[] {
  if (!words.length) return () => [];
  const alternatives = words.map((w) => (asPrefix(w) ? escape(w) : `${escape(w)}(?![\\p{L}\\p{N}_])`));
  const pattern = `(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})`;
  return (text) => {
    const found = words.map(() => -1);
    const folded = fold(text);
    if (folded.length === text.length) {
      // A word the text does not hold anywhere starts no token of it either.
      let left = words.filter((w) => folded.includes(w)).length;
      if (left === 0) return found;
      // Folding kept every position: one pass of a regular expression over the folded text.
      for (const m of folded.matchAll(new RegExp(pattern, 'gu'))) {
        for (let i = 0; i < words.length; i++) {
          const w = words[i]!;
          if (found[i] === -1 && folded.startsWith(w, m.index) && (asPrefix(w) || m[0].length === w.length)) {
            found[i] = m.index;
            left--;
          }
        }
        if (left === 0) break;
      }
      return found;
    }
    // Some characters fold to more or fewer (Hangul, ligatures): token by token, in the original's positions.
    let left = words.length;
    for (const m of text.matchAll(TOKEN)) {
      const token = fold(m[0]);
      for (let i = 0; i < words.length; i++) {
        if (found[i] === -1 && tokenHolds(token, words[i]!)) {
          found[i] = m.index;
          left--;
        }
      }
      if (left === 0) break;
    }
    return found;
  };
}

/** Of several texts, the index of the one that holds the most words (the first on a tie), or -1. */
export function bestText(texts: readonly string[], words: readonly string[]): number {
  const starts = startsOf(words);
  let best = -1;
  let bestCount = 0;
  for (let i = 0; i < texts.length; i++) {
    const count = starts(texts[i]!).filter((s) => s >= 0).length;
    if (count > bestCount) {
      best = i;
      bestCount = count;
      if (count === words.length) break;
    }
  }
  return best;
}

/** One line of `text` around its first match, with ellipses where it was cut. */
export function snippet(text: string, words: readonly string[]): string {
  const starts = wordStarts(text, words).filter((s) => s >= 0);
  const at = starts.length ? Math.min(...starts) : 0;
  let from = Math.max(0, at - SNIPPET_BEFORE);
  // Start at a word, not in the middle of one.
  if (from > 0) {
    const space = text.lastIndexOf(' ', from);
    from = space >= 0 && at - space <= SNIPPET_BEFORE * 2 ? space + 1 : from;
  }
  const to = Math.min(text.length, from + SNIPPET_LENGTH);
  const line = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${line}${to < text.length ? '…' : ''}`;
}
