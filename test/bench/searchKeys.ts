// Benchmark 11, first part (plain Node, under a Node with node:sqlite as the extension host has):
// the search Resume Session runs per keystroke, snippets included, over 10,000 kept sessions of
// 200 messages across 5 agents and 20 folders (2,000,000 messages), scope "everything" beside
// scope "this folder" and beside the filters `agent:` and `in:`. Each keystroke is timed as the
// picker sees it: from the typed value handed to its content search (src/app/contentSearch.ts,
// through the library's reading worker) to its first answer (the first screen of hits, with
// their snippets), and to its last (every hit). Each keystroke waits for the last. Each scope runs in a library worker of its own,
// so that no scope finds what another left in the worker's memory.
// Usage: node out/test/bench/searchKeys.js
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ContentSearch, FIRST_HITS, type SearchScope } from '../../src/app/contentSearch';
import { Library } from '../../src/library/library';
import { repoRoot } from '../support/refAgent';
import { bytes, count, median, ms, percentile, summary, table } from './lib';
import { corpusSession, uniqueWord, vocabWord } from './libraryCorpus';
import { AGENTS, FOLDERS, MAX_BYTES, placeOf, SESSIONS, searchLibrary } from './searchCorpus';

const B = 'searchAll';
/** The session whose one word is searched for, and whose folder is "this folder". */
const NEEDLE = 5_001;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Plan {
  name: string;
  scope: SearchScope;
  /** Typed before each query, whole (a filter). */
  prefix: string;
}

/** What a person types: each query letter by letter, each prefix one keystroke. */
function queries(): { what: string; text: string }[] {
  const s = corpusSession(NEEDLE);
  const tool = s.entries.find((e) => e.type === 'tool' && e.locations?.length);
  const path = tool?.type === 'tool' ? tool.locations![0]!.path.split('/').slice(-2).join('/') : 'src/index.ts';
  return [
    { what: 'a word said once (one session)', text: uniqueWord(NEEDLE) },
    { what: 'a rare word', text: vocabWord(2000) },
    { what: 'a common word', text: vocabWord(3) },
    { what: 'two words', text: `${vocabWord(3)} ${vocabWord(40)}` },
    { what: 'three words', text: `${vocabWord(900)} ${vocabWord(15)} ${vocabWord(300)}` },
    { what: 'a path', text: path },
  ];
}

interface Keystroke {
  typed: string;
  /** Until the first answer: the first screen of hits, with their snippets. */
  ms: number;
  /** Until every hit (up to the picker's 200) has come, with its snippet. */
  allMs: number;
  hits: number;
}

/** Types each query letter by letter into a content search of its own library worker. */
async function typeAll(
  dir: string,
  plan: Plan,
  cwd: string,
): Promise<{ keys: Keystroke[]; startMs: number; warmMs: number }> {
  const t0 = performance.now();
  const library = new Library({ workerPath: join(repoRoot, 'dist/libraryWorker.js'), dir, maxBytes: MAX_BYTES });
  await library.ready;
  const startMs = performance.now() - t0;
  // What the picker starts when it opens (ContentSearch reads ahead), before the first keystroke.
  const t1 = performance.now();
  await library.warm();
  const warmMs = performance.now() - t1;
  let answered: (() => void) | undefined;
  const search = new ContentSearch(
    () => library,
    [cwd],
    () => answered?.(),
    {
      // As the picker passes them: the configured agents and their names.
      agentName: (id) => id.replace(/-/g, ' '),
      agentIds: () => AGENTS,
    },
  );
  search.setScope(plan.scope);
  const keys: Keystroke[] = [];
  try {
    for (const q of queries()) {
      for (let n = 1; n <= q.text.length; n++) {
        const typed = `${plan.prefix}${q.text.slice(0, n)}`;
        const t = performance.now();
        let first: number | undefined;
        await new Promise<void>((resolve) => {
          answered = () => {
            if (search.pending) return;
            first ??= performance.now() - t;
            if (search.complete) resolve();
          };
          search.run(typed);
          // Too short a word: the picker searches nothing (no hits to wait for).
          if (!search.pending) resolve();
        });
        const all = performance.now() - t;
        answered = undefined;
        if (search.words.length) keys.push({ typed, ms: first ?? all, allMs: all, hits: search.hits.length });
        if (search.hits.some((h) => h.snippet === undefined))
          throw new Error(`${plan.name}: a hit without a snippet for "${typed}"`);
      }
      // The next query starts from an empty box.
      search.run('');
    }
    // What was found is right: the word said once finds its session, with the snippet.
    search.run(`${plan.prefix}${uniqueWord(NEEDLE)}`);
    await new Promise<void>((resolve) => (answered = resolve));
    const [hit] = search.hits;
    const wanted = plan.prefix.startsWith('agent:') || plan.prefix.startsWith('in:') ? undefined : `session-${NEEDLE}`;
    if (wanted && (hit?.sessionId !== wanted || !hit.snippet?.includes(uniqueWord(NEEDLE))))
      throw new Error(`${plan.name}: "${uniqueWord(NEEDLE)}" did not find its session (${JSON.stringify(hit)})`);
  } finally {
    await library.close();
  }
  return { keys, startMs, warmMs };
}

