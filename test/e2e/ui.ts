// What the UI tests share: the seeded store as the agent will list it, and the few workbench
// gestures every test repeats (open the ACP view, run a command, reach the chat webview).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { SELECTORS } from '../host/browser';
import { dateGroup } from '../../src/sessions/dateGroups';

export interface SeededSession {
  sessionId: string;
  cwd: string;
  title: string | null;
  updatedAt: string;
}

/**
 * The sessions of one folder in the order the reference agent lists them (newest first, then
 * by id), read from the store's index, so tests know which titles are on which page.
 */
export function seededSessions(storeDir: string, cwd: string): SeededSession[] {
  const index = JSON.parse(readFileSync(join(storeDir, 'index.json'), 'utf8')) as { sessions: SeededSession[] };
  return index.sessions
    .filter((s) => s.cwd === cwd)
    .sort((a, b) =>
      a.updatedAt !== b.updatedAt ? (a.updatedAt > b.updatedAt ? -1 : 1) : a.sessionId < b.sessionId ? -1 : 1,
    );
}

/**
 * A seeded title as a row shows it: the client turns runs of white space into one space (the
 * seed's normal titles are otherwise plain one-line text, well under the length cap).
 */
export function titleOf(session: SeededSession): string {
  assert.ok(session.title, `seeded session ${session.sessionId} has no title`);
  return session.title.replace(/\s+/g, ' ').trim();
}

/**
 * How many date headings ("Today", "Yesterday"…) the tree shows above the first `n` sessions
 * (newest first): one per run of sessions in the same date group.
 */
export function headingsAbove(sessions: readonly SeededSession[], n: number, now = Date.now()): number {
  return new Set(sessions.slice(0, n).map((s) => dateGroup(Date.parse(s.updatedAt), now))).size;
}

/** Shows the Sessions view (the ACP icon, unless it shows already) and waits until it has a row. */
export async function openSessionsView(page: Page): Promise<void> {
  const icon = page.locator(SELECTORS.acpIcon);
  await icon.waitFor({ state: 'visible', timeout: 60_000 });
  // The icon toggles the side bar: a click on it while the view shows would close it. After a
  // reload the workbench may restore the view just after it was seen missing, and the click then
  // closes it: look again until it stays shown.
  const view = page.locator('[id="workbench.view.extension.acp"]');
  for (const deadline = Date.now() + 60_000; !(await view.isVisible());) {
    if (Date.now() > deadline) throw new Error('the Sessions view did not show');
    await icon.click();
    await view.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
  }
  await page.locator(SELECTORS.treeRows).first().waitFor({ state: 'visible', timeout: 60_000 });
}

/** Drags the side bar's edge so long titles fit (the default width cuts them short). */
export async function widenSideBar(page: Page, width = 620): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
}

/** The Sessions view's row whose label is exactly `label`. */
export function treeRow(page: Page, label: string): Locator {
  return page.locator(SELECTORS.treeRows).filter({ has: page.locator('.label-name', { hasText: exactText(label) }) });
}

/**
 * Runs a command from the palette the way a person does: F1, type, pick the row. The palette lists
 * what is registered when it opens, so a command from an extension still being scanned may be
 * missing at first: then close it and try again, as a person would.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const input = page.locator(SELECTORS.quickInput);
  const row = page
    .locator(SELECTORS.quickPickRows)
    .filter({ has: page.locator('.label-name', { hasText: exactText(title) }) });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A webview that was just shown takes the keyboard focus, which closes the palette (or
    // swallows F1): open it again.
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(`>${title}`, { timeout: 3_000 });
      // A click, not Enter: a key pressed just as a webview takes the focus goes to the webview,
      // while a click on a row the palette no longer shows fails here and is tried again.
      await row.first().click({ timeout: 3_000 });
      break;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`the command palette has no "${title}": ${String(e)}`);
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
  }
}

/** The editor tab whose label is `title`. */
export function editorTab(page: Page, title: string): Locator {
  return page.locator('.tabs-container .tab', { has: page.locator('.label-name', { hasText: exactText(title) }) });
}

/**
 * The content of the visible chat webview: VS Code hosts it two iframes deep (the outer
 * `iframe.webview` and the document's `iframe#active-frame`).
 */
export function chatFrame(page: Page): FrameLocator {
  return page
    .locator('iframe.webview.ready')
    .locator('visible=true')
    .first()
    .contentFrame()
    .frameLocator('iframe#active-frame');
}

/** A RegExp that matches the whole text, for locators (hasText alone matches substrings). */
export function exactText(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** Milliseconds since `started`, for the run-time lines the tests print. */
export function since(started: number): string {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** Opens the row's context menu and chooses `item`. */
export async function contextMenu(page: Page, row: Locator, item: string): Promise<void> {
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
