// The packaged extension as a user installs it: `npm run package` builds the VSIX, code-server
// installs it (no development payload, no smoke-test driver), and the workbench must show the
// Sessions view, render a chat from the files the package ships, and ask before deleting —
// modal dialogs are real here, unlike in the development-mode tests.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../host/paths';
import { SELECTORS, useWorkbench } from './harness';
import {
  chatFrame,
  openSessionsView,
  seededSessions,
  since,
  titleOf,
  treeRow,
  widenSideBar,
  type SeededSession,
} from './ui';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Builds the package the README tells users to build, into a temporary folder. */
function packageExtension(dir: string): string {
  const vsix = join(dir, 'acp-client.vsix');
  const started = Date.now();
  const packaged = spawnSync(npm, ['run', 'package', '--', '--out', vsix], {
    cwd: repoRoot(),
    encoding: 'utf8',
    timeout: 180_000,
  });
  // `npm run package` writes the minified bundles to dist/; the other tests want the
  // development build (source maps), so it is rebuilt whatever happened.
  const rebuilt = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot(), encoding: 'utf8', timeout: 120_000 });
  assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.stdout}${packaged.stderr}`);
  assert.equal(rebuilt.status, 0, `the development build failed after packaging:\n${rebuilt.stderr}`);
  console.log(`      (packaged in ${since(started)})`);
  return vsix;
}

/** Opens the row's context menu and chooses `item`. */
async function contextMenu(page: Page, row: ReturnType<typeof treeRow>, item: string): Promise<void> {
  await row.click({ button: 'right' });
  const menu = page.locator('.monaco-menu');
  const entry = menu.locator('.action-item', { hasText: item }).first();
  await entry.waitFor({ state: 'visible', timeout: 10_000 });
  // A menu that has just opened lets a click pass unseen (it guards against the right-click's
  // own mouse-up): click again until it closes, as a person would.
  for (let tries = 0; tries < 5; tries++) {
    await entry.click().catch(() => undefined);
    if (
      await menu.waitFor({ state: 'hidden', timeout: 1_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error(`the context menu did not run "${item}"`);
}

describe('Packaged extension (VSIX)', function () {
  let dir: string;
  let vsix: string | undefined;
  before(function () {
    this.timeout(300_000);
    dir = mkdtempSync(join(tmpdir(), 'acp-vsix-'));
    vsix = packageExtension(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const wb = useWorkbench({
    sessions: 4,
    turns: 2,
    vsix: () => {
      if (!vsix) throw new Error('the package was not built');
      return vsix;
    },
  });
  let sessions: SeededSession[];

  before(() => {
    sessions = seededSessions(wb().fixture.storeDir, wb().fixture.folders[0]!);
  });

  it('runs installed: the Sessions view lists the agent’s sessions', async () => {
    const { page } = wb();
    assert.equal(await page.getByText('Extension Development Host').count(), 0, 'not a development window');
    await openSessionsView(page);
    await widenSideBar(page);
    await treeRow(page, titleOf(sessions[0]!)).waitFor({ state: 'visible', timeout: 60_000 });
    for (const s of sessions) await treeRow(page, titleOf(s)).waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('opens a chat that renders with the packaged script and stylesheet', async () => {
    const { page } = wb();
    const session = sessions[1]!;
    await treeRow(page, titleOf(session)).click();
    // Long titles are cut in the tab: its start is enough to know the panel.
    await page
      .locator('.tabs-container .tab', { hasText: titleOf(session).slice(0, 40) })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    const frame = chatFrame(page);
    await frame.locator('.entry').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok((await frame.locator('.entry').count()) > 0, 'replayed entries are rendered');
    const styled = await frame
      .locator('body')
      .evaluate(() =>
        [...document.styleSheets].some((sheet) => sheet.href?.endsWith('/chat.css') && sheet.cssRules.length > 0),
      );
    assert.ok(styled, 'chat.css is shipped and applied');
    await frame.locator('textarea.composer-input').waitFor({ state: 'visible' });
    console.log(`      screenshot: ${await wb().screenshot('e2e-vsix-chat')}`);
  });

  it('asks before deleting: Cancel keeps the session, Delete removes it', async () => {
    const { page } = wb();
    const victim = sessions[3]!;
    const row = treeRow(page, titleOf(victim));
    const dialog = page.locator('.monaco-dialog-box');

    await contextMenu(page, row, 'Delete Session');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(
      await dialog.innerText(),
      new RegExp(`Delete the session "${titleOf(victim).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`),
    );
    console.log(`      screenshot: ${await wb().screenshot('e2e-vsix-delete-confirmation')}`);
    await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await page.waitForTimeout(500);
    assert.equal(await row.count(), 1, 'cancelled: the row stays');

    await contextMenu(page, row, 'Delete Session');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    await dialog.locator('.monaco-button', { hasText: /^Delete$/ }).click();
    await row.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(
      seededSessions(wb().fixture.storeDir, wb().fixture.folders[0]!).some((s) => s.sessionId === victim.sessionId),
      false,
      'the agent deleted it',
    );
    assert.equal(
      await page
        .locator(SELECTORS.treeRows)
        .filter({ hasText: titleOf(sessions[0]!) })
        .count(),
      1,
      'the others stay',
    );
  });
});
