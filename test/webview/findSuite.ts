/**
 * Find in the chat: Ctrl+F opens a bar that searches the whole thread (most of a long thread is
 * not in the DOM), counts the matches, steps through them with Enter and Shift+Enter, scrolls
 * each into view and highlights it, and closes with Escape without stopping the turn.
 */
import * as assert from 'node:assert/strict';
import type { ThreadEntry } from '../../src/protocol/entries';
import { revealEntryEvent, snapshotEvent } from '../../src/protocol/messages';
import { snapshotOf } from './fixtures';
import { frames, WebviewPage, type SuiteEnv } from './harness';

/** 600 turns; "needle" only in turns 3, 250 (twice) and 590, and in a thought in turn 400. */
function thread(): ThreadEntry[] {
  const entries: ThreadEntry[] = [];
  for (let turn = 0; turn < 600; turn++) {
    const special = turn === 3 || turn === 590 ? ' the needle is here.' : turn === 250 ? ' needle, and NEEDLE.' : '';
    entries.push({ type: 'user', text: `Question ${turn}: where is it?`, attachments: [], done: true });
    if (turn === 400) entries.push({ type: 'thought', text: 'thinking about the needle', attachments: [], done: true });
    entries.push({
      type: 'agent',
      text: `Answer ${turn}. Paragraph one of the answer.\n\nParagraph two,${special} and some **bold** words.`,
      attachments: [],
      done: true,
    });
  }
  return entries;
}

