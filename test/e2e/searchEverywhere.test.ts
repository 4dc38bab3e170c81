// Search everything as a person meets it: a session of a Codex-like agent (it lives on when its
// stdin closes) in one folder, opened there once, is found by a word said in it from a window
// of another folder, through Resume Session's "everything kept" scope; opening the hit opens
// the session scrolled to that message, far up its history, the words highlighted.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { seededTurn } from '../agent/content';
import { openWorkbench, screenshot } from '../host/browser';
import { seedSessions } from '../host/fixture';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, openSessionsView, runCommand, seededSessions, since, titleOf, treeRow } from './ui';

/** Eight turns: each prompt is said once; the first is several screens up. */
const TURNS = 8;

/** The highlighted hit once it is painted inside the thread's viewport, and whether the view is at its end. */
async function highlightedInView(frame: FrameLocator): Promise<{ text: string; atEnd: boolean }> {
  const thread = frame.locator('.thread');
  await thread.waitFor({ state: 'attached', timeout: 30_000 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = await thread.evaluate((scroller) => {
      const range = [...((CSS.highlights.get('acp-find-current') as Highlight | undefined) ?? [])][0] as
        Range | undefined;
      if (!range) return undefined;
      const box = range.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      if (box.height === 0 || box.top < view.top || box.bottom > view.bottom) return undefined;
      const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
      return { text: range.toString(), atEnd };
    });
    if (seen) return seen;
    if (Date.now() > deadline) throw new Error('no highlighted hit came into view');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function clickDialogButton(page: Page, label: string): Promise<void> {
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: label }).first().click({ timeout: 30_000 });
}

describe('Search everything (a Codex-like session of another folder)', function () {
  const webshop = mkdtempSync(join(tmpdir(), 'acp-webshop-'));
  const codexStore = mkdtempSync(join(tmpdir(), 'acp-codex-store-'));
  seedSessions(codexStore, [webshop], 1, TURNS);
  let found: { words: string[]; title: string } | undefined;
  const wb = useWorkbench({
    sessions: 2,
    turns: 2,
    secondAgent: { id: 'codex', name: 'Codex', agentArgs: ['--store', codexStore, '--ignore-eof'] },
  });

  it('finds a word said in another folder’s session and opens it scrolled to that message, highlighted', async function () {
    this.timeout(300_000);
    const { page, fixture, server } = wb();
    const started = Date.now();
    const session = seededSessions(codexStore, webshop)[0]!;
    const title = titleOf(session);
    const index = JSON.parse(readFileSync(join(codexStore, 'index.json'), 'utf8')) as {
      sessions: { sessionId: string; seeded?: { index: number } }[];
    };
    const seed = index.sessions.find((s) => s.sessionId === session.sessionId)!.seeded!.index;
    const first = seededTurn(webshop, 0, seed)[0]!;
    assert.ok(first.sessionUpdate === 'user_message_chunk' && first.content.type === 'text');
    const words = first.content.text
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length >= 6)
      .slice(0, 2);

    // The webshop folder's window: its Codex session opened once, so the library keeps it.
    await openWorkbench(page, server.url(webshop));
    await openSessionsView(page);
    const row = treeRow(page, title);
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.click();
    const last = seededTurn(webshop, TURNS - 1, seed)[0]!;
    assert.ok(last.sessionUpdate === 'user_message_chunk' && last.content.type === 'text');
    await chatFrame(page)
      .locator('.entry-user', { hasText: last.content.text.split('`')[0]!.slice(0, 30) })
      .last()
      .waitFor({ state: 'visible', timeout: 60_000 });

    // Another folder's window: Resume Session, everything kept, the words.
    await openWorkbench(page, server.url(fixture.target));
    const picture = await openHit(page, words, title);
    await clickDialogButton(page, 'Open Here');

    const seen = await highlightedInView(chatFrame(page));
    assert.ok(
      words.some((w) => seen.text.toLowerCase() === w.toLowerCase()),
      `a word highlighted (${seen.text}, of ${words.join(' ')})`,
    );
    assert.equal(seen.atEnd, false, 'scrolled up to the message, not left at the end of the history');
    // The page painted the message first (its own script ran under the panel's CSP), then the chat
    // loaded its stylesheet and script after the page and took over: the screen is gone.
    const screen = await chatFrame(page)
      .locator('body')
      .evaluate(() => ({
        painted: performance.getEntriesByName('acp.firstScreen').length,
        gone: performance.getEntriesByName('acp.firstScreenGone').length,
        shown: !!document.getElementById('first-screen'),
      }));
    assert.deepEqual(screen, { painted: 1, gone: 1, shown: false });
    console.log(
      `      found in another folder and opened on the message (${since(started)}); screenshots: ${picture}, ` +
        (await wb().screenshot('e2e-search-everywhere-opened')),
    );
    found = { words, title };
  });

  it('opens the hit in a new window of its folder (a new browser page), on the message', async function () {
    this.timeout(300_000);
    assert.ok(found, 'the first test found the hit');
    const { page, browser } = wb();
    // The first test's chat goes: while it still fills in its history it may take the focus
    // back, and a picker that loses the focus closes.
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 30_000 });
    const opened = browser.context.waitForEvent('page', { timeout: 60_000 });
    await openHit(page, found.words, found.title);
    await clickDialogButton(page, 'Open Folder in New Window');
    const other = await opened;
    await other.waitForSelector(SELECTORS.workbench, { timeout: 120_000 });
    assert.match(decodeURIComponent(other.url()), /acp-webshop-/, 'the folder of the session');
    const seen = await highlightedInView(chatFrame(other));
    assert.ok(
      found.words.some((w) => seen.text.toLowerCase() === w.toLowerCase()),
      seen.text,
    );
    assert.equal(seen.atEnd, false, 'scrolled up to the message');
    await other.close();
  });
});

/** Resume Session over everything kept, the words typed, the hit clicked; answers a screenshot's path. */
async function openHit(page: Page, words: readonly string[], title: string): Promise<string> {
  await runCommand(page, 'ACP: Resume Session');
  await page.locator('.quick-input-widget [aria-label^="Search everything kept"]').first().click({ timeout: 30_000 });
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: /everything kept/ })
    .waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator(SELECTORS.quickInput).pressSequentially(words.join(' '), { delay: 30 });
  const hit = page
    .locator(SELECTORS.quickPickRows)
    .filter({ hasText: title })
    .filter({ hasText: /Codex · acp-webshop-/ });
  await hit.first().waitFor({ state: 'visible', timeout: 60_000 });
  const picture = await screenshot(page, 'e2e-search-everywhere-hit');
  await hit.first().click();
  return picture;
}
