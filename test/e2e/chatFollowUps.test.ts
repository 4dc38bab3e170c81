// Find and follow-ups in the real workbench, against the reference agent: Ctrl+F in the chat
// finds text of the replayed history, and a message sent while the agent works is queued and
// goes once the turn ends.
import * as assert from 'node:assert/strict';
import { seededTurn } from '../agent/content';
import { useWorkbench } from './harness';
import { chatFrame, openSessionsView, seededSessions, since, titleOf, treeRow, widenSideBar } from './ui';
import { waitFor } from '../support/wait';

describe('Chat find and queued follow-ups', function () {
  const wb = useWorkbench({ sessions: 3, turns: 3 });

  it('Ctrl+F finds the replayed history, steps to a match and closes with Escape', async () => {
    const started = Date.now();
    const { page } = wb();
    const session = seededSessions(wb().fixture.storeDir, wb().fixture.folders[0]!)[0]!;
    await openSessionsView(page);
    await widenSideBar(page, 420);
    const row = treeRow(page, titleOf(session));
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.click();
    const frame = chatFrame(page);
    await frame.locator('.msg-agent').last().waitFor({ state: 'visible', timeout: 30_000 });
    const firstPrompt = (seededTurn(session.cwd, 0, 0)[0] as { content: { text: string } }).content.text;
    const query = firstPrompt.replace(/`/g, '').split(' ').slice(0, 4).join(' ');

    await frame.locator('textarea.composer-input').click();
    await page.keyboard.press('Control+f');
    const input = frame.locator('.find-input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await input.evaluate((node) => node === document.activeElement), true, 'the find bar has focus');
    await input.pressSequentially(query, { delay: 5 });
    const count = frame.locator('.find-count');
    await frame.locator('.find-count', { hasText: /^1 of \d+$/ }).waitFor({ timeout: 10_000 });
    const total = Number((await count.textContent())!.split(' of ')[1]);
    assert.ok(total >= 1, `"${query}" found (${total})`);
    // The current match is painted once its entry is rendered and scrolled to, a frame or two
    // after the count shows.
    const highlighted = await waitFor(
      'the current match highlighted',
      () =>
        frame.locator('.thread').evaluate(() => {
          const current = CSS.highlights.get('acp-find-current');
          const range = current ? ([...current][0] as Range | undefined) : undefined;
          // Nothing painted yet is no answer: an empty string would end the wait at once.
          return range?.toString() || undefined;
        }),
      10_000,
      100,
    ).catch(() => '');
    assert.equal(highlighted.toLowerCase(), query.toLowerCase(), 'the match is highlighted');
    if (total > 1) {
      await input.press('Enter');
      await frame.locator('.find-count', { hasText: /^2 of / }).waitFor({ timeout: 5_000 });
    }
    console.log(`      screenshot: ${await wb().screenshot('e2e-chat-find')}`);
    await input.press('Escape');
    await frame.locator('.find').waitFor({ state: 'hidden', timeout: 5_000 });
    console.log(`      found and closed in ${since(started)}`);
  });

  it('a message sent while the agent works is queued, then sent when the turn ends', async () => {
    const started = Date.now();
    const { page } = wb();
    const frame = chatFrame(page);
    const input = frame.locator('textarea.composer-input');
    // The agent's turn waits on a permission card: it runs until the card is answered.
    await input.click();
    await input.pressSequentially('permission', { delay: 10 });
    await input.press('Enter');
    const card = frame.locator('.permission:not(.answered)');
    await card.waitFor({ state: 'visible', timeout: 20_000 });
    await frame.locator('.status-line.prompting').waitFor({ state: 'visible', timeout: 10_000 });
    const followUp = 'and this follow-up, please echo it';
    await input.click();
    await input.pressSequentially(followUp, { delay: 5 });
    assert.equal((await frame.locator('.send .button-label').textContent())?.trim(), 'Queue');
    await input.press('Enter');
    const queued = frame.locator('.queue-item .queue-text', { hasText: followUp });
    await queued.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await frame.locator('.msg-user', { hasText: followUp }).count(), 0, 'not sent during the turn');
    console.log(`      screenshot: ${await wb().screenshot('e2e-chat-queued')}`);

    // The turn ends once the card is answered; the follow-up leaves the queue and gets its own turn.
    await card
      .locator('button', { hasText: /^Allow/ })
      .first()
      .click();
    await frame.locator('.msg-user', { hasText: followUp }).waitFor({ state: 'visible', timeout: 30_000 });
    await frame.locator('.queue').waitFor({ state: 'hidden', timeout: 10_000 });
    await frame.locator('.msg-agent', { hasText: followUp }).waitFor({ state: 'visible', timeout: 30_000 });
    const texts = await frame.locator('.entry').allInnerTexts();
    const answered = texts.findIndex((t) => t.includes('protected.ts'));
    const sent = texts.findIndex((t) => t.includes(followUp));
    assert.ok(answered >= 0 && sent > answered, 'the follow-up went after the permission turn, in its own turn');
    console.log(`      queued and sent in ${since(started)}`);
  });
});
