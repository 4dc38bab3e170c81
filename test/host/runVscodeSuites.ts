// Runs the extension-host suites (test/vscode/suite) inside code-server, driven by Chromium.
// Each folder of suites gets its own code-server, workspace and agent store (see suites.ts).
// Usage: node out/test/host/runVscodeSuites.js [folder...]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import type { Page } from 'playwright-core';
import { QuietTimer } from '../../src/base/quietTimer';
import { launchBrowser, navigate, screenshot } from './browser';
import { startCodeServer } from './codeServer';
import { createFixture } from './fixture';
import { repoRoot, resultsDir } from './paths';
import { configFor, suiteFolders, suiteRoot } from './suites';

// Lines test/vscode/index.ts prints (it cannot be imported here: it needs mocha in-process).
const START_MARKER = 'ACP-SUITE-START';
const COUNTS_MARKER = 'ACP-SUITE-COUNTS ';
const PROGRESS_MARKER = 'ACP-SUITE-PROGRESS ';
// A suite asks the driver for a gesture the extension API cannot make (test/vscode/support.ts).
const DRIVER_MARKER = 'ACP-SUITE-DRIVER ';

/** Gestures a suite may ask for, by name: clicks in the workbench, as a person makes them. */
const GESTURES: Record<string, (page: Page, arg: string) => Promise<void>> = {
  // The suite has opened "Manage Workspace Trust"; its Trust button grants trust (no API can).
  trustWorkspace: async (page) => {
    await page
      .locator('.workspace-trust-editor .workspace-trust-buttons .monaco-button', { hasText: /^Trust$/ })
      .first()
      .click({ timeout: 20_000 });
  },
  // A QuickPick the workbench shows for `showQuickPick`: click the row with this label, or at
  // this 0-based position, once it is there.
  chooseQuickPickRow: async (page, row) => {
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    const target = /^\d+$/.test(row)
      ? rows.nth(Number(row))
      : rows.filter({ has: page.locator('.label-name', { hasText: row }) }).first();
    await target.click({ timeout: 20_000 });
  },
  // The chat in front holds a draft beginning with this text in its message box: press Enter
  // there, as a person would (the webview lives in the browser, out of the suite's reach).
  sendChatDraft: async (page, start) => {
    const input = page
      .locator('iframe.webview.ready')
      .locator('visible=true')
      .first()
      .contentFrame()
      .frameLocator('iframe#active-frame')
      .locator('textarea.composer-input');
    const deadline = Date.now() + 30_000;
    while (!(await input.inputValue({ timeout: 30_000 }).catch(() => '')).startsWith(start)) {
      if (Date.now() > deadline) throw new Error(`no chat holds a draft beginning "${start}"`);
      await page.waitForTimeout(100);
    }
    await input.click();
    await input.press('Enter');
  },
};
// Console noise of an offline workbench, expected on every run.
const HARMLESS = /ENOTFOUND open-vsx\.org|authentication provider 'github'|vsda|\[AccountPolicyGate\]/;
const verbose = process.env.ACP_TEST_VERBOSE === '1';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Each failed test's full title and first error line (the summary repeats them). */
  failures?: string[];
  /** The test under way, as the suite last said. */
  current?: string;
}

/**
 * Runs one folder's suites. `stallMs`: how long it may go without a test finishing (booting the
 * workbench counts as one), however long the whole takes. `progress` hears the counts as tests end.
 */
