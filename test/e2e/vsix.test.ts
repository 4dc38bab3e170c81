// The packaged extension as a user installs it: `npm run package` builds the VSIX, code-server
// installs it (no development payload, no smoke-test driver), and the workbench must show the
// Sessions view, render a chat from the files the package ships, and ask before deleting —
// modal dialogs are real here, unlike in the development-mode tests.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { repoRoot } from '../host/paths';
import { SELECTORS, useWorkbench } from './harness';
import { type MediaServer, serveMedia } from './mediaServer';
import { pngSize, ZipFile } from './zip';
import {
  chatFrame,
  contextMenu,
  openSessionsView,
  runCommand,
  seededSessions,
  since,
  titleOf,
  treeRow,
  widenSideBar,
  type SeededSession,
} from './ui';
import { waitFor, quietFor } from '../support/wait';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Builds the package the README tells users to build, into a temporary folder, with its
 * README's pictures addressed at `baseUrl` (as a repository's address would be).
 */
function packageExtension(dir: string, baseUrl: string): string {
  const vsix = join(dir, 'acp-client.vsix');
  const started = Date.now();
  const packaged = spawnSync(npm, ['run', 'package', '--', '--out', vsix], {
    cwd: repoRoot(),
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, ACP_BASE_URL: baseUrl },
  });
  // `npm run package` writes the minified bundles to dist/; the other tests want the
  // development build (source maps), so it is rebuilt whatever happened.
  const rebuilt = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot(), encoding: 'utf8', timeout: 120_000 });
  assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.stdout}${packaged.stderr}`);
  assert.equal(rebuilt.status, 0, `the development build failed after packaging:\n${rebuilt.stderr}`);
  console.log(`      (packaged in ${since(started)})`);
  return vsix;
}

/**
 * The natural widths of the `count` images `images` finds, once each has finished loading (0
 * for one that failed), each scrolled into view in turn. Fails after 30 s naming what was
 * still loading.
 */
async function loadedWidths(images: Locator, count: number): Promise<number[]> {
  let widths: number[] = [];
  // Polled: an image's load cannot be awaited across the webview's frames.
  return waitFor(
    'the images loaded',
    async () => {
      widths = await images.evaluateAll((imgs) =>
        imgs.map((img) => {
          const image = img as HTMLImageElement;
          if (!image.complete) image.scrollIntoView({ block: 'center' });
          return image.complete ? image.naturalWidth : -1;
        }),
      );
      return widths.length === count && widths.every((w) => w >= 0) && widths;
    },
    30_000,
    250,
  ).catch(() => {
    throw new Error(`images still loading after 30 s: ${JSON.stringify(widths)}`);
  });
}

describe('Packaged extension (VSIX)', function () {
  let dir: string;
  let vsix: string | undefined;
  let media: MediaServer | undefined;
  before(async function () {
    this.timeout(300_000);
    dir = mkdtempSync(join(tmpdir(), 'acp-vsix-'));
    media = await serveMedia(repoRoot(), dir);
    vsix = packageExtension(dir, media.url);
  });
  after(async () => {
    await media?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const wb = useWorkbench({
    ignoreHttpsErrors: true,
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

  it('holds the 128×128 icon and every picture the README shows, addressed at the repository’s https address', () => {
    const zip = new ZipFile(vsix!);
    const manifest = JSON.parse(zip.read('extension/package.json').toString('utf8')) as { icon?: string };
    assert.equal(manifest.icon, 'media/icon.png');
    assert.deepEqual(pngSize(zip.read(`extension/${manifest.icon}`)), { width: 128, height: 128 });
    // VS Code's details page shows only https images: vsce made the README's paths absolute.
    const readme = zip.read('extension/readme.md').toString('utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    const pictures = ['sessions-view', 'resume-session', 'chat', 'worktree-session'].map(
      (n) => `media/screenshots/${n}.png`,
    );
    assert.deepEqual(
      images,
      pictures.map((p) => media!.url + p),
    );
    for (const picture of pictures) {
      const { width, height } = pngSize(zip.read(`extension/${picture}`));
      assert.ok(width >= 1000 && height >= 600, `${picture} is a full window (${width}×${height})`);
    }
    // The registry copy Add Agent falls back on, with its agents' icons.
    const shipped = JSON.parse(zip.read('extension/media/registry/registry.json').toString('utf8')) as {
      agents: { id: string }[];
    };
    assert.ok(shipped.agents.length >= 10);
    for (const { id } of shipped.agents)
      assert.match(zip.read(`extension/media/registry/icons/${id}.svg`).toString('utf8'), /<svg/);
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
    await quietFor(500);
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

  it('shows its icon and the README’s pictures on its details page', async function () {
    // Each step below is bounded; together they fit in this.
    this.timeout(240_000);
    const { page } = wb();
    await runCommand(page, 'Extensions: Show Installed Extensions');
    const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'ACP Client' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click({ timeout: 10_000 });
    const editor = page.locator('.extension-editor');
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual(
      await loadedWidths(editor.locator('.header img.icon'), 1),
      [128],
      'the icon, loaded from the package',
    );
    const shots = chatFrame(page).locator('img[src*="/media/screenshots/"]');
    await shots.first().waitFor({ state: 'attached', timeout: 30_000 });
    const widths = await loadedWidths(shots, 4);
    // Loaded over https: a picture that failed to load has no width.
    assert.ok(
      widths.every((w) => w >= 1000),
      `the four pictures loaded (${widths.join(', ')} px wide; served: ${media!.served.join(', ')})`,
    );
    assert.deepEqual([...new Set(media!.served)].filter((p) => p.includes('screenshots')).sort(), [
      '/media/screenshots/chat.png',
      '/media/screenshots/resume-session.png',
      '/media/screenshots/sessions-view.png',
      '/media/screenshots/worktree-session.png',
    ]);
    await shots.first().evaluate((img) => img.scrollIntoView({ block: 'start' }));
    console.log(`      screenshot: ${await wb().screenshot('e2e-vsix-details-page')}`);
  });
});
