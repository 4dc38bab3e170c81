// Debian's Chromium driven by playwright-core (which downloads nothing), opening the
// code-server workbench.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { hostPaths, resultsDir } from './paths';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const SELECTORS = {
  workbench: '.monaco-workbench .part.activitybar',
  acpIcon: '.part.activitybar .action-item a[aria-label^="ACP"]',
  sessionsView: '[id="workbench.view.extension.acp"]',
  treeRows: '[id="workbench.view.extension.acp"] .monaco-list-row',
  quickInput: '.quick-input-widget .quick-input-box input',
  quickPickRows: '.quick-input-widget .quick-input-list .monaco-list-row',
};

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(
  options: { viewport?: { width: number; height: number }; ignoreHttpsErrors?: boolean } = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'acp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: hostPaths().chromium,
    headless: true,
    args: options.ignoreHttpsErrors ? [...CHROMIUM_ARGS, '--ignore-certificate-errors'] : CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    // For a test's own https server with a certificate made for the run.
    ignoreHTTPSErrors: options.ignoreHttpsErrors ?? false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  return {
    context,
    page,
    async close() {
      if (closed) return;
      closed = true;
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/**
 * Asks for the workbench page and waits only until code-server answers: what a run needs of the
 * page comes later, as the state it waits for (the activity bar, a suite's result). Its scripts
 * loading is not such a state, and on a machine whose cores are busy with other work it can
 * take longer than any fixed wait for it.
 */
export async function navigate(page: Page, url: string, timeoutMs = 120_000): Promise<void> {
  await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
}

/** Opens the workbench URL and waits until the activity bar is there. */
export async function openWorkbench(page: Page, url: string, timeoutMs = 120_000): Promise<number> {
  const started = Date.now();
  await navigate(page, url, timeoutMs);
  await page.waitForSelector(SELECTORS.workbench, { timeout: timeoutMs });
  return Date.now() - started;
}

/** Saves a PNG under test-results/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = resultsDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 120)}.png`);
  await page.screenshot({ path: file });
  return file;
}
