// Benchmark 1: the session list, in plain Node against real reference-agent processes.
// One folder with 10,000 sessions. Run with --expose-gc for the memory figure.
// Usage: node --expose-gc out/test/bench/sessionList.js
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ListSessionsResponse, SessionInfo } from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import { validateListResult } from '../../src/agent/validate';
import type { ListSessions } from '../../src/agent/types';
import { SessionCache } from '../../src/sessions/cache';
import { toRow } from '../../src/sessions/rows';
import { SessionList } from '../../src/sessions/sessionList';
import { relativeTime } from '../../src/sessions/time';
import { tooltipMarkdown } from '../../src/sessions/tooltip';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { startBare, type Bare } from './bare';
import { bytes, count, gc, median, ms, pct, ratio, sum, summary, table } from './lib';

const TOTAL = 10_000;
const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };
const B = 'session list';

async function connect(store: string, switches: string[]): Promise<AgentConnection> {
  return AgentConnection.start({
    config: refAgentConfig(store, switches),
    logger: silentLogger,
    handlers,
    clientInfo: { name: 'acp-bench', version: '0' },
  });
}

/** Every page through the bare SDK client: per-page round trips and the raw results. */
async function rawWalk(bare: Bare, cwd: string): Promise<{ times: number[]; pages: ListSessionsResponse[] }> {
  const times: number[] = [];
  const pages: ListSessionsResponse[] = [];
  let cursor: string | undefined;
  do {
    const started = performance.now();
    const page = await bare.agent.request('session/list', cursor ? { cwd, cursor } : { cwd });
    times.push(performance.now() - started);
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { times, pages };
}

/** Every page through our client: AgentConnection.listSessions under SessionList paging. */
async function ourWalk(list: ListSessions, cwd: string): Promise<{ times: number[]; list: SessionList }> {
  const sessions = new SessionList({ agentId: 'ref', folder: cwd, list, logger: silentLogger });
  const times: number[] = [];
  let started = performance.now();
  await sessions.loadFirstPage();
  times.push(performance.now() - started);
  while (sessions.nextCursor !== undefined) {
    started = performance.now();
    await sessions.loadMore();
    times.push(performance.now() - started);
  }
  if (sessions.state === 'error') throw new Error(`listing failed: ${String(sessions.error)}`);
  return { times, list: sessions };
}

/** Our processing alone: the same pages, already received, fed through validation and SessionList. */
async function processingWalk(pages: ListSessionsResponse[], cwd: string): Promise<number[]> {
  // Fresh copies, made before the clock starts: validation must see objects as from the wire.
  const byCursor = new Map<string | undefined, ListSessionsResponse>();
  let cursor: string | undefined;
  for (const page of pages) {
    byCursor.set(cursor, structuredClone(page));
    cursor = page.nextCursor ?? undefined;
  }
  const list: ListSessions = async (params) => validateListResult(byCursor.get(params.cursor));
  return (await ourWalk(list, cwd)).times;
}

async function pageSize(store: string, cwd: string, size: number, runs: number) {
  const bare = await startBare(store, ['--page-size', String(size)]);
  const conn = await connect(store, ['--page-size', String(size)]);
  const raw: number[][] = [];
  const ours: number[][] = [];
  const processing: number[][] = [];
  let pages: ListSessionsResponse[] = [];
  try {
    // Warm both processes and both JITs once, then alternate which goes first.
    await rawWalk(bare, cwd);
    await ourWalk((p, s) => conn.listSessions(p, s), cwd);
    for (let run = 0; run < runs; run++) {
      const doRaw = async () => {
        const r = await rawWalk(bare, cwd);
        raw.push(r.times);
        pages = r.pages;
      };
      const doOurs = async () => ours.push((await ourWalk((p, s) => conn.listSessions(p, s), cwd)).times);
      if (run % 2 === 0) await doRaw().then(doOurs);
      else await doOurs().then(doRaw);
    }
    for (let run = 0; run < runs + 2; run++) processing.push(await processingWalk(pages, cwd));
  } finally {
    await bare.stop();
    await conn.stop();
  }
  const perPage = (walks: number[][]) => median(walks.flat());
  const totals = (walks: number[][]) => median(walks.map(sum));
  return {
    size,
    pages: pages.length,
    listed: sum(pages.map((p) => p.sessions.length)),
    raw: perPage(raw),
    ours: perPage(ours),
    processing: perPage(processing.slice(2)),
    processingMin: median(processing.slice(2).map((w) => Math.min(...w.slice(1)))),
    rawTotal: totals(raw),
    ourTotal: totals(ours),
    // Work per page must not grow with the rows already shown: early pages against late ones.
    early: median(processing.slice(2).flatMap((w) => w.slice(1, 11))),
    late: median(processing.slice(2).flatMap((w) => w.slice(-10))),
    rawEarly: median(raw.flatMap((w) => w.slice(1, 11))),
    rawLate: median(raw.flatMap((w) => w.slice(-10))),
  };
}

/** What a 1000-row page costs to show: rows and descriptions; tooltips (built on hover) apart. */
function treeItemData(infos: SessionInfo[]): { rowsMs: number; tooltipMs: number } {
  const now = Date.now();
  const rowsTimes: number[] = [];
  const tooltipTimes: number[] = [];
  for (let run = 0; run < 9; run++) {
    let started = performance.now();
    let chars = 0;
    const rows = infos.map(toRow);
    for (const row of rows) chars += row.updatedAtMs !== undefined ? relativeTime(row.updatedAtMs, now).length : 0;
    rowsTimes.push(performance.now() - started);
    started = performance.now();
    for (const row of rows) chars += tooltipMarkdown(row, 'project').length;
    tooltipTimes.push((performance.now() - started) / rows.length);
    if (chars === 0) throw new Error('no tree-item data was built');
  }
  return { rowsMs: median(rowsTimes.slice(2)), tooltipMs: median(tooltipTimes.slice(2)) };
}

/** heapUsed once garbage is gone: one gc() can leave what finalizers and pending I/O still held. */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function memoryPer1000(store: string, cwd: string): Promise<number | undefined> {
  if (!(globalThis as { gc?: unknown }).gc) return undefined;
  const conn = await connect(store, ['--page-size', '1000']);
  try {
    await ourWalk((p, s) => conn.listSessions(p, s), cwd);
    const before = await settledHeap();
    const { list } = await ourWalk((p, s) => conn.listSessions(p, s), cwd);
    const after = await settledHeap();
    if (list.items.length !== TOTAL) throw new Error(`listed ${list.items.length} of ${TOTAL}`);
    return ((after - before) / list.items.length) * 1000;
  } finally {
    await conn.stop();
  }
}

/** loadFirstPage() → first rows from the cache, and → the agent's first page (agent delayed 200 ms). */
async function cacheFirstRows(store: string, cwd: string, first200: SessionInfo[]) {
  const conn = await connect(store, ['--delay', '200']);
  const stored = new Map<string, unknown>();
  const memento = { get: (k: string) => stored.get(k), set: (k: string, v: unknown) => void stored.set(k, v) };
  new SessionCache(memento).save('ref', cwd, first200);
  const cached: number[] = [];
  const fresh: number[] = [];
  const cold: number[] = [];
  try {
    for (let run = 0; run < 5; run++) {
      for (const withCache of [true, false]) {
        const list = new SessionList({
          agentId: 'ref',
          folder: cwd,
          list: (p, s) => conn.listSessions(p, s),
          logger: silentLogger,
          cache: withCache ? new SessionCache(memento) : undefined,
        });
        const started = performance.now();
        let shown: number | undefined;
        list.onDidChange((c) => {
          if (c.kind === 'reset' && shown === undefined) shown = performance.now() - started;
        });
        await list.loadFirstPage();
        const done = performance.now() - started;
        if (withCache) {
          if (list.items.length === 0 || shown === undefined) throw new Error('no rows');
          cached.push(shown);
          fresh.push(done);
        } else cold.push(done);
        list.dispose();
      }
    }
  } finally {
    await conn.stop();
  }
  return { cached: median(cached), fresh: median(fresh), cold: median(cold) };
}

async function main(): Promise<void> {
  const dir = tempDir('acp-bench-list-');
  try {
    const cwd = join(realpathSync(dir.path), 'project');
    mkdirSync(cwd);
    const store = join(dir.path, 'store');
    const seeded = performance.now();
    seed(store, [cwd], TOTAL, 1);
    console.log(`seeded ${count(TOTAL)} sessions in one folder in ${ms(performance.now() - seeded)}`);

    const p50 = await pageSize(store, cwd, 50, 2);
    const p1000 = await pageSize(store, cwd, 1000, 5);
    const rows = [p50, p1000].map((p) => [
      `page of ${p.size}`,
      ms(p.raw),
      ms(p.ours),
      ms(p.ours - p.raw),
      pct(p.ours - p.raw, p.raw),
      ms(p.processing),
      ms(p.processingMin),
      pct(p.processing, p.raw),
    ]);
    table(
      'Session list: time per page, 10,000 sessions in the folder (median over every page of every walk)',
      ['', 'raw SDK round trip', 'our client', 'difference', 'of raw', 'our processing alone', '(best page)', 'of raw'],
      rows,
    );
    console.log(
      '  our client = AgentConnection.listSessions (response checks) + SessionList paging (cwd check, dedupe, toRow);',
    );
    console.log('  our processing alone = the same pages, already received, through validation and SessionList.');
    table(
      'Listing all 10,000 sessions',
      ['', 'pages', 'listed', 'raw SDK total', 'our client total', 'ratio'],
      [p50, p1000].map((p) => [
        `pages of ${p.size}`,
        count(p.pages),
        count(p.listed),
        ms(p.rawTotal),
        ms(p.ourTotal),
        ratio(p.ourTotal, p.rawTotal),
      ]),
    );
    table(
      'Work per page does not grow with the rows already listed (pages of 50)',
      ['', 'pages 2-11', 'pages 191-200', 'late / early'],
      [
        ['our processing per page', ms(p50.early), ms(p50.late), ratio(p50.late, p50.early)],
        ['raw round trip per page', ms(p50.rawEarly), ms(p50.rawLate), ratio(p50.rawLate, p50.rawEarly)],
      ],
    );

    // The first 1000 sessions as the agent lists them, for the per-row figures.
    const bare = await startBare(store, ['--page-size', '1000']);
    const first = (await bare.agent.request('session/list', { cwd })).sessions;
    await bare.stop();
    const treeMs = treeItemData(first);
    const memory = await memoryPer1000(store, cwd);
    const cache = await cacheFirstRows(store, cwd, first.slice(0, 200));
    table(
      'Rows, memory and the cache',
      ['', 'value'],
      [
        ['tree-item data for a 1000-row page (toRow + relativeTime)', ms(treeMs.rowsMs)],
        ["one row's tooltip, built when hovered (tooltipMarkdown)", ms(treeMs.tooltipMs)],
        [
          'heap per 1,000 listed sessions (heapUsed delta after gc)',
          memory === undefined ? 'n/a (run node with --expose-gc)' : bytes(memory),
        ],
        [
          'loadFirstPage() → first rows shown from the cache (model only; 200 rows; agent --delay 200)',
          ms(cache.cached),
        ],
        ["loadFirstPage() → the agent's first page replaces them", ms(cache.fresh)],
        ['loadFirstPage() → first rows with no cache', ms(cache.cold)],
      ],
    );
    console.log(
      "  These are the model's share. The view's own figures (vscode.TreeItem for a 1000-row page, a fresh window's",
    );
    console.log(
      '  rows from the cache) are measured in the extension host: "Sessions view" in the quickPick benchmark.',
    );

    summary(
      B,
      'page of 50: raw round trip / our client',
      `${ms(p50.raw)} / ${ms(p50.ours)}`,
      `processing ${pct(p50.processing, p50.raw)} of raw`,
    );
    summary(
      B,
      'page of 1000: raw round trip / our client',
      `${ms(p1000.raw)} / ${ms(p1000.ours)}`,
      `processing ${pct(p1000.processing, p1000.raw)} of raw`,
    );
    summary(
      B,
      'all 10,000 (pages of 1000 / of 50)',
      `${ms(p1000.ourTotal)} / ${ms(p50.ourTotal)}`,
      `raw ${ms(p1000.rawTotal)} / ${ms(p50.rawTotal)}`,
    );
    summary(B, 'page 191-200 vs 2-11 processing', ratio(p50.late, p50.early), 'about 1× = no growth with total');
    summary(B, '1000-row tree-item data / one tooltip on hover', `${ms(treeMs.rowsMs)} / ${ms(treeMs.tooltipMs)}`);
    summary(B, 'heap per 1,000 sessions', memory === undefined ? 'n/a' : bytes(memory));
    summary(B, 'first rows: cache / agent (--delay 200)', `${ms(cache.cached)} / ${ms(cache.fresh)}`);
  } finally {
    dir.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`session list benchmark could not run: ${e instanceof Error ? e.stack : String(e)}`);
    process.exit(1);
  },
);