async function runFolder(folder: string, stallMs: number, progress: (counts: Counts) => void): Promise<Counts> {
  const label = folder || 'default';
  const config = configFor(folder);
  const started = Date.now();
  const fixture = createFixture(config);
  const where = config.agentSettingsIn ?? 'both';
  const server = await startCodeServer({
    settings: { ...(where === 'machine' ? {} : fixture.settings), ...config.settings },
    machineSettings: { ...(where === 'user' ? {} : fixture.settings), ...config.settings },
    env: { ...fixture.env, ACP_SUITE_DIR: join(suiteRoot(), folder) },
    workspaceTrust: config.workspaceTrust ?? false,
    verbose,
  });
  console.log(`[${label}] code-server listening in ${server.bootMs} ms on port ${server.port}`);
  const browser = await launchBrowser();
  const pageErrors: string[] = [];
  let counts: Counts | undefined;
  let running = false;
  const workbenchLog: string[] = [];
  let stalled: QuietTimer | undefined;
  /** The suite's last report of its progress, kept when the run is cut short. */
  let lastSeen: Counts | undefined;
  try {
    const exitCode = new Promise<number>((resolve) => {
      void browser.context.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
        const text = format(...(Array.isArray(args) ? args : [args]));
        workbenchLog.push(`[${type}] ${text}`);
        for (const line of text.split('\n')) {
          if (line.startsWith(COUNTS_MARKER)) counts = JSON.parse(line.slice(COUNTS_MARKER.length)) as Counts;
          if (line.startsWith(PROGRESS_MARKER)) {
            lastSeen = JSON.parse(line.slice(PROGRESS_MARKER.length)) as Counts;
            progress(lastSeen);
            stalled?.touch();
          }
        }
        if (text.startsWith(DRIVER_MARKER)) {
          const [name = '', ...rest] = text.slice(DRIVER_MARKER.length).trim().split(' ');
          const gesture = GESTURES[name];
          if (!gesture) console.error(`[${label}] a suite asked for an unknown gesture "${name}"`);
          else
            void gesture(browser.page, rest.join(' ')).catch((e: unknown) =>
              console.error(`[${label}] gesture ${name} failed: ${String(e)}`),
            );
        }
        if (text.startsWith(START_MARKER)) {
          running = true;
          stalled?.touch();
        }
        // Before the runner starts, the workbench logs its own boot; that goes to the log file.
        else if (
          (running || verbose) &&
          !text.startsWith(COUNTS_MARKER) &&
          !text.startsWith(PROGRESS_MARKER) &&
          !HARMLESS.test(text)
        ) {
          (type === 'error' ? console.error : console.log)(text);
        }
      });
      void browser.context.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
      stalled = new QuietTimer(stallMs, () => {
        console.error(
          `[${label}] no test finished for ${stallMs / 1000} s${lastSeen?.current ? `, in "${lastSeen.current}"` : ''}`,
        );
        resolve(-1);
      });
      stalled.touch();
    });
    browser.page.on('pageerror', (e) => pageErrors.push(String(e)));
    browser.page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    const runner = join(repoRoot(), 'out', 'test', 'vscode', 'index.js');
    await navigate(browser.page, server.url(fixture.target, [['extensionTestsPath', server.remoteUri(runner)]]));
    const code = await exitCode;
    if (code !== 0 || !counts || counts.failed > 0) {
      mkdirSync(resultsDir(), { recursive: true });
      const shot = await screenshot(browser.page, `vscode-${label}-failure`).catch(() => 'none');
      const logFile = join(resultsDir(), `vscode-${label}-failure.log`);
      writeFileSync(
        logFile,
        `--- workbench ---\n${workbenchLog.join('\n')}\n--- page errors ---\n${pageErrors.join('\n')}\n--- code-server ---\n${server.output()}`,
      );
      console.error(`[${label}] exit code ${code}; screenshot ${shot}; log ${logFile}`);
    }
    // A runner that threw or never answered counts as one failure, after what it passed.
    if (!counts) {
      const where = lastSeen?.current ? `, in "${lastSeen.current}"` : '';
      counts = {
        passed: lastSeen?.passed ?? 0,
        failed: (lastSeen?.failed ?? 0) + 1,
        skipped: lastSeen?.skipped ?? 0,
        failures: [...(lastSeen?.failures ?? []), `no result (exit code ${code})${where}`],
      };
    } else if (code !== 0 && counts.failed === 0) counts.failed = 1;
    return { ...counts, failures: (counts.failures ?? []).map((f) => `[${label}] ${f}`) };
  } finally {
    stalled?.dispose();
    await browser.close();
    await server.stop();
    fixture.dispose();
    console.log(`[${label}] finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/**
 * Runs every folder of suites in turn. With $ACP_COUNTS_FILE, the counts so far are written there
 * as each test ends (and the test under way), so that a run ended from outside keeps them.
 */
export async function runVscodeSuites(folders = suiteFolders()): Promise<Counts> {
  const total: Counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  const stallMs = Number(process.env.ACP_SUITE_TIMEOUT_MS) || 300_000;
  const write = (counts: Counts) => {
    if (process.env.ACP_COUNTS_FILE) writeFileSync(process.env.ACP_COUNTS_FILE, JSON.stringify(counts));
  };
  for (const folder of folders) {
    const label = folder || 'default';
    let counts: Counts;
    write({ ...total, current: `[${label}] starting` });
    try {
      counts = await runFolder(folder, stallMs, (now) =>
        write({
          passed: total.passed + now.passed,
          failed: total.failed + now.failed,
          skipped: total.skipped + now.skipped,
          failures: [...total.failures!, ...(now.failures ?? []).map((f) => `[${label}] ${f}`)],
          current: `[${label}] ${now.current ?? ''}`,
        }),
      );
    } catch (e) {
      console.error(`[${folder || 'default'}] could not run: ${e instanceof Error ? e.stack : String(e)}`);
      counts = { passed: 0, failed: 1, skipped: 0, failures: [`[${folder || 'default'}] could not run`] };
    }
    total.failures!.push(...(counts.failures ?? []));
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    write(total);
  }
  return total;
}

if (require.main === module) {
  const only = process.argv.slice(2);
  runVscodeSuites(only.length > 0 ? only.map((f) => (f === 'default' ? '' : f)) : undefined).then(
    (total) => {
      console.log(`extension-host suites: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
      process.exit(total.failed > 0 ? 1 : 0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
