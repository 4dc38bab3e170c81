// A chat panel survives the window reloading: VS Code hands the webview's saved state to the
// extension's serializer, which attaches the session again with a load (the host held the
// thread, and a reload loses it), and the unsent draft comes back.
import * as assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, openSessionsView, runCommand, seededSessions, since, titleOf, treeRow } from './ui';

const TURNS = 2;

describe('Chat panel across a window reload', function () {
  const wb = useWorkbench({ sessions: 8, turns: TURNS });

  it('comes back with its history, each replayed message once, and the unsent draft', async function () {
    this.timeout(180_000);
    const { page, fixture } = wb();
    const started = Date.now();
    const session = seededSessions(fixture.storeDir, fixture.folders[0]!)[0]!;
    const title = titleOf(session);
    await openSessionsView(page);
    await treeRow(page, title).click();
    const frame = chatFrame(page);
    const before = await settledMessages(frame);
    assert.equal(before.filter((m) => m.startsWith('user:')).length, TURNS, before.join('\n'));
    assert.ok(before.filter((m) => m.startsWith('agent:')).length >= TURNS, before.join('\n'));

    const draft = 'a thought I have not sent yet';
    const sent = await watchStateSaves(page, draft);
    await frame.locator('textarea.composer-input').fill(draft);
    // The webview saves its state a moment after the last keystroke; once the workbench has
    // it, its own reload keeps it.
    await sent();

    // The workbench's own reload, as a person runs it: it saves its state (the webview's too)
    // before unloading, which a bare page reload does not wait for.
    const loaded = page.waitForEvent('load', { timeout: 60_000 });
    await runCommand(page, 'Developer: Reload Window');
    await loaded;
    await page.locator(SELECTORS.workbench).waitFor({ state: 'visible', timeout: 60_000 });
    // Tab titles are capped at 60 characters: match the beginning.
    await page
      .locator('.tabs-container .tab', { hasText: title.slice(0, 40) })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    const again = chatFrame(page);
    // The workbench restores the panel's webview after its tab: on a busy machine, many seconds after.
    await again.locator('textarea.composer-input').waitFor({ state: 'visible', timeout: 90_000 });
    assert.equal(await again.locator('textarea.composer-input').inputValue(), draft, 'the draft survived');
    const after = await settledMessages(again);
    assert.deepEqual(after, before, 'the history is loaded again, each message once, in order');
    console.log(
      `      reload restored the panel (${since(started)}); screenshot: ${await wb().screenshot('e2e-chat-after-reload')}`,
    );
  });
});

/**
 * The chat's messages ("user: …", "agent: …") once the session is attached and idle (Send is
 * enabled): a replay still under way, or a second one, would show in the list.
 */
async function settledMessages(frame: FrameLocator): Promise<string[]> {
  await frame.locator('.entry-user').first().waitFor({ state: 'visible', timeout: 60_000 });
  await frame.locator('.composer button.send:not([disabled])').waitFor({ state: 'attached', timeout: 60_000 });
  const entries = frame.locator('.entry-user, .entry-agent');
  const texts: string[] = [];
  for (let i = 0, n = await entries.count(); i < n; i++) {
    const entry = entries.nth(i);
    const kind = (await entry.getAttribute('class'))!.includes('entry-user') ? 'user' : 'agent';
    texts.push(`${kind}: ${(await entry.innerText()).replace(/\s+/g, ' ').trim()}`);
  }
  return texts;
}

/**
 * Resolves once the chat webview has handed its state holding `text` to the workbench. The
 * webview's frame forwards `setState` to the workbench over a MessagePort as "do-update-state";
 * the watch wraps that port's `postMessage` in the frame.
 */
async function watchStateSaves(page: Page, text: string): Promise<() => Promise<void>> {
  const handle = await page.locator('iframe.webview.ready').locator('visible=true').first().elementHandle();
  const frame = (await handle!.contentFrame())!;
  await frame.evaluate((wanted) => {
    const post = MessagePort.prototype.postMessage;
    const w = window as unknown as { __acpStateSaved?: boolean };
    MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, ...rest: never[]) {
      const m = message as { channel?: string; data?: unknown } | undefined;
      if (m?.channel === 'do-update-state' && String(m.data).includes(JSON.stringify(wanted).slice(1, -1)))
        w.__acpStateSaved = true;
      return post.call(this, message, ...rest);
    } as typeof post;
  }, text);
  return async () => {
    await frame.waitForFunction(() => (window as unknown as { __acpStateSaved?: boolean }).__acpStateSaved === true, {
      timeout: 10_000,
    });
  };
}
