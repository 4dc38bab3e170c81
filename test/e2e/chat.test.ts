// The chat panel as a person uses it: open a session from the Sessions view, read its replayed
// history, send a prompt and read the streamed reply, answer a permission card, and receive
// hostile Markdown that must stay inert.
import * as assert from 'node:assert/strict';
import type { Dialog, FrameLocator, Locator } from 'playwright-core';
import { seededTurn } from '../agent/content';
import { useWorkbench, type Workbench } from './harness';
import {
  chatFrame,
  openSessionsView,
  seededSessions,
  since,
  titleOf,
  treeRow,
  widenSideBar,
  type SeededSession,
} from './ui';
import { waitFor } from '../support/wait';

const TURNS = 2;

/** The first plain sentence of a seeded message, as the rendered Markdown shows it. */
function prose(markdown: string): string {
  const last = markdown.trim().split('\n\n').pop()!;
  return last.split('`')[0]!.slice(0, 60).trim();
}

function turnTexts(session: SeededSession, index: number, turn: number): { user: string; agent: string } {
  const updates = seededTurn(session.cwd, turn, index);
  const text = (kind: string) =>
    (updates.find((u) => u.sessionUpdate === kind) as { content: { text: string } }).content.text;
  return { user: prose(text('user_message_chunk')), agent: prose(text('agent_message_chunk')) };
}

/** Types into the composer key by key and presses Enter, like a person. */
async function send(frame: FrameLocator, prompt: string): Promise<void> {
  const input = frame.locator('textarea.composer-input');
  await input.click();
  await input.pressSequentially(prompt, { delay: 10 });
  await input.press('Enter');
}

/** Whether the element is inside the scroller's visible area (not merely in the DOM). */
async function inView(element: Locator, scroller: Locator): Promise<boolean> {
  const [box, view] = [await element.boundingBox().catch(() => null), await scroller.boundingBox()];
  return !!box && !!view && box.y >= view.y - 1 && box.y + box.height <= view.y + view.height + 1;
}

/** Waits until the element is in the scroller's visible area. */
async function expectInView(element: Locator, scroller: Locator, what: string, timeoutMs = 5_000): Promise<void> {
  await waitFor(`${what} scrolled into view (it is rendered)`, () => inView(element, scroller), timeoutMs, 100);
}

async function shot(wb: () => Workbench, name: string): Promise<void> {
  console.log(`      screenshot: ${await wb().screenshot(name)}`);
}

