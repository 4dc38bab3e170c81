// The Sessions view as a person uses it: 120 sessions behind an agent that pages by 50. The
// view shows the first page with a "Load more…" row; clicking it appends the next page below
// without moving the rows already shown; hovering a row shows its tooltip.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { SELECTORS, useWorkbench } from './harness';
import {
  headingsAbove,
  openSessionsView,
  seededSessions,
  since,
  titleOf,
  treeRow,
  widenSideBar,
  type SeededSession,
} from './ui';

const SESSIONS = 120;
const PAGE = 50;

/** The tree's own count of rows at the root (the list is virtual: most rows are not in the DOM). */
async function rootRowCount(page: Page): Promise<number> {
  const size = await page.locator(SELECTORS.treeRows).first().getAttribute('aria-setsize');
  return Number(size);
}

/** Moves the keyboard focus into the tree without opening anything, then to its last row. */
async function scrollToEnd(page: Page): Promise<void> {
  await page.locator(`${SELECTORS.sessionsView} .monaco-list`).first().focus();
  await page.keyboard.press('End');
}

describe('Sessions view: paging', function () {
  const wb = useWorkbench({ sessions: SESSIONS, turns: 2, agentArgs: ['--page-size', String(PAGE)] });
  let sessions: SeededSession[];

  before(() => {
    sessions = seededSessions(wb().fixture.storeDir, wb().fixture.folders[0]!);
    assert.equal(sessions.length, SESSIONS, 'the seeded store holds the folder’s sessions');
  });

  it('shows the first page of 50 sessions, newest first, then "Load more…"', async () => {
    const started = Date.now();
    const { page } = wb();
    await openSessionsView(page);
    await widenSideBar(page);
    // The first row is the date heading of the newest session, then that session, once the
    // agent's page has arrived.
    await treeRow(page, titleOf(sessions[0]!)).waitFor({ state: 'visible', timeout: 60_000 });
    const heading = page.locator(SELECTORS.treeRows).first();
    assert.match(await heading.locator('.label-name').innerText(), /^(Today|Yesterday)$/);
    const first = page.locator(SELECTORS.treeRows).nth(1);
    assert.equal(await first.locator('.label-name').innerText(), titleOf(sessions[0]!));
    assert.match(await first.locator('.label-description').innerText(), /ago|now/, 'a relative time as description');
    // Headings are counted once, when the first page arrived (a minute tick could move one).
    const h1 = headingsAbove(sessions, PAGE);
    assert.equal(await rootRowCount(page), PAGE + h1 + 1, '50 sessions under their headings and one "Load more…" row');
    await scrollToEnd(page);
    const loadMore = page.locator(SELECTORS.treeRows, { hasText: 'Load more…' });
    await loadMore.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await loadMore.getAttribute('aria-posinset'), String(PAGE + h1 + 1), '"Load more…" is the last row');
    // The row above it is the 50th session; the 51st is not shown yet.
    await treeRow(page, titleOf(sessions[PAGE - 1]!)).waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await treeRow(page, titleOf(sessions[PAGE]!)).count(), 0, 'page 2 is not listed before Load more');
    console.log(`      first page and "Load more…" seen in ${since(started)}`);
  });

  it('clicking "Load more…" appends the second page below the first and focuses its first row', async () => {
    const started = Date.now();
    const { page } = wb();
    const loadMore = page.locator(SELECTORS.treeRows, { hasText: 'Load more…' });
    await loadMore.click();

    // The 51st session (first of page 2) appears right below the 50th, which stays put.
    const firstOfPage2 = treeRow(page, titleOf(sessions[PAGE]!));
    await firstOfPage2.waitFor({ state: 'visible', timeout: 30_000 });
    // The focus moves to it, so the arrow keys carry on from the seam (not from the next "Load more…").
    await page
      .locator(`${SELECTORS.treeRows}.focused`, { hasText: titleOf(sessions[PAGE]!) })
      .waitFor({ state: 'visible', timeout: 5_000 });
    const last1 = treeRow(page, titleOf(sessions[PAGE - 1]!));
    assert.equal(await last1.getAttribute('aria-posinset'), String(PAGE + headingsAbove(sessions, PAGE)));
    assert.equal(
      await firstOfPage2.getAttribute('aria-posinset'),
      String(PAGE + 1 + headingsAbove(sessions, PAGE + 1)),
      'right below the 50th (or below a new heading)',
    );
    const h2 = headingsAbove(sessions, 2 * PAGE);
    await page.waitForFunction(
      ([sel, want]) => document.querySelector(sel)?.getAttribute('aria-setsize') === want,
      [SELECTORS.treeRows, String(2 * PAGE + h2 + 1)] as const,
      { timeout: 10_000 },
    );
    assert.equal(await rootRowCount(page), 2 * PAGE + h2 + 1, '100 sessions and "Load more…" again');
    // Scroll down a little with the mouse wheel, as a person would, so the picture shows both
    // pages around the seam; then the mouse leaves so no tooltip covers the rows.
    const list = page.locator(`${SELECTORS.sessionsView} .monaco-list`).first();
    const box = (await list.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 30 && !(await treeRow(page, titleOf(sessions[PAGE + 10]!)).isVisible()); i++) {
      await page.mouse.wheel(0, 60);
      await page.waitForTimeout(100);
    }
    await page.mouse.move(1000, 400);
    await treeRow(page, titleOf(sessions[PAGE + 10]!)).waitFor({ state: 'visible', timeout: 5_000 });
    await treeRow(page, titleOf(sessions[PAGE - 1]!)).waitFor({ state: 'visible', timeout: 5_000 });
    const shot = await wb().screenshot('e2e-sessions-load-more');
    console.log(`      screenshot: ${shot}`);

    // The end of page 2 is the 100th session, then "Load more…" for the last 20.
    await scrollToEnd(page);
    await treeRow(page, titleOf(sessions[2 * PAGE - 1]!)).waitFor({ state: 'visible', timeout: 5_000 });
    await page.locator(SELECTORS.treeRows, { hasText: 'Load more…' }).waitFor({ state: 'visible', timeout: 5_000 });

    // From the keyboard this time: End put the focus on "Load more…", Enter runs it, and the
    // focus lands on the first new row, where reading goes on. The last page has no cursor: no
    // "Load more…" after it, 120 rows in all.
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      ([sel, want]) => document.querySelector(sel)?.getAttribute('aria-setsize') === want,
      [SELECTORS.treeRows, String(SESSIONS + headingsAbove(sessions, SESSIONS))] as const,
      { timeout: 30_000 },
    );
    const focused = page.locator(`${SELECTORS.treeRows}.focused`);
    await focused.filter({ hasText: titleOf(sessions[2 * PAGE]!) }).waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await focused.count(), 1, 'one focused row');
    await scrollToEnd(page);
    await treeRow(page, titleOf(sessions[SESSIONS - 1]!)).waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(
      await page.locator(SELECTORS.treeRows, { hasText: 'Load more…' }).count(),
      0,
      'no "Load more…" after the last page',
    );
    console.log(`      pages 2 and 3 loaded in ${since(started)}`);
  });

  it('hovering a row shows its tooltip with the title and session id', async () => {
    const { page } = wb();
    const session = sessions[SESSIONS - 3]!;
    const row = treeRow(page, titleOf(session));
    await row.waitFor({ state: 'visible', timeout: 5_000 });
    const hover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Session ID' }).first();
    // The workbench shows a hover only after the pointer rests on a row and moves within it;
    // a busy machine can let the first rest pass unseen, so the pointer leaves and comes back.
    for (let attempt = 1; ; attempt++) {
      await page.mouse.move(1000, 400);
      await row.hover({ position: { x: 40, y: 8 } });
      await row.hover({ position: { x: 60, y: 10 } });
      try {
        await hover.waitFor({ state: 'visible', timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt === 4) throw error;
      }
    }
    const text = await hover.innerText();
    assert.ok(text.includes(titleOf(session)), `the tooltip names the session: ${text}`);
    assert.ok(text.includes(session.sessionId), `the tooltip shows the id: ${text}`);
    assert.ok(text.includes(session.cwd), `the tooltip shows the cwd: ${text}`);
    const shot = await wb().screenshot('e2e-sessions-tooltip');
    console.log(`      screenshot: ${shot}`);
  });
});