export function findSuite(env: SuiteEnv): void {
  describe('find in the chat', function () {
    this.timeout(60_000);
    let view: WebviewPage;

    beforeEach(async () => {
      view = await WebviewPage.open(env.browser(), env.harness(), { height: 600 });
      await view.host.sendNotification(snapshotEvent, snapshotOf(thread(), { status: { state: 'prompting' } }));
      await view.page.waitForSelector('.entry');
      await frames(view, 3);
    });
    afterEach(async () => {
      await view?.close();
    });

    /** The entry the current match is in and its highlighted text, once it is painted in view. */
    async function current(): Promise<{ index: number; text: string }> {
      const handle = await view.page.waitForFunction(() => {
        const range = [...((CSS.highlights.get('acp-find-current') as Highlight | undefined) ?? [])][0] as
          Range | undefined;
        if (!range) return undefined;
        const entry = range.startContainer.parentElement!.closest<HTMLElement>('.entry')!;
        const box = range.getBoundingClientRect();
        const scroller = document.querySelector('.thread')!.getBoundingClientRect();
        if (box.top < scroller.top || box.bottom > scroller.bottom) return undefined;
        return { index: Number(entry.dataset.index), text: range.toString() };
      });
      return (await handle.jsonValue()) as { index: number; text: string };
    }
    async function stepTo(key: string, expected: string): Promise<void> {
      await view.page.keyboard.press(key);
      await view.page.waitForFunction((text) => document.querySelector('.find-count')?.textContent === text, expected);
    }

    it('finds in entries that are not rendered, counts, steps with Enter and Shift+Enter, and highlights', async () => {
      assert.ok((await view.page.locator('.entry').count()) < 200, 'most of the thread is not in the DOM');
      await view.page.click('.composer-input');
      await view.page.keyboard.press('Control+f');
      await view.page.waitForSelector('.find:not([hidden]) .find-input:focus');
      await view.page.keyboard.type('needle');
      // From where the reader is (the bottom), forward, wrapping: the first match.
      await view.page.waitForFunction(() => document.querySelector('.find-count')?.textContent === '1 of 5');
      let at = await current();
      assert.deepEqual(at, { index: 7, text: 'needle' }, 'far up the thread, scrolled into view');
      await stepTo('Enter', '2 of 5');
      assert.deepEqual(await current(), { index: 501, text: 'needle' });
      await stepTo('Enter', '3 of 5');
      assert.deepEqual(await current(), { index: 501, text: 'NEEDLE' }, 'case-insensitive, in order');
      await stepTo('Enter', '4 of 5');
      at = await current();
      assert.equal(at.index, 801, 'a match in a collapsed thought opens it');
      assert.equal(await view.page.locator('.entry[data-index="801"] details[open]').count(), 1);
      await stepTo('Enter', '5 of 5');
      assert.deepEqual(await current(), { index: 1182, text: 'needle' });
      await stepTo('Enter', '1 of 5');
      assert.equal((await current()).index, 7, 'wraps around');
      await stepTo('Shift+Enter', '5 of 5');
      assert.equal((await current()).index, 1182);
      await stepTo('Shift+Enter', '4 of 5');
      await stepTo('Shift+Enter', '3 of 5');
      assert.deepEqual(await current(), { index: 501, text: 'NEEDLE' });
      // Both matches in the entry on screen are highlighted, and nothing else.
      const painted = await view.page
        .waitForFunction(() => CSS.highlights.get('acp-find')?.size === 2, undefined, { timeout: 5_000 })
        .then(
          () => 2,
          () => view.page.evaluate(() => CSS.highlights.get('acp-find')?.size),
        );
      assert.equal(painted, 2, 'every match on screen is highlighted');
      await view.page.screenshot({ path: 'test-results/webview-find.png' });

      await view.page.keyboard.press('Escape');
      await view.page.waitForSelector('.find', { state: 'hidden' });
      assert.equal(view.requests.filter((r) => r.method === 'cancelTurn').length, 0, 'Escape closed find only');
      assert.equal(await view.page.evaluate(() => CSS.highlights.has('acp-find')), false);
      assert.equal(await view.page.evaluate(() => document.activeElement?.className), 'composer-input');
    });

    it('says when nothing matches, and searches the page selection', async () => {
      await view.page.keyboard.press('Control+f');
      await view.page.keyboard.type('haystack');
      await view.page.waitForFunction(() => document.querySelector('.find-count')?.textContent === 'No results');
      assert.equal(await view.page.locator('.find.no-results').count(), 1);
      await view.page.keyboard.press('Escape');
      await view.page.evaluate(() => {
        const strong = [...document.querySelectorAll('.msg-agent strong')].at(-1)!;
        getSelection()!.selectAllChildren(strong);
      });
      await view.page.keyboard.press('Control+f');
      assert.equal(await view.page.inputValue('.find-input'), 'bold');
      await view.page.waitForFunction(() => document.querySelector('.find-count')?.textContent?.endsWith('of 600'));
    });

    it('opens on a search hit: scrolled to its entry far up the thread, its words highlighted', async () => {
      // The hit is in turn 250's answer (entry 501): the words as typed, from that entry on.
      await view.host.sendNotification(revealEntryEvent, { index: 501, words: ['needle', 'nowhere'] });
      await view.page.waitForSelector('.find:not([hidden])');
      assert.deepEqual(await current(), { index: 501, text: 'needle' }, 'the first word the entry holds');
      assert.equal(await view.page.locator('.find-count').textContent(), '2 of 5');
      assert.equal(
        await view.page.evaluate(() => document.activeElement?.classList.contains('find-input')),
        false,
        'the focus stays where it was',
      );
      // Words typed together, held together by the entry: found as they were typed.
      await view.host.sendNotification(revealEntryEvent, { index: 1182, words: ['the', 'needle'] });
      assert.deepEqual(await currentAt(1182), { index: 1182, text: 'the needle' });
    });

    it('shows a kept copy read-only: the reason in a banner, the message box disabled saying so, the hit revealed', async () => {
      const why =
        'Reference Agent no longer lists this session: this is the copy the session library keeps, read-only.';
      await view.host.sendNotification(
        snapshotEvent,
        snapshotOf(thread(), { status: { state: 'readOnly', message: why } }),
      );
      await view.host.sendNotification(revealEntryEvent, { index: 501, words: ['needle'] });
      assert.deepEqual(await current(), { index: 501, text: 'needle' }, 'scrolled to the hit, highlighted');
      assert.equal(await view.page.textContent('.banner.read-only .banner-message'), why);
      assert.equal(await view.page.isDisabled('.composer-input'), true, 'nothing can be typed');
      assert.equal(await view.page.getAttribute('.composer-input', 'placeholder'), why);
      assert.equal(await view.page.isDisabled('.send'), true);
    });

    /** The current match once it is in the entry given. */
    async function currentAt(index: number): Promise<{ index: number; text: string }> {
      for (;;) {
        const at = await current();
        if (at.index === index) return at;
        await frames(view, 1);
      }
    }
  });
}
