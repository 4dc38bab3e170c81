// The first run as a new user has it, in a remote window (code-server): no agent, the welcome
// with Add Agent, the presets with what they need, a custom command checked as it is typed,
// and the sessions once the agent is added. Screenshots of each step go to test-results/.
import * as assert from 'node:assert/strict';
import { joinCommandLine } from '../../src/agent/commandLine';
import { SELECTORS, useWorkbench } from './harness';
import { seededSessions, since, titleOf, treeRow, widenSideBar } from './ui';
import { quietFor } from '../support/wait';

describe('First run: no agent, then Add Agent', function () {
  const wb = useWorkbench({ agent: false, sessions: 4, turns: 1 });

  async function shot(name: string): Promise<void> {
    console.log(`      screenshot: ${await wb().screenshot(name)}`);
  }

  it('the view welcomes with Add Agent, and no command that cannot act is offered', async () => {
    const { page } = wb();
    const icon = page.locator(SELECTORS.acpIcon);
    await icon.waitFor({ state: 'visible', timeout: 60_000 });
    await icon.click();
    const welcome = page.locator(`${SELECTORS.sessionsView} .welcome-view-content`);
    await welcome.filter({ hasText: 'No ACP agent is set up yet' }).waitFor({ state: 'visible', timeout: 60_000 });
    await widenSideBar(page, 420);
    // No New Session, Resume or Refresh in the view's title bar with no agent to act.
    const titleActions = page.locator(`.pane-header[aria-label^="Sessions"] .actions .action-label`);
    const labels = await titleActions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    assert.ok(!labels.some((l) => /New Session|Resume Session|Refresh Sessions/.test(l)), labels.join(', '));
    // Nor in the command palette.
    await page.keyboard.press('F1');
    await page.locator(SELECTORS.quickInput).fill('>ACP: ');
    const rows = page.locator(SELECTORS.quickPickRows);
    await rows.filter({ hasText: 'Add Agent' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    const palette = await rows.locator('.label-name').allInnerTexts();
    const hidden = /^ACP: (Resume Session|New Session|Continue Last Session|Refresh Sessions)$/;
    assert.ok(!palette.some((t) => hidden.test(t.trim())), palette.join(', '));
    await page.keyboard.press('Escape');
    await shot('first-run-1-no-agent');
  });

  it('Add Agent lists the presets with what each needs and whether it is found', async () => {
    const { page } = wb();
    await page
      .locator(`${SELECTORS.sessionsView} .welcome-view-content .monaco-button`, { hasText: 'Add Agent' })
      .click();
    const rows = page.locator(SELECTORS.quickPickRows);
    await rows.filter({ hasText: 'Claude Code' }).waitFor({ state: 'visible', timeout: 10_000 });
    const claude = await rows.filter({ hasText: 'Claude Code' }).innerText();
    assert.match(
      claude,
      /npx found\. Checked [\d.]+ on [\d-]+: Lists sessions signed out; "Sign In" offers a Claude subscription|npx not found on this machine\. Install Node\.js 22/,
    );
    const title = await page.locator('.quick-input-widget .quick-input-title').innerText();
    assert.match(title, /Add Agent — Agents run on .*: written to your Remote settings/);
    await shot('first-run-2-add-agent');
  });

  it('a custom command that is not on this machine is refused as it is typed; a real one is added', async () => {
    const started = Date.now();
    const { page, fixture } = wb();
    await page.locator(SELECTORS.quickPickRows).filter({ hasText: 'Custom command…' }).click();
    // The pick gives way to an input box in the same widget: typed before that, a key goes to the pick.
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Add Agent — custom command' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    const input = page.locator(SELECTORS.quickInput);
    await input.pressSequentially('my-agnet --acp', { delay: 5 });
    const message = page.locator('.quick-input-widget .quick-input-message');
    await message.filter({ hasText: 'was not found on PATH' }).waitFor({ state: 'visible', timeout: 10_000 });
    await shot('first-run-3-custom-command-typo');
    await page.keyboard.press('Enter');
    await quietFor(300);
    assert.equal(await input.inputValue(), 'my-agnet --acp', 'Enter does not accept a command that is not found');

    const line = joinCommandLine(process.execPath, [
      fixture.agentScript,
      '--store',
      fixture.storeDir,
      '--started-file',
      fixture.startedFile,
    ]);
    await input.fill(line);
    await message.filter({ hasText: 'was not found' }).waitFor({ state: 'hidden', timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Add Agent — name' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill('Reference Agent');
    await page.keyboard.press('Enter');

    const sessions = seededSessions(fixture.storeDir, fixture.folders[0]!);
    await treeRow(page, titleOf(sessions[0]!)).waitFor({ state: 'visible', timeout: 60_000 });
    console.log(`      added and listed in ${since(started)}`);
    // The list under its date heading, newest first, each row with its time.
    const labels = await page.locator(`${SELECTORS.treeRows} .label-name`).allInnerTexts();
    assert.match(labels[0] ?? '', /^(Today|Yesterday)$/, labels.join(' | '));
    assert.equal(labels[1], titleOf(sessions[0]!));
    await shot('first-run-4-sessions-grouped');
  });
});
