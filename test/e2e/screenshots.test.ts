// The README's pictures, taken from the real workbench on the demo of `npm start` (two folders
// of realistic sessions), so they show what the extension shows today. `npm run screenshots`
// writes them over media/screenshots/; under `npm test` they go to test-results/screenshots/
// and the test checks that each shows what its caption says.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Page } from 'playwright-core';
import { SHOWCASE_TITLE } from '../agent/demo/catalogue';
import { repoRoot, resultsDir } from '../host/paths';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, openSessionsView, runCommand, treeRow, widenSideBar } from './ui';
import { quietFor } from '../support/wait';

/** Where the pictures go: $ACP_SCREENSHOTS_DIR (relative to the repository), else test-results/. */
function screenshotsDir(): string {
  const dir = process.env.ACP_SCREENSHOTS_DIR;
  const out = dir ? (isAbsolute(dir) ? dir : join(repoRoot(), dir)) : join(resultsDir(), 'screenshots');
  mkdirSync(out, { recursive: true });
  return out;
}

async function save(page: Page, name: string): Promise<void> {
  // The mouse rests off the workbench: no hover highlight or tooltip in the picture.
  await page.mouse.move(1, 1);
  // Let hover effects and animations end before the picture is taken.
  await quietFor(400);
  const file = join(screenshotsDir(), `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`      ${file}`);
}

describe('README screenshots (the demo workspace)', function () {
  const wb = useWorkbench({ demo: true, viewport: { width: 1280, height: 800 } });

  it('the Sessions view: each folder’s sessions with their ages, untitled ones too', async () => {
    const { page } = wb();
    await openSessionsView(page);
    await widenSideBar(page, 470);
    const rows = page.locator(SELECTORS.treeRows);
    await treeRow(page, 'acme-webshop').waitFor({ state: 'visible', timeout: 60_000 });
    await treeRow(page, SHOWCASE_TITLE).waitFor({ state: 'visible', timeout: 60_000 });
    // Ages from minutes up, as the agent's updatedAt says.
    await rows
      .filter({ hasText: /\d+ min(ute)?s? ago/ })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok(
      (await rows.filter({ hasText: /hours? ago|hr?s? ago/ }).count()) > 0,
      'sessions of a few hours ago are in view',
    );
    assert.ok((await rows.filter({ hasText: 'Untitled session' }).count()) > 0, 'an untitled session is in view');
    // An editor beside the view, as people work.
    await page.keyboard.press('Control+P');
    await page.locator(SELECTORS.quickInput).fill('src/cart/total.ts');
    await page.locator(SELECTORS.quickPickRows, { hasText: 'total.ts' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page
      .locator('.monaco-editor .view-line', { hasText: 'appliesTo' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await save(page, 'sessions-view');
  });

  it('Resume Session: the folders’ sessions, newest first, with their ages and folders', async () => {
    const { page } = wb();
    // A multi-root window shows every folder's sessions at once, each row naming its folder.
    await runCommand(page, 'ACP: Resume Session');
    const rows = page.locator(SELECTORS.quickPickRows);
    await rows.filter({ hasText: SHOWCASE_TITLE }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const labels = await rows.locator('.label-name').allInnerTexts();
    assert.equal(labels[0]?.trim(), 'Add retry with exponential backoff to the payment gateway client', 'newest first');
    await rows
      .filter({ hasText: /min ago/ })
      .first()
      .waitFor({ state: 'visible' });
    await save(page, 'resume-session');
    await page.keyboard.press('Escape');
  });

  it('a chat: the agent’s explanation with code, and its edit as a diff, replayed from the agent', async () => {
    const { page } = wb();
    await treeRow(page, SHOWCASE_TITLE).click();
    // The chat gets the window's width: the side bar closes.
    // Through the palette: a key pressed while the new chat takes the focus may never reach the
    // workbench.
    await runCommand(page, 'View: Close Primary Side Bar');
    await page.locator('.part.sidebar').waitFor({ state: 'hidden' });
    const frame = chatFrame(page);
    await frame.locator('.entry', { hasText: 'gh pr create' }).last().waitFor({ state: 'visible', timeout: 30_000 });
    // Scroll back to the change itself: the agent's explanation with code, then the diff.
    const explanation = frame.locator('.entry', { hasText: 'Found both' });
    for (let i = 0; i < 60 && (await explanation.count()) === 0; i++) {
      await frame.locator('.thread').evaluate((el) => el.scrollBy(0, -300));
      await page.waitForTimeout(50);
    }
    await explanation.first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await frame.locator('.diff').first().waitFor({ state: 'visible' });
    await frame.locator('pre code').first().waitFor({ state: 'visible' });
    await save(page, 'chat');
  });
});