describe('Chat panel', function () {
  const wb = useWorkbench({ sessions: 5, turns: TURNS });
  const dialogs: string[] = [];
  let sessions: SeededSession[];

  /**
   * The chat of the session at `index`, opened from the Sessions view and attached (Send
   * enabled): each test has its own session, so any of them can run alone or in any order.
   */
  async function openChat(index: number): Promise<FrameLocator> {
    const { page } = wb();
    const session = sessions[index]!;
    await openSessionsView(page);
    const row = treeRow(page, titleOf(session));
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.click();
    await page
      .locator('.tabs-container .tab.active', { hasText: titleOf(session).slice(0, 40) })
      .waitFor({ state: 'visible', timeout: 30_000 });
    const frame = chatFrame(page);
    // A string, not a pattern: Playwright matches strings with white space normalised, as the title shows it.
    await frame.locator('header .title', { hasText: titleOf(session) }).waitFor({ timeout: 30_000 });
    await frame.locator('button.send:not([disabled])').waitFor({ state: 'visible', timeout: 60_000 });
    return frame;
  }

  before(() => {
    sessions = seededSessions(wb().fixture.storeDir, wb().fixture.folders[0]!);
    // Any alert/confirm/prompt from any frame would be script the agent managed to run.
    wb().page.on('dialog', (dialog: Dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
  });

  it('clicking a session row opens its chat with the history replayed', async () => {
    const started = Date.now();
    const { page } = wb();
    await openSessionsView(page);
    await widenSideBar(page, 420);
    const session = sessions[0]!;
    const row = treeRow(page, titleOf(session));
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.click();

    await page
      .locator('.tabs-container .tab', { hasText: titleOf(session).slice(0, 40) })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    const frame = chatFrame(page);
    await frame.locator('header .title').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await frame.locator('header .title').innerText()).replace(/\s+/g, ' ').trim(), titleOf(session));

    // The end of the history is on screen: the last turn's prompt and the agent's answer.
    const last = turnTexts(session, 0, TURNS - 1);
    await frame.locator('.msg-user', { hasText: last.user }).last().waitFor({ state: 'visible', timeout: 30_000 });
    await frame.locator('.msg-agent', { hasText: last.agent }).last().waitFor({ state: 'visible', timeout: 30_000 });
    // Scrolling up with the wheel brings the first turn's prompt into view.
    const first = turnTexts(session, 0, 0);
    const thread = frame.locator('.thread');
    const firstUser = frame.locator('.msg-user', { hasText: first.user }).first();
    await thread.hover();
    for (let i = 0; i < 40 && !(await inView(firstUser, thread)); i++) {
      await page.mouse.wheel(0, -400);
      await page.waitForTimeout(50);
    }
    assert.ok(await inView(firstUser, thread), `the first prompt ("${first.user}") scrolled into view`);
    await shot(wb, 'e2e-chat-replayed');
    console.log(`      opened and replayed in ${since(started)}`);
  });

  it('Enter in the composer sends the prompt and the streamed reply appears', async () => {
    const { page } = wb();
    const frame = await openChat(1);
    // The reader has scrolled up to the first turn before sending.
    const thread = frame.locator('.thread');
    const firstUser = frame.locator('.msg-user', { hasText: turnTexts(sessions[1]!, 1, 0).user }).first();
    await thread.hover();
    for (let i = 0; i < 40 && !(await inView(firstUser, thread)); i++) await page.mouse.wheel(0, -400);
    await expectInView(firstUser, thread, 'the first prompt');
    const started = Date.now();
    const prompt = 'Hello from the end-to-end test, please echo this line';
    await send(frame, prompt);

    await frame.locator('.msg-user', { hasText: prompt }).waitFor({ state: 'visible', timeout: 10_000 });
    const reply = frame.locator('.msg-agent', { hasText: 'You said:' }).last();
    await reply.waitFor({ state: 'visible', timeout: 30_000 });
    await frame
      .locator('.msg-agent', { hasText: 'Try a prompt with' })
      .last()
      .waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok((await reply.innerText()).includes(prompt), 'the agent echoes the prompt');
    // The reader had scrolled up to the first turn; sending takes them to what they sent and
    // to the answer, as every chat does (not merely rendered somewhere below the fold).
    await expectInView(frame.locator('.msg-agent', { hasText: 'Try a prompt with' }).last(), thread, 'the reply');
    assert.equal(
      await frame.locator('textarea.composer-input').inputValue(),
      '',
      'the composer is cleared after sending',
    );
    // The turn ends: the Send button is back and enabled.
    await frame.locator('button.send:not([disabled])').waitFor({ state: 'visible', timeout: 30_000 });
    await shot(wb, 'e2e-chat-prompt-reply');
    console.log(`      prompt answered in ${since(started)}`);
  });

  it('a permission request shows a card; clicking "Allow once" answers it', async () => {
    const frame = await openChat(2);
    const started = Date.now();
    await send(frame, 'Please ask for permission before editing');

    const card = frame.locator('.permission').last();
    await card.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(
      await card.locator('.permission-title').innerText(),
      /src\/protected\.ts/,
      'the card names what the agent wants to do',
    );
    for (const name of ['Allow once', 'Always allow', 'Reject', 'Dismiss']) {
      await card.getByRole('button', { name, exact: true }).waitFor({ state: 'visible', timeout: 5_000 });
    }
    await shot(wb, 'e2e-chat-permission-card');

    await card.getByRole('button', { name: 'Allow once', exact: true }).click();
    await frame
      .locator('.permission-outcome', { hasText: 'Allow once' })
      .last()
      .waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(
      await card.getByRole('button', { name: 'Reject' }).count(),
      0,
      'an answered card offers no more buttons',
    );
    const outcome = frame.locator('.msg-agent', { hasText: 'Permission outcome' }).last();
    await outcome.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await outcome.innerText(), /selected\s+allow-once\s+— the edit was made/);
    await shot(wb, 'e2e-chat-permission-answered');
    console.log(`      permission answered in ${since(started)}`);
  });

  it('hostile Markdown ("xss") is shown as inert text: nothing runs, no live HTML', async () => {
    const { page } = wb();
    const frame = await openChat(3);
    const started = Date.now();
    await send(frame, 'show me the xss reply');

    const reply = frame.locator('.msg-agent', { hasText: 'Hostile content' }).last();
    await reply.waitFor({ state: 'visible', timeout: 30_000 });
    await reply.locator('pre', { hasText: 'this one is only code' }).waitFor({ state: 'visible', timeout: 30_000 });
    // Open the collapsed thought too: its text carries an <img onerror>.
    const thought = frame.locator('details.msg-thought').last();
    await thought.locator('summary').click();
    await thought.getByText('onerror', { exact: false }).waitFor({ state: 'visible', timeout: 10_000 });
    // What could run script (an element with a handler, a script, an image) is looked for
    // below: none exists, so nothing is left to fire later.

    const report = await frame.locator('body').evaluate(() => {
      const thread = document.querySelector('.thread-list') ?? document.body;
      const handlers = [...thread.querySelectorAll('*')].filter((e) =>
        [...e.attributes].some((a) => /^on/i.test(a.name)),
      );
      const links = [...thread.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '');
      const w = window as unknown as Record<string, unknown>;
      return {
        pwned: w.__acpPwned ?? w.__pwned ?? null,
        live: [...thread.querySelectorAll('script, img, iframe, svg, style, object, embed')].map((e) =>
          e.outerHTML.slice(0, 80),
        ),
        handlers: handlers.map((e) => e.outerHTML.slice(0, 80)),
        badLinks: links.filter((h) => /^\s*(javascript|data|vbscript):/i.test(h)),
        bodyHidden: getComputedStyle(document.body).display === 'none',
        text: (thread as HTMLElement).innerText,
      };
    });
    assert.equal(report.pwned, null, 'no injected script ran in the webview');
    assert.deepEqual(report.live, [], 'no live script, image, frame, svg or style element in the thread');
    assert.deepEqual(report.handlers, [], 'no event handler attributes in the thread');
    assert.deepEqual(report.badLinks, [], 'no javascript: or data: links');
    assert.equal(report.bodyHidden, false, 'an injected <style> did not hide the page');
    // Raw HTML is shown as text, so the user sees what the agent sent.
    assert.ok(report.text.includes('<script>window.__acpPwned = true'), 'the <script> is visible as text');
    assert.equal(
      await page.evaluate(() => (window as unknown as Record<string, unknown>).__acpPwned ?? null),
      null,
      'nothing ran in the workbench',
    );
    assert.deepEqual(dialogs, [], 'no alert, confirm or prompt dialog opened');
    await shot(wb, 'e2e-chat-xss-inert');
    console.log(`      hostile reply checked in ${since(started)}`);
  });
});
