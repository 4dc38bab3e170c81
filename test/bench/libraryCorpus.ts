// A deterministic corpus of kept sessions for the library benchmarks: sessions of 200
// messages (100 prompts, 100 answers) with a tool call after every other answer (a file read
// or an edit), words drawn from a Zipf-distributed vocabulary of 30,000 made-up words, plus
// per-session identifiers and paths, the way conversations about code mix prose and names.
// Prompts run about 25 words, answers about 80 (some 3× longer).
import type { ThreadEntry } from '../../src/protocol/entries';

export const MESSAGES = 200;

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ra',
  'to',
  'su',
  'vi',
  'de',
  'pa',
  'gor',
  'lin',
  'tex',
  'mon',
  'quar',
  'zel',
];
const VOCAB_SIZE = 30_000;

const vocab: string[] = [];
const cumulative: number[] = [];
let total = 0;
{
  const r = rng(7);
  const seen = new Set<string>();
  while (vocab.length < VOCAB_SIZE) {
    let w = '';
    const n = 2 + Math.floor(r() * 3);
    for (let j = 0; j < n; j++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    if (seen.has(w)) continue;
    seen.add(w);
    vocab.push(w);
    total += 1 / Math.pow(vocab.length, 1.05);
    cumulative.push(total);
  }
}

function word(r: () => number): string {
  const x = r() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (cumulative[m]! < x) lo = m + 1;
    else hi = m;
  }
  return vocab[lo]!;
}

/** A word from the vocabulary by rank (0 is the most common). */
export const vocabWord = (rank: number) => vocab[rank]!;

/** The identifier only session `i` holds, said once in the middle of its history. */
export const uniqueWord = (i: number) => `needle${i}quartz`;

function sentence(r: () => number, words: number, names: string[]): string {
  const out: string[] = [];
  for (let k = 0; k < words; k++) out.push(r() < 0.04 ? names[Math.floor(r() * names.length)]! : word(r));
  return `${out.join(' ')}.`;
}

export interface CorpusSession {
  sessionId: string;
  title: string;
  updatedAt: string;
  entries: ThreadEntry[];
}

/** Session `i` of the corpus (the same every run). */
export function corpusSession(i: number, messages = MESSAGES): CorpusSession {
  const r = rng(1000 + i);
  const names = Array.from({ length: 20 }, (_, k) => `${word(r)}${word(r).replace(/^./, (c) => c.toUpperCase())}${k}`);
  const paths = Array.from({ length: 10 }, (_, k) => `/work/project/src/${word(r)}/${word(r)}${k}.ts`);
  const entries: ThreadEntry[] = [];
  for (let m = 0; m < messages; m++) {
    const user = m % 2 === 0;
    let text = sentence(r, user ? 25 : r() < 0.15 ? 240 : 80, names);
    if (m === messages / 2) text = `${text} The ${uniqueWord(i)} came back.`;
    entries.push({ type: user ? 'user' : 'agent', text, attachments: [], done: true });
    if (!user && m % 4 === 1) {
      const path = paths[m % paths.length]!;
      const edit = m % 8 === 1;
      entries.push({
        type: 'tool',
        toolCallId: `t${m}`,
        title: `${edit ? 'Edit' : 'Read'} ${path.split('/').pop()}`,
        kind: edit ? 'edit' : 'read',
        status: 'completed',
        content: edit ? [{ type: 'diff', path, oldText: sentence(r, 30, names), newText: sentence(r, 30, names) }] : [],
        locations: [{ path }],
      });
    }
  }
  const day = 86_400_000;
  return {
    sessionId: `session-${i}`,
    title: sentence(r, 8, names).slice(0, 80),
    updatedAt: new Date(Date.UTC(2024, 0, 1) + i * day).toISOString(),
    entries,
  };
}

/** The searchable text of a session, as one string (what the candidates index). */
export function corpusText(s: CorpusSession): string {
  return s.entries
    .map((e) => (e.type === 'user' || e.type === 'agent' ? e.text : e.type === 'tool' ? e.title : ''))
    .join('\n');
}

/**
 * What a person types, keystroke by keystroke: a word from the middle of one session, a rare
 * word, two common words, a file name, a common prefix. Each prefix of each query is one
 * keystroke's search.
 */
export function typedQueries(sessions: number): string[] {
  const queries = [
    uniqueWord(Math.floor(sessions / 2)),
    `${vocabWord(2000)}`,
    `${vocabWord(3)} ${vocabWord(40)}`,
    `${vocabWord(900)} ${vocabWord(15)} ${vocabWord(300)}`,
    'kalo',
  ];
  const out: string[] = [];
  for (const q of queries) for (let n = 1; n <= q.length; n++) out.push(q.slice(0, n));
  return out;
}
