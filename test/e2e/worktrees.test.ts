// A session in a worktree as a person makes one: New Session in Worktree from the palette, a
// prompt that changes a file there, the worktree's row under the folder with its changed file,
// Review Changes in the multi-file diff editor, and Merge into Base through its dialog. Its
// picture is the README's media/screenshots/worktree-session.png.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, contextMenu, openSessionsView, runCommand, treeRow, widenSideBar } from './ui';
import { waitFor } from '../support/wait';

const BRANCH = 'fix-greeting';

describe('Sessions in worktrees', function () {
  const wb = useWorkbench({ sessions: 1 });

  it('creates a worktree session, lists it under its folder, reviews it and merges it', async function () {
    this.timeout(240_000);
    const { page, fixture } = wb();
    const folder = fixture.folders[0]!;
    const git = (args: string[]) => execFileSync('git', args, { cwd: folder, encoding: 'utf8' });
    git(['init', '-q', '-b', 'main']);
    git(['config', 'user.name', 'Test']);
    git(['config', 'user.email', 'test@example.com']);
    writeFileSync(join(folder, 'greeting.txt'), 'hello\n');
    git(['add', 'greeting.txt']);
    git(['commit', '-qm', 'base']);
    const worktree = join(`${folder}.worktrees`, BRANCH);
    const file = join(worktree, 'greeting.txt');

    await openSessionsView(page);
    await widenSideBar(page, 520);
    await runCommand(page, 'ACP: New Session in Worktree…');
    const input = page.locator(SELECTORS.quickInput);
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(BRANCH);
    await page.keyboard.press('Enter');
    // The base: the current branch, offered first.
    const main = page.locator(SELECTORS.quickPickRows).filter({ hasText: 'current branch' });
    await main.first().waitFor({ state: 'visible', timeout: 10_000 });
    await main.first().click();

    const frame = chatFrame(page);
    const composer = frame.locator('textarea.composer-input');
    await frame.locator('.composer button.send:not([disabled])').waitFor({ state: 'attached', timeout: 60_000 });
    await composer.fill(`disk write ${file}`);
    await composer.press('Enter');
    await waitFor(
      'the agent to write in the worktree',
      () => existsSync(file) && readFileSync(file, 'utf8') !== 'hello\n',
    );
    assert.equal(readFileSync(join(folder, 'greeting.txt'), 'utf8'), 'hello\n', 'the folder is untouched');

    const row = treeRow(page, BRANCH);
    await row.filter({ hasText: '1 file changed' }).waitFor({ state: 'visible', timeout: 30_000 });
    // Opened, the worktree's row lists the session that works in it.
    await row.click();
    await page
      .locator(SELECTORS.treeRows)
      .filter({ hasText: 'disk write' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });

    await contextMenu(page, row, 'Review Changes');
    await page
      .locator('.tabs-container .tab', { hasText: `${BRANCH} ↔ main` })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page
      .locator('.multiDiffEditor', { hasText: 'greeting.txt' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    // The pointer off the workbench: no hover over the rows in the picture (README's).
    await page.mouse.move(1, 1);
    await page.locator('.monaco-hover, .workbench-hover').first().waitFor({ state: 'hidden', timeout: 5_000 });
    console.log(`      screenshot: ${await wb().screenshot('e2e-worktrees')}`);

    await runCommand(page, 'View: Close All Editors');
    await contextMenu(page, row, 'Merge into Base…');
    const merge = page
      .locator(SELECTORS.quickPickRows)
      .filter({ has: page.locator('.label-name', { hasText: /^\s*Merge\s*$/ }) });
    await merge.first().waitFor({ state: 'visible', timeout: 10_000 });
    await merge.first().click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await dialog.innerText(), new RegExp(`${BRANCH} has 1 uncommitted change`));
    await dialog.locator('.monaco-button', { hasText: 'Commit and Merge' }).click();
    await waitFor('the merge into main', () => readFileSync(join(folder, 'greeting.txt'), 'utf8') !== 'hello\n');
    assert.match(git(['log', '-1', '--format=%s']), new RegExp(`^Merge branch '${BRANCH}'`));
  });
});
