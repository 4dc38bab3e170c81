// The chat from the keyboard, and nothing typed lost: focusing a chat puts the focus in its
// message box, "ACP: Focus Chat Input" gets there from anywhere, and a draft left unsent when
// the chat closes is back the next time that session opens.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { SELECTORS } from '../host/browser';
import { useWorkbench } from './harness';
import { chatFrame, openSessionsView, runCommand, seededSessions, titleOf, treeRow, widenSideBar } from './ui';
import { waitFor } from '../support/wait';

/** The editor tab of a session's chat (titles are cut in tabs: match their start). */
function chatTab(page: Page, title: string) {
  return page.locator('.tabs-container .tab', { hasText: title.slice(0, 30) }).first();
}

/** Waits until the box holds `expected`; fails with what it holds. */
async function valueBecomes(box: Locator, expected: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(
    `the box to hold "${expected}"`,
    async () => (await box.inputValue()) === expected,
    timeoutMs,
    100,
  ).catch(() => undefined);
  assert.equal(await box.inputValue(), expected);
}

/** Waits until the message box has the keyboard focus (the page gets it a moment after the tab). */
async function focused(page: Page): Promise<void> {
  await chatFrame(page).locator('textarea.composer-input:focus').waitFor({ state: 'attached', timeout: 10_000 });
}

describe('Chat keyboard focus and drafts', function () {
  const wb = useWorkbench({ sessions: 3, turns: 1 });
  let title: string;

  before(async function () {
    this.timeout(120_000);
    const { page, fixture } = wb();
    title = titleOf(seededSessions(fixture.storeDir, fixture.folders[0]!)[0]!);
    await openSessionsView(page);
    await widenSideBar(page, 420);
    await treeRow(page, title).click();
    await chatFrame(page).locator('textarea.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('clicking the chat tab after working elsewhere puts the focus in the message box', async () => {
    const { page } = wb();
    const composer = chatFrame(page).locator('textarea.composer-input');
    // Reading: a click in the conversation leaves the page, not the message box, focused.
    await chatFrame(page).locator('header').click();
    await chatFrame(page).locator('textarea.composer-input:focus').waitFor({ state: 'detached', timeout: 5_000 });
    // Elsewhere: the Sessions view has the focus.
    await runCommand(page, 'ACP: Focus on Sessions View');
    await page.waitForFunction(() => !!document.activeElement?.closest('[id="workbench.view.extension.acp"]'));
    await chatTab(page, title).click();
    await focused(page);
    await page.keyboard.type('typed after clicking the tab', { delay: 5 });
    await valueBecomes(composer, 'typed after clicking the tab');
  });

  it('"ACP: Focus Chat Input" puts the focus in the message box from anywhere', async () => {
    const { page } = wb();
    const composer = chatFrame(page).locator('textarea.composer-input');
    await composer.fill('');
    await runCommand(page, 'ACP: Focus on Sessions View');
    await page.waitForFunction(() => !!document.activeElement?.closest('[id="workbench.view.extension.acp"]'));
    await runCommand(page, 'ACP: Focus Chat Input');
    await focused(page);
    await page.keyboard.type('half a thought', { delay: 5 });
    await valueBecomes(composer, 'half a thought');
  });

  it('closing the chat with an unsent draft keeps it for the next time the session opens', async () => {
    const { page } = wb();
    await runCommand(page, 'View: Close Editor');
    await chatTab(page, title).waitFor({ state: 'detached', timeout: 10_000 });
    await treeRow(page, title).click();
    const composer = chatFrame(page).locator('textarea.composer-input');
    await composer.waitFor({ state: 'visible', timeout: 30_000 });
    // The draft comes with the panel's first snapshot.
    await valueBecomes(composer, 'half a thought');
    console.log(`      screenshot: ${await wb().screenshot('e2e-chat-draft-kept')}`);
  });
  it('a chat still starting leaves the focus alone: the palette opened meanwhile stays open', async () => {
    const { page, fixture } = wb();
    const other = titleOf(seededSessions(fixture.storeDir, fixture.folders[0]!)[1]!);
    await openSessionsView(page);
    await treeRow(page, other).click();
    // The chat's tab is there, its page still starting; the user goes to the palette.
    await chatTab(page, other).waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('F1');
    const palette = page.locator(SELECTORS.quickInput);
    await palette.waitFor({ state: 'visible', timeout: 10_000 });
    // Attached to its session: the page has long run its first steps (focusing among them).
    await chatFrame(page)
      .locator('.composer button.send:not([disabled])')
      .waitFor({ state: 'attached', timeout: 60_000 });
    assert.ok(await palette.isVisible(), 'the palette is still open');
    await page.keyboard.type('View: Toggle');
    assert.match(await palette.inputValue(), /^>View: Toggle/, 'and still takes what the user types');
    await page.keyboard.press('Escape');
  });
});
