// The Sessions view measured in a real extension host (code-server + Chromium): the tree items
// of a 1000-row page as the view asks for them, and a fresh window's rows from the workspace
// cache before the agent answers. Run by the QuickPick benchmark (test/bench/quickPick.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFixture } from '../host/fixture';
import { failureShot, startHostRun } from './hostRun';
import { count, ms, summary, table } from './lib';

const B = 'Sessions view';
const SESSIONS = 1200;
/** The agent waits this long before every message, so the cache is all a fresh window has. */
const AGENT_DELAY_MS = 3000;

interface Results {
  page: { rows: number; runs: number; childrenMs: number; itemsMs: number; totalMs: number; resolveMs: number };
  cache: {
    activeBefore: boolean;
    activateMs: number;
    ownActivateMs: number;
    rows: number;
    fromCache: boolean;
    activateToRowsMs: number;
    getChildrenMs: number;
    viewToRowsMs: number;
    viewFromCache: boolean;
    agentPageMs: number;
  };
}

export async function sessionsViewBench(): Promise<void> {
  const fixture = createFixture({
    sessions: SESSIONS,
    turns: 1,
    agentArgs: ['--page-size', '1000', '--delay', String(AGENT_DELAY_MS)],
  });
  const run = await startHostRun(fixture, 'sessionsView', 300_000);
  try {
    const code = await run.exit;
    const file = join(run.ctl, 'sessionsView.json');
    if (code !== 0 || !existsSync(file)) {
      await failureShot(run, 'sessionsView');
      console.error(run.log.slice(-40).join('\n'));
      throw new Error(`the Sessions view suite ${code === -1 ? 'timed out' : `failed (exit ${code})`}`);
    }
    const { page, cache } = JSON.parse(readFileSync(file, 'utf8')) as Results;
    table(
      `Sessions view in the extension host: a ${count(page.rows)}-row page (median of ${page.runs} builds)`,
      ['', 'time'],
      [
        ['getChildren() for the page', ms(page.childrenMs)],
        ['getTreeItem() for every row (vscode.TreeItem)', ms(page.itemsMs)],
        ['getChildren + getTreeItem, the whole page', ms(page.totalMs)],
        ['resolveTreeItem() for one row (the tooltip on hover)', ms(page.resolveMs)],
      ],
    );
    table(
      `A fresh window with the first rows in workspace storage (agent answers after ${AGENT_DELAY_MS / 1000} s)`,
      ['', 'time', 'note'],
      [
        [
          'activate(), loading the extension included',
          ms(cache.activateMs),
          cache.activeBefore ? 'was already active' : `its own activate(): ${ms(cache.ownActivateMs)}`,
        ],
        [
          'activate() → getChildren() returns rows',
          ms(cache.activateToRowsMs),
          `${count(cache.rows)} rows, from the cache: ${cache.fromCache ? 'yes' : 'no'}`,
        ],
        ['  of which getChildren()', ms(cache.getChildrenMs), ''],
        [
          'view opened → the tree returns rows to the workbench',
          ms(cache.viewToRowsMs),
          `from the cache: ${cache.viewFromCache ? 'yes' : 'no'}`,
        ],
        ["activate() → the agent's first page replaces them", ms(cache.agentPageMs), ''],
      ],
    );
    summary(
      B,
      '1000-row page: getChildren + getTreeItem (host)',
      ms(page.totalMs),
      `one tooltip ${ms(page.resolveMs)}`,
    );
    summary(
      B,
      'fresh window: activate → cached rows / view opened → rows',
      `${ms(cache.activateToRowsMs)} / ${ms(cache.viewToRowsMs)}`,
      `${count(cache.rows)} rows from the cache`,
    );
  } finally {
    await run.dispose();
  }
}
