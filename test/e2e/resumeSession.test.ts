// "ACP: Resume Session" as a person uses it: F1, the command, then a QuickPick of the folder's
// sessions, newest first, that keeps paging in the background. Typing part of the title of a
// session far beyond the first page finds it once its page arrives; Enter opens its chat with
// the history replayed.
import * as assert from 'node:assert/strict';
import { seededTurn } from '../agent/content';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, runCommand, seededSessions, since, titleOf, type SeededSession } from './ui';

const SESSIONS = 100;
const PAGE = 20;
const TURNS = 2;
/** The session the test looks for: on the fifth and last page. */
const TARGET = 89;

/** Text that a rendered user or agent message shows as plain prose (no Markdown syntax). */
function prose(markdown: string): string {
  const last = markdown.trim().split('\n\n').pop()!;
  return last.split('`')[0]!.slice(0, 60).trim();
}

describe('Resume Session (QuickPick)', function () {
  // Each agent message waits a little, so the QuickPick opens while later pages are still
  // on their way, as with a real agent and a long history.
  const wb = useWorkbench({
    sessions: SESSIONS,
    turns: TURNS,
    agentArgs: ['--page-size', String(PAGE), '--delay', '500'],
  });
  let sessions: SeededSession[];
  let target: SeededSession;

  before(() => {
    sessions = seededSessions(wb().fixture.storeDir, wb().fixture.folders[0]!);
    assert.equal(sessions.length, SESSIONS);
    target = sessions[TARGET]!;
  });

  it('lists the sessions newest first and finds one from a later page by its title', async () => {
    const started = Date.now();
    const { page } = wb();
    await page.locator(SELECTORS.acpIcon).waitFor({ state: 'visible', timeout: 60_000 });
    await runCommand(page, 'ACP: Resume Session');

    const rows = page.locator(SELECTORS.quickPickRows);
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Resume Session' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await rows
      .first()
      .filter({ hasText: titleOf(sessions[0]!) })
      .waitFor({ state: 'visible', timeout: 60_000 });
    const firstSeen = Number(await rows.first().getAttribute('aria-setsize'));
    console.log(`      the QuickPick showed ${firstSeen} of ${SESSIONS} sessions at first (${since(started)})`);
    // Newest first: the first rows are the seeded store's newest sessions, in order.
    for (let i = 0; i < 3; i++) {
      const label = await rows.nth(i).locator('.label-name').first().innerText();
      assert.equal(
        label.replace(/\s+/g, ' ').trim(),
        titleOf(sessions[i]!),
        `row ${i + 1} is the ${i + 1}th newest session`,
      );
    }

    // Type the end of the target's title, key by key, while the later pages arrive.
    const query = titleOf(target).slice(-28);
    await page.locator(SELECTORS.quickInput).pressSequentially(query, { delay: 20 });
    const hit = rows.filter({ hasText: titleOf(target) });
    await hit.first().waitFor({ state: 'visible', timeout: 60_000 });
    // The search went on as a person expects: the match is the only row, and it is active.
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, SELECTORS.quickPickRows, {
      timeout: 10_000,
    });
    assert.equal(
      await page.locator(SELECTORS.quickInput).inputValue(),
      query,
      'the typed filter survived the background paging',
    );
    assert.match(
      (await rows.first().locator('.label-description').innerText()).trim(),
      /ago/,
      'the row shows when it was updated',
    );
    console.log(`      screenshot: ${await wb().screenshot('e2e-resume-quickpick-filtered')}`);
    console.log(`      found the session on page ${Math.floor(TARGET / PAGE) + 1} in ${since(started)}`);
  });

  it('Enter opens the chat panel with the session’s title and its replayed history', async () => {
    const started = Date.now();
    const { page } = wb();
    // Enter accepts the active row of the box that has the keyboard: wait until the workbench
    // has made the match active and the box still has the focus (a busy machine settles the
    // filter late), then press it.
    await page
      .locator(`${SELECTORS.quickPickRows}.focused`, { hasText: titleOf(target) })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator(`${SELECTORS.quickInput}:focus`).waitFor({ state: 'attached', timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });

    // The editor tab carries the title (VS Code may shorten it; its start is enough to tell).
    const tab = page.locator('.tabs-container .tab', { hasText: titleOf(target).slice(0, 40) });
    await tab.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok((await tab.first().getAttribute('class'))?.includes('active'), 'the chat is the active editor');

    const frame = chatFrame(page);
    const header = frame.locator('header .title');
    await header.waitFor({ state: 'visible', timeout: 30_000 });
    await frame.locator('header .title', { hasText: titleOf(target).slice(-20) }).waitFor({ timeout: 30_000 });
    assert.equal(
      (await header.innerText()).replace(/\s+/g, ' ').trim(),
      titleOf(target),
      'the panel header shows the full title',
    );

    // The replay: the last turn's prompt and the agent's reply are on screen (the thread
    // scrolls to its end; earlier entries may be virtualised away).
    const last = seededTurn(target.cwd, TURNS - 1, TARGET);
    const userText = (last.find((u) => u.sessionUpdate === 'user_message_chunk') as { content: { text: string } })
      .content.text;
    const agentText = (last.find((u) => u.sessionUpdate === 'agent_message_chunk') as { content: { text: string } })
      .content.text;
    const user = frame.locator('.msg-user', { hasText: prose(userText) }).last();
    const agent = frame.locator('.msg-agent', { hasText: prose(agentText) }).last();
    await user.waitFor({ state: 'visible', timeout: 30_000 });
    await agent.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await user.innerText(), /^You/, 'the user message is labelled as the user’s');
    console.log(`      screenshot: ${await wb().screenshot('e2e-resume-chat-opened')}`);
    console.log(`      chat opened and replayed in ${since(started)}`);
  });
});
