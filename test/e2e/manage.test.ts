// Rename and archive as a person does it, from the command palette over an open chat: the
// Sessions view changes at once, and after the window reloads the name and the archive stay.
// Once with an agent that stores them (session/set_title, session/archive), once with one
// that cannot (the client keeps them in global storage).
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, openSessionsView, runCommand, seededSessions, since, titleOf, treeRow, widenSideBar } from './ui';

const NAME = 'Ship the release notes';

async function reloadWindow(page: Page): Promise<void> {
  // Waited for before the command runs: a quick reload fires "load" before a later wait begins.
  const loaded = page.waitForEvent('load', { timeout: 60_000 });
  await runCommand(page, 'Developer: Reload Window');
  await loaded;
  await page.locator(SELECTORS.workbench).waitFor({ state: 'visible', timeout: 60_000 });
}

for (const mode of ['agent', 'client'] as const) {
  describe(`Rename and archive from the palette (${mode === 'agent' ? 'the agent stores them' : 'kept by the client'})`, function () {
    const wb = useWorkbench({
      sessions: 6,
      turns: 1,
      agentArgs: mode === 'agent' ? [] : ['--no-title', '--no-archive', '--no-fork'],
    });

    it('renames the focused chat’s session and archives another; both survive a reload', async function () {
      this.timeout(240_000);
      const { page, fixture } = wb();
      const started = Date.now();
      const [first, second] = seededSessions(fixture.storeDir, fixture.folders[0]!);
      await openSessionsView(page);
      await widenSideBar(page);

      // Rename: open the chat, then F1 "ACP: Rename Session"; the input box holds the title.
      await treeRow(page, titleOf(first!)).click();
      await page
        .locator('.tabs-container .tab', { hasText: titleOf(first!).slice(0, 30) })
        .first()
        .waitFor({ timeout: 60_000 });
      // The chat shows its history (and has taken the keyboard focus) before the palette opens.
      // On a busy machine the chat takes the focus late, and a box open by then would close.
      await chatFrame(page).locator('.msg-agent').first().waitFor({ state: 'visible', timeout: 60_000 });
      await chatFrame(page).locator('textarea.composer-input:focus').waitFor({ state: 'attached', timeout: 30_000 });
      await runCommand(page, 'ACP: Rename Session');
      const input = page.locator(SELECTORS.quickInput);
      await page.waitForFunction(
        ([sel, want]) => (document.querySelector(sel) as HTMLInputElement | null)?.value === want,
        [SELECTORS.quickInput, titleOf(first!)] as const,
        { timeout: 30_000 },
      );
      // The box has the keyboard before it is typed into. Clicking a palette row hands the focus
      // back to the chat, and on a busy machine the chat takes it after the box has opened: the
      // box stays open (it ignores losing the focus), and a person clicks into it, as here.
      const focused = page.locator(`${SELECTORS.quickInput}:focus`);
      if (
        !(await focused.waitFor({ state: 'attached', timeout: 5_000 }).then(
          () => true,
          () => false,
        ))
      ) {
        await input.click();
        await focused.waitFor({ state: 'attached', timeout: 10_000 });
      }
      await input.fill(NAME);
      await page.keyboard.press('Enter');
      await treeRow(page, NAME).waitFor({ state: 'visible', timeout: 30_000 });
      await page.locator('.tabs-container .tab', { hasText: NAME }).first().waitFor({ timeout: 30_000 });
      assert.equal(await treeRow(page, titleOf(first!)).count(), 0, 'the row shows the name instead of the title');

      // Archive: open the second session's chat, then F1 "ACP: Archive Session".
      await treeRow(page, titleOf(second!)).click();
      const tab = page.locator('.tabs-container .tab', { hasText: titleOf(second!).slice(0, 30) }).first();
      await tab.waitFor({ timeout: 60_000 });
      await chatFrame(page) // the second chat is up before the palette opens
        .locator('.header .title', { hasText: titleOf(second!) })
        .waitFor({ state: 'visible', timeout: 60_000 });
      await runCommand(page, 'ACP: Archive Session');
      await tab.waitFor({ state: 'detached', timeout: 30_000 });
      await treeRow(page, titleOf(second!)).waitFor({ state: 'detached', timeout: 30_000 });
      console.log(
        `      renamed and archived in ${since(started)}; screenshot: ${await wb().screenshot(`e2e-manage-${mode}`)}`,
      );

      await reloadWindow(page);
      await openSessionsView(page);
      await treeRow(page, NAME).waitFor({ state: 'visible', timeout: 60_000 });
      // The third session shows, so the list is there; the archived one is not in it.
      await treeRow(page, titleOf(seededSessions(fixture.storeDir, fixture.folders[0]!)[2]!)).waitFor({
        state: 'visible',
        timeout: 60_000,
      });
      assert.equal(await treeRow(page, titleOf(second!)).count(), 0, 'still archived after the reload');
      console.log(`      after the reload: the name and the archive stayed (${since(started)})`);
    });
  });
}
