/**
 * A chat opened on a search hit paints the hit's message first, from the host's HTML, before its
 * script and stylesheet load (src/chat/firstScreen.ts). The page is built as the panel builds it;
 * the screen must show the words in view at once, hand over to the chat without a gap, go when
 * the hit will not come or the user acts, never come back on a page shown again, and run or fetch
 * nothing of the agent's text.
 */
import * as assert from 'node:assert/strict';
import { renderFirstScreen } from '../../src/chat/firstScreen';
import type { ThreadEntry } from '../../src/protocol/entries';
import { revealEntryEvent, revealMissedEvent, snapshotEvent } from '../../src/protocol/messages';
import { snapshotOf } from './fixtures';
import { WebviewPage, type SuiteEnv } from './harness';

/** 400 entries; the hit, "zanzibar", far up in entry 151, below a long paragraph. */
const HIT = 151;
function thread(): ThreadEntry[] {
  return Array.from({ length: 400 }, (_, i): ThreadEntry => {
    if (i % 2 === 0) return { type: 'user', text: `Question ${i}: where is it?`, attachments: [], done: true };
    const long = 'A line of the answer that says nothing in particular. '.repeat(i === HIT ? 40 : 2);
    const word = i === HIT ? ' It was the **zanzibar** quill, and zanzibar again.' : '';
    return { type: 'agent', text: `Answer ${i}. ${long}\n\nThe end of it.${word}`, attachments: [], done: true };
  });
}

/** Where the first screen's current match is, and whether the screen covers the page. */
function screenState(): { shown: boolean; top?: number; bottom?: number; text?: string; covers?: boolean } {
  const screen = document.getElementById('first-screen');
  const mark = screen?.querySelector('mark.current');
  if (!screen || !mark) return { shown: false };
  const box = mark.getBoundingClientRect();
  const whole = screen.getBoundingClientRect();
  return {
    shown: true,
    top: box.top,
    bottom: box.bottom,
    text: mark.textContent ?? '',
    covers: whole.top === 0 && whole.height === innerHeight && whole.width === innerWidth,
  };
}

export function firstScreenSuite(env: SuiteEnv): void {
  describe('the first screen of a chat opened on a search hit', function () {
    this.timeout(60_000);
    let view: WebviewPage | undefined;
    afterEach(async () => {
      await view?.close();
      view = undefined;
    });

    async function open(entry: ThreadEntry, options: { state?: unknown } = {}): Promise<WebviewPage> {
      const firstScreen = await renderFirstScreen(entry, ['zanzibar']);
      assert.ok(firstScreen);
      view = await WebviewPage.open(env.browser(), env.harness(), { height: 500, firstScreen, ...options });
      return view;
    }

    it('shows the hit’s words a third of the way down before the chat has its thread, then hands over to the chat’s own highlight', async () => {
      const page = (await open(thread()[HIT]!)).page;
      // The chat's script ran (it asked for its thread) and nothing of the thread is there yet.
      const first = await page.evaluate(screenState);
      assert.equal(first.shown, true);
      assert.equal(first.text, 'zanzibar');
      assert.equal(first.covers, true, 'over the whole page');
      assert.ok(first.top! > 500 / 6 && first.bottom! < 500, `the current match a third of the way down: ${first.top}`);
      assert.equal(await page.locator('.entry[data-index]').count(), 0);
      await page.screenshot({ path: 'test-results/webview-first-screen.png' });
      assert.equal(await page.evaluate(() => performance.getEntriesByName('acp.firstScreen').length), 1);

      // Whenever the screen goes, the chat's own highlight of the words is in view already.
      await page.evaluate(() => {
        const w = window as unknown as { __handover?: string };
        new MutationObserver((_, observer) => {
          if (document.getElementById('first-screen')) return;
          observer.disconnect();
          const range = [...((CSS.highlights.get('acp-find-current') as Highlight | undefined) ?? [])][0] as
            Range | undefined;
          const box = range?.getBoundingClientRect();
          const entry = range?.startContainer.parentElement?.closest<HTMLElement>('.entry');
          w.__handover =
            range && box && box.top >= 0 && box.bottom <= innerHeight
              ? `${entry?.dataset.index}:${range.toString()}`
              : 'the chat showed no highlight in view';
        }).observe(document.body, { childList: true });
      });
      await view!.host.sendNotification(snapshotEvent, snapshotOf(thread()));
      await view!.host.sendNotification(revealEntryEvent, { index: HIT, words: ['zanzibar'] });
      await page.waitForFunction(() => (window as unknown as { __handover?: string }).__handover);
      assert.equal(
        await page.evaluate(() => (window as unknown as { __handover?: string }).__handover),
        `${HIT}:zanzibar`,
      );
      assert.equal(await page.locator('.find-count').textContent(), '1 of 2');
      await page.screenshot({ path: 'test-results/webview-first-screen-after.png' });
      assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), []);
    });

    it('goes when the host says the hit will not come, and at the user’s first click', async () => {
      let page = (await open(thread()[HIT]!)).page;
      await view!.host.sendNotification(snapshotEvent, snapshotOf(thread().slice(0, 20)));
      await page.waitForSelector('.entry[data-index]', { state: 'attached' });
      assert.equal((await page.evaluate(screenState)).shown, true, 'still up: the hit may yet come');
      await view!.host.sendNotification(revealMissedEvent);
      await page.waitForSelector('#first-screen', { state: 'detached' });
      assert.equal(await page.locator('.find:not([hidden])').count(), 0);
      await view!.close();

      page = (await open(thread()[HIT]!)).page;
      await page.mouse.click(200, 200);
      await page.waitForSelector('#first-screen', { state: 'detached' });
    });

    it('is not shown on a page shown again (its saved place wins)', async () => {
      const page = (await open(thread()[HIT]!, { state: { openThoughts: [] } })).page;
      assert.equal(await page.locator('#first-screen').count(), 0);
      assert.equal(await page.evaluate(() => performance.getEntriesByName('acp.firstScreen').length), 0);
    });

    it('runs, fetches and follows nothing of the agent’s text', async () => {
      const text = [
        'zanzibar <script>window.__pwned(1)</script> <img src=x onerror="window.__pwned(2)">',
        '[zanzibar](javascript:window.__pwned(3)) <a href="https://evil.example">x</a>',
        '![zanzibar](https://evil.example/pixel.png) <style>body{display:none}</style>',
      ].join('\n\n');
      const page = (await open({ type: 'agent', text, attachments: [], done: true })).page;
      assert.equal((await page.evaluate(screenState)).shown, true);
      const found = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwnedCalls: string[] }).__pwnedCalls,
        violations: (window as unknown as { __violations: string[] }).__violations,
        images: document.querySelectorAll('#first-screen img').length,
        addresses: document.querySelectorAll('#first-screen [href], #first-screen [src], #first-screen [style]').length,
        bodyShown: getComputedStyle(document.body).display !== 'none',
        fetched: performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => !n.startsWith(location.origin)),
      }));
      assert.deepEqual(found, { pwned: [], violations: [], images: 0, addresses: 0, bodyShown: true, fetched: [] });
    });
  });
}
