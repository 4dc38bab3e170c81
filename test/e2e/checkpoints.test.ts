// What a session changed, as a person meets it: a prompt whose turn writes a file straight to
// disk ends with a row "1 file changed +a −d"; a click on it opens VS Code's multi-file diff
// editor on that turn's file; the session's row in the Sessions view offers Review Changes,
// which opens the session's net diff.
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { useWorkbench } from './harness';
import { chatFrame, contextMenu, openSessionsView, seededSessions, since, titleOf, treeRow } from './ui';

/** The multi-file diff editor in front, titled `title`, showing a file named `file`. */
async function changesEditor(page: Page, title: RegExp, file: string): Promise<void> {
  await page.locator('.tabs-container .tab.active', { hasText: title }).waitFor({ state: 'visible', timeout: 30_000 });
  await page
    .locator('.editor-group-container.active', { hasText: file })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
}

describe('Checkpoints (a turn’s changes, a session’s changes)', function () {
  const wb = useWorkbench({ sessions: 1, turns: 1 });

  it('opens a turn’s changes from its row, and the session’s from the Sessions view', async function () {
    this.timeout(240_000);
    const { page, fixture } = wb();
    const started = Date.now();
    const cwd = fixture.folders[0]!;
    const session = seededSessions(fixture.storeDir, cwd)[0]!;
    const title = titleOf(session);
    const file = join(cwd, 'turn-notes.txt');

    await openSessionsView(page);
    const row = treeRow(page, title);
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.click();
    const frame = chatFrame(page);
    const input = frame.locator('textarea.composer-input');
    await frame.locator('.composer button.send:not([disabled])').waitFor({ state: 'attached', timeout: 60_000 });
    await input.click();
    await input.pressSequentially(`disk write ${file}`, { delay: 10 });
    await input.press('Enter');

    const changes = frame.locator('.changes-open', { hasText: /^1 file changed \+\d+ −0$/ });
    await changes.waitFor({ state: 'visible', timeout: 60_000 });
    await changes.click();
    await changesEditor(page, new RegExp(`${basename(cwd)}: 1 file changed .* in a turn`), 'turn-notes.txt');
    await wb().screenshot('e2e-checkpoints-turn');

    await openSessionsView(page);
    await contextMenu(page, treeRow(page, title), 'Review Changes');
    await changesEditor(page, /: 1 file changed \+\d+ −0(?! in a turn)/, 'turn-notes.txt');
    await wb().screenshot('e2e-checkpoints-session');
    console.log(`      the turn's and the session's changes opened in ${since(started)}`);
  });
});
