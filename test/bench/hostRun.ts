// One code-server world for a host benchmark: a seeded fixture, code-server, Chromium with the
// probe below in every frame, and a bench suite (test/bench/suites/<name>) run inside the real
// extension host by the same runner the extension-host tests use (test/vscode/index.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser, navigate, screenshot, type Browser } from '../host/browser';
import { startCodeServer, type CodeServer } from '../host/codeServer';
import type { Fixture } from '../host/fixture';
import { repoRoot } from '../host/paths';
import { probe } from './probe';

export interface HostRun {
  page: Page;
  server: CodeServer;
  browser: Browser;
  /** A folder the suite and the driver share (signals and results). */
  ctl: string;
  /** Resolves with the runner's exit code (0: the suite passed), or -1 on timeout. */
  exit: Promise<number>;
  /** Lines the suite printed. */
  log: string[];
  dispose(): Promise<void>;
}

const HARMLESS = /ENOTFOUND open-vsx\.org|authentication provider 'github'|vsda/;

export async function startHostRun(fixture: Fixture, suite: string, timeoutMs: number): Promise<HostRun> {
  const ctl = mkdtempSync(join(tmpdir(), 'acp-bench-ctl-'));
  const suiteDir = join(repoRoot(), 'out', 'test', 'bench', 'suites', suite);
  const server = await startCodeServer({
    settings: fixture.settings,
    env: { ...fixture.env, ACP_SUITE_DIR: suiteDir, ACP_BENCH_CTL: ctl },
    verbose: process.env.ACP_TEST_VERBOSE === '1',
  });
  const browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
  const log: string[] = [];
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  const exit = new Promise<number>((resolve) => {
    void browser.context.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      if (text.startsWith('ACP-SUITE-START')) running = true;
      if (!running || HARMLESS.test(text) || text.startsWith('ACP-SUITE-COUNTS')) return;
      log.push(text);
      // The suite's own lines; mocha's spec output only when something failed or verbose.
      if (type === 'error' || process.env.ACP_TEST_VERBOSE === '1' || /^ACP-BENCH|failing|Error/.test(text))
        console.log(`  [extension host] ${text}`);
    });
    void browser.context.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    timer = setTimeout(() => resolve(-1), timeoutMs);
  });
  await browser.context.addInitScript(probe);
  const runner = join(repoRoot(), 'out', 'test', 'vscode', 'index.js');
  await navigate(browser.page, server.url(fixture.target, [['extensionTestsPath', server.remoteUri(runner)]]));
  return {
    page: browser.page,
    server,
    browser,
    ctl,
    exit,
    log,
    async dispose() {
      if (timer) clearTimeout(timer);
      await browser.close();
      await server.stop();
      rmSync(ctl, { recursive: true, force: true });
      fixture.dispose();
    },
  };
}

/** Saves a screenshot when a host benchmark goes wrong, and says where. */
export async function failureShot(run: HostRun, name: string): Promise<void> {
  const file = await screenshot(run.page, `bench-${name}-failure`).catch(() => undefined);
  if (file) console.error(`  screenshot: ${file}`);
}

/** Polls the filesystem for a signal file; the two sides share no other channel. */
export async function waitForFile(path: string, ms: number, what: string): Promise<void> {
  const { existsSync } = await import('node:fs');
  const end = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * ACP_BENCH_PROFILE=<dir>: records a Chromium trace of the page (every frame of the workbench's
 * renderer) until the returned function saves it as `<dir>/<name>.json`, for chrome://tracing or
 * the Performance panel. Without the variable both do nothing. ACP_BENCH_TRACE_EXTRA adds trace
 * categories (e.g. `ServiceWorker,navigation` to see the webview's service worker start).
 */
export async function traceIfAsked(page: Page, name: string): Promise<() => Promise<void>> {
  const dir = process.env.ACP_BENCH_PROFILE;
  if (!dir) return async () => {};
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown[])));
  await cdp.send('Tracing.start', {
    categories: `devtools.timeline,disabled-by-default-devtools.timeline,v8,blink,disabled-by-default-v8.cpu_profiler${process.env.ACP_BENCH_TRACE_EXTRA ? `,${process.env.ACP_BENCH_TRACE_EXTRA}` : ''}`,
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.end');
    await complete;
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(events));
    await cdp.detach();
  };
}
