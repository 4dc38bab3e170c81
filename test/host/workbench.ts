// One whole world for a UI test: a seeded workspace, code-server with the reference agent
// configured, and Chromium showing the workbench with our extension loaded.
import type { Page } from 'playwright-core';
import { launchBrowser, openWorkbench, screenshot, type Browser } from './browser';
import { startCodeServer, type CodeServer, type PayloadEntry } from './codeServer';
import { createFixture, type Fixture, type FixtureOptions } from './fixture';

export interface WorkbenchOptions extends FixtureOptions {
  /** User settings over the fixture's agent settings. */
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  workspaceTrust?: boolean;
  payloadExtras?: PayloadEntry[];
  viewport?: { width: number; height: number };
  /** Install this packaged extension instead of loading the repository in development mode. */
  vsix?: string | (() => string);
  /** Accept a self-made certificate (a test's own https server). */
  ignoreHttpsErrors?: boolean;
}

export interface Workbench {
  page: Page;
  fixture: Fixture;
  server: CodeServer;
  browser: Browser;
  timings: { bootMs: number; workbenchMs: number };
  /** Reloads the window (same profile, same server). */
  reload(): Promise<void>;
  screenshot(name: string): Promise<string>;
  dispose(): Promise<void>;
}

export async function startWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const fixture = createFixture(options);
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  const dispose = async () => {
    await browser?.close();
    await server?.stop();
    fixture.dispose();
  };
  try {
    server = await startCodeServer({
      settings: { ...fixture.settings, ...options.settings },
      env: { ...fixture.env, ...options.env },
      workspaceTrust: options.workspaceTrust ?? false,
      vsix: typeof options.vsix === 'function' ? options.vsix() : options.vsix,
      verbose: process.env.ACP_TEST_VERBOSE === '1',
    });
    browser = await launchBrowser({ viewport: options.viewport, ignoreHttpsErrors: options.ignoreHttpsErrors });
    const url = server.url(fixture.target, options.payloadExtras);
    const workbenchMs = await openWorkbench(browser.page, url);
    const page = browser.page;
    return {
      page,
      fixture,
      server,
      browser,
      timings: { bootMs: server.bootMs, workbenchMs },
      reload: async () => {
        await openWorkbench(page, url);
      },
      screenshot: (name) => screenshot(page, name),
      dispose,
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}