async function main(): Promise<number> {
  console.log(`load average at the start: ${load()}`);
  const built = searchLibrary((line) => console.log(`  ${line}`));
  const { agentId, cwd } = placeOf(NEEDLE);
  const folder = FOLDERS.find((f) => cwd.endsWith(`/${f}`))!;
  const otherAgent = placeOf(NEEDLE + 1).agentId;
  console.log(
    `  the library: ${count(SESSIONS)} sessions, ${count(built.messages)} messages, ${bytes(built.fileBytes)} on disk; ` +
      (built.buildMs !== undefined
        ? `built in ${ms(built.buildMs)} this run`
        : `from the test cache (${built.dir}; it took ${ms(built.builtMs)} to build)`),
  );
  const plans: Plan[] = [
    { name: `this folder (${folder}: ${count(SESSIONS / FOLDERS.length)} sessions)`, scope: 'window', prefix: '' },
    { name: `everything (${count(SESSIONS)} sessions)`, scope: 'everything', prefix: '' },
    { name: `everything, agent:${agentId}`, scope: 'everything', prefix: `agent:${agentId} ` },
    { name: `everything, in:${folder}`, scope: 'everything', prefix: `in:${folder} ` },
    {
      name: `everything, agent:${otherAgent} in:${folder}`,
      scope: 'everything',
      prefix: `agent:${otherAgent} in:${folder} `,
    },
  ];
  const rows: string[][] = [];
  const figures: { plan: Plan; p50: number; p95: number; max: number; allP50: number; allP95: number }[] = [];
  for (const plan of plans) {
    const before = load();
    const { keys, startMs, warmMs } = await typeAll(built.dir, plan, cwd);
    const took = keys.map((k) => k.ms);
    const worst = keys.reduce((a, b) => (b.ms > a.ms ? b : a));
    const all = keys.map((k) => k.allMs);
    const f = {
      plan,
      p50: median(took),
      p95: percentile(took, 95),
      max: worst.ms,
      allP50: median(all),
      allP95: percentile(all, 95),
    };
    figures.push(f);
    rows.push([
      plan.name,
      count(keys.length),
      ms(f.p50),
      ms(f.p95),
      `${ms(f.max)} ("${worst.typed}")`,
      `${ms(f.allP50)} / ${ms(f.allP95)} / ${ms(Math.max(...all))}`,
      count(Math.max(...keys.map((k) => k.hits))),
      ms(startMs),
      ms(warmMs),
      `${before} → ${load()}`,
    ]);
  }
  table(
    `Resume Session's content search per keystroke, snippets included (${count(SESSIONS)} sessions × 200 messages, 5 agents, 20 folders; ${queries()
      .map((q) => `"${q.text}"`)
      .join(
        ', ',
      )} typed letter by letter; keystrokes of a word too short to search are left out; the first ${FIRST_HITS} hits with their snippets come first, the rest in a second search)`,
    [
      'scope',
      'keystrokes',
      'first screen p50',
      'p95',
      'max (typed)',
      'every hit p50 / p95 / max',
      'hits',
      'worker start',
      'box opened: reading ahead',
      'load average (1, 5, 15 min)',
    ],
    rows,
  );
  const folderP = figures[0]!;
  for (const f of figures)
    summary(
      B,
      `keystroke p50 / p95 / max, ${f.plan.name}`,
      `${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.max)}`,
      `${f === folderP ? 'today’s scope' : `aim: p95 ≤ 50 ms; ${(f.p95 / folderP.p95).toFixed(1)}× this folder’s p95`}; every hit p50 / p95 ${ms(f.allP50)} / ${ms(f.allP95)}`,
    );
  summary(
    B,
    'library of 10,000 × 200: size / build',
    `${bytes(built.fileBytes)} / ${ms(built.builtMs)}`,
    built.buildMs === undefined ? 'from the test cache' : 'built this run',
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`search benchmark could not run: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
