// A chat panel survives the window reloading: VS Code hands the webview's saved state to the
// extension's serializer, which attaches the session again with a load (the host held the
// thread, and a reload loses it), and the unsent draft comes back.
import * as assert from 'node:assert/strict';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, openSessionsView, runCommand, seededSessions, since, titleOf, treeRow } from './ui';

describe('Chat panel across a window reload', function () {
  const wb = useWorkbench({ sessions: 8, turns: 2 });

  it('comes back with its history and the unsent draft', async function () {
    this.timeout(180_000);
    const { page, fixture } = wb();
    const started = Date.now();
    const session = seededSessions(fixture.storeDir, fixture.folders[0]!)[0]!;
    const title = titleOf(session);
    await openSessionsView(page);
    await treeRow(page, title).click();
    const frame = chatFrame(page);
    const firstUser = frame.locator('.entry').first();
    await firstUser.waitFor({ state: 'visible', timeout: 60_000 });
    const before = await frame.locator('.entry').count();
    assert.ok(before >= 4, `the replay shows the turns (${before} entries)`);
    const draft = 'a thought I have not sent yet';
    await frame.locator('textarea.composer-input').fill(draft);
    // The webview saves its state a moment after the last keystroke, and the workbench writes
    // its editor layout to browser storage a little later still.
    await page.waitForTimeout(3000);

    // The workbench's own reload, as a person runs it: it saves its state (the webview's too)
    // before unloading, which a bare page reload does not wait for.
    await runCommand(page, 'Developer: Reload Window');
    await page.waitForEvent('load', { timeout: 60_000 });
    await page.locator(SELECTORS.workbench).waitFor({ state: 'visible', timeout: 60_000 });
    // Tab titles are capped at 60 characters: match the beginning.
    await page
      .locator('.tabs-container .tab', { hasText: title.slice(0, 40) })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    const again = chatFrame(page);
    await again.locator('.entry').first().waitFor({ state: 'visible', timeout: 60_000 });
    await again.locator('textarea.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await again.locator('textarea.composer-input').inputValue(), draft, 'the draft survived');
    const after = await again.locator('.entry').count();
    assert.ok(after >= 4, `the history was loaded again (${after} entries)`);
    console.log(
      `      reload restored the panel (${since(started)}); screenshot: ${await wb().screenshot('e2e-chat-after-reload')}`,
    );
  });
});
