// Continue in Another Agent as a person meets it: from a chat of the reference agent, the
// palette's "ACP: Continue in Another Agent…" and a click on the second agent open a new chat
// whose message box holds the briefing; Enter sends it; each chat's header links to the other,
// and a click on the link brings the other chat to the front.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { useWorkbench } from './harness';
import { chatFrame, editorTab, openSessionsView, runCommand, seededSessions, since, titleOf, treeRow } from './ui';

/** Waits until the message box holds text beginning with `start`. */
async function holds(input: Locator, start: string, page: Page): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await input.inputValue({ timeout: 30_000 }).catch(() => '');
    if (value.startsWith(start)) return value;
    if (Date.now() > deadline)
      throw new Error(`the message box never held "${start}…" (it held "${value.slice(0, 80)}")`);
    await page.waitForTimeout(100);
  }
}

describe('Continue in Another Agent (the workbench)', function () {
  // The second agent keeps its sessions apart: the folder's one row is the reference agent's.
  const secondStore = mkdtempSync(join(tmpdir(), 'acp-handoff-second-'));
  const wb = useWorkbench({
    sessions: 1,
    turns: 2,
    secondAgent: { id: 'second', name: 'Second Agent', agentArgs: ['--store', secondStore] },
  });

  it('drafts the briefing in a new chat of the agent picked, sends it on Enter, and links both chats', async function () {
    this.timeout(240_000);
    const { page, fixture } = wb();
    const started = Date.now();
    const session = seededSessions(fixture.storeDir, fixture.folders[0]!)[0]!;
    const title = titleOf(session);

    await openSessionsView(page);
    const row = treeRow(page, title);
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.click();
    let frame = chatFrame(page);
    await frame.locator('.composer button.send:not([disabled])').waitFor({ state: 'attached', timeout: 60_000 });
    await frame.locator('.msg-user').first().waitFor({ state: 'visible', timeout: 60_000 });

    await runCommand(page, 'ACP: Continue in Another Agent…');
    const choice = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: 'Second Agent' }),
    });
    await choice.first().click({ timeout: 30_000 });

    await editorTab(page, 'New session').waitFor({ state: 'visible', timeout: 30_000 });
    frame = chatFrame(page);
    const input = frame.locator('textarea.composer-input');
    const briefing = await holds(input, `# Continued from Reference Agent — ${title}\n`, page);
    if (!briefing.includes('## Goal') || !briefing.includes('## Last turns'))
      throw new Error(`the briefing lacks its parts: ${briefing}`);
    const back = frame.locator('.session-link', { hasText: `Continued from Reference Agent — ${title}` });
    await back.waitFor({ state: 'visible', timeout: 30_000 });
    // Nothing sent yet: the new thread holds no message of the user.
    if ((await frame.locator('.msg-user').count()) !== 0) throw new Error('a message was sent before Enter');
    await wb().screenshot('e2e-handoff-draft');

    await frame.locator('.composer button.send:not([disabled])').waitFor({ state: 'attached', timeout: 60_000 });
    await input.click();
    await input.press('Enter');
    await frame
      .locator('.msg-user', { hasText: `Continued from Reference Agent — ${title}` })
      .waitFor({ state: 'visible', timeout: 60_000 });

    await back.click();
    await page
      .locator('.tabs-container .tab.active', { hasText: title.slice(0, 20) })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await chatFrame(page)
      .locator('.session-link', { hasText: /^\s*Continued in Second Agent — / })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await wb().screenshot('e2e-handoff-linked');
    console.log(`      handed over and linked in ${since(started)}`);
  });
});
