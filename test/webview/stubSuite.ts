/**
 * A long thread sent as the chat panel sends it (`EntryWindow`): whole near the reader, stubs
 * elsewhere. The page shows the end at once, asks for the stubs it renders when the reader
 * scrolls, fills the rest in while idle, and find then counts the whole thread.
 */
import * as assert from 'node:assert/strict';
import { EntryWindow, FOLLOW_TAIL } from '../../src/chat/entryWindow';
import { packEntries, type ThreadChange, type ThreadEntry } from '../../src/protocol/entries';
import {
  changedEvent,
  fetchEntriesRequest,
  revealEntryEvent,
  snapshotEvent,
  viewportChangedEvent,
} from '../../src/protocol/messages';
import { snapshotOf } from './fixtures';
import { WebviewPage, type SuiteEnv } from './harness';

/** 1,500 turns; "needle" only in the user message of turns 2, 700 and 1,400. */
function thread(): ThreadEntry[] {
  const entries: ThreadEntry[] = [];
  for (let turn = 0; turn < 1500; turn++) {
    const special = turn === 2 || turn === 700 || turn === 1400 ? ' Find the needle.' : '';
    entries.push({ type: 'user', text: `Question ${turn}.${special}`, attachments: [], done: true });
    entries.push({ type: 'agent', text: `Answer ${turn}: ${'words '.repeat(40)}`, attachments: [], done: true });
  }
  return entries;
}

/** The host's side, as ChatPanel plays it: a window over the thread, stubs and all. */
class StubHost {
  readonly window = new EntryWindow();
  readonly fetched: { from: number; to: number }[] = [];
  /** While set, fetches wait (the page is "busy") so the test sees stubs. */
  hold: Promise<void> | undefined;

  constructor(
    private readonly view: WebviewPage,
    readonly entries: ThreadEntry[],
  ) {
    view.host.onNotification(viewportChangedEvent, ({ from, to, follow }) => this.window.setView(from, to, follow));
    view.host.onRequest(fetchEntriesRequest, async ({ from, to }) => {
      await this.hold;
      this.fetched.push({ from, to });
      const taken = this.window.take(from, to, this.entries);
      await this.send(taken.changes);
      return taken.end;
    });
  }

  async snapshot(at?: number): Promise<void> {
    this.window.reset(at);
    // Packed as the panel sends it: runs of stubs as numbers.
    const snapshot = snapshotOf(packEntries(this.window.snapshot(this.entries)) as ThreadEntry[]);
    await this.view.host.sendNotification(snapshotEvent, snapshot);
  }

  async send(changes: ThreadChange[]): Promise<void> {
    await this.view.host.sendNotification(changedEvent, { changes: this.window.changes(changes, this.entries) });
  }
}

export function stubSuite(env: SuiteEnv): void {
  describe('a long thread sent as stubs', function () {
    this.timeout(60_000);
    let view: WebviewPage;
    let host: StubHost;
    const whole = () =>
      view.page.waitForFunction(() => document.querySelector<HTMLElement>('.thread')?.dataset.entries === 'whole');

    beforeEach(async () => {
      view = await WebviewPage.open(env.browser(), env.harness(), { height: 600 });
      host = new StubHost(view, thread());
    });
    afterEach(async () => {
      await view?.close();
    });

    it('shows the end at once, sent whole, and sends the rest only as stubs', async () => {
      let release!: () => void;
      host.hold = new Promise((done) => (release = done));
      await host.snapshot();
      await view.page.waitForSelector('.entry[data-index="2999"]:not(.entry-stub)');
      const shown = await view.page.$$eval('.entry:not(.entry-stub)', (nodes) =>
        nodes.map((n) => Number((n as HTMLElement).dataset.index)),
      );
      assert.ok(Math.min(...shown) >= 3000 - FOLLOW_TAIL, `whole entries rendered: ${String(shown)}`);
      assert.match(await view.page.innerText('.entry[data-index="2999"]'), /Answer 1499/);
      // Nothing whole far from the end until the page asks.
      assert.equal(host.window.holds(0), false);
      assert.equal(await view.page.getAttribute('.thread', 'data-entries'), 'partial');
      release();
      await whole();
      assert.ok(host.fetched.length > 1, 'filled in in several chunks');
      assert.ok(host.window.holds(0) && host.window.holds(1500));
    });

    it('brings whole the entries scrolled to, and find counts the whole thread once filled', async () => {
      let release!: () => void;
      host.hold = new Promise((done) => (release = done));
      await host.snapshot();
      await view.page.waitForSelector('.entry[data-index="2999"]:not(.entry-stub)');
      await view.page.evaluate(() => (document.querySelector('.thread')!.scrollTop = 0));
      // The stubs at the top are placeholders (busy), then the entries once the host answers.
      await view.page.waitForSelector('.entry-stub[data-index="0"][aria-busy="true"]');
      release();
      await view.page.waitForSelector('.entry[data-index="0"]:not(.entry-stub)');
      assert.match(await view.page.innerText('.entry[data-index="0"]'), /Question 0\./);
      await whole();
      await view.page.keyboard.press('Control+f');
      await view.page.keyboard.type('needle');
      await view.page.waitForFunction(() => document.querySelector('.find-count')?.textContent === '1 of 3');
    });

    it('opens on a search hit far up, still a stub: scrolled to it once whole, its words the current match', async () => {
      let release!: () => void;
      host.hold = new Promise((done) => (release = done));
      await host.snapshot();
      await view.page.waitForSelector('.entry[data-index="2999"]:not(.entry-stub)');
      // Turn 700's question, entry 1,400: a stub until the page asks for it.
      await view.host.sendNotification(revealEntryEvent, { index: 1400, words: ['needle'] });
      await view.page.waitForSelector('.entry-stub[data-index="1400"]');
      release();
      const shown = await view.page.waitForFunction(() => {
        const range = [...((CSS.highlights.get('acp-find-current') as Highlight | undefined) ?? [])][0] as
          Range | undefined;
        if (!range) return undefined;
        const box = range.getBoundingClientRect();
        const scroller = document.querySelector('.thread')!.getBoundingClientRect();
        if (box.top < scroller.top || box.bottom > scroller.bottom) return undefined;
        const entry = range.startContainer.parentElement!.closest<HTMLElement>('.entry')!;
        return { index: Number(entry.dataset.index), text: range.toString() };
      });
      assert.deepEqual(await shown.jsonValue(), { index: 1400, text: 'needle' });
      assert.match(
        (await view.page.locator('.find-count').textContent()) ?? '',
        /^\d+ of \d+$/,
        'a current match, counted',
      );
    });

    it('reopens where the reader was: the host sends that part whole and later changes to it', async () => {
      await view.close();
      view = await WebviewPage.open(env.browser(), env.harness(), {
        height: 600,
        state: { anchor: { index: 1000, within: 0 } },
      });
      host = new StubHost(view, thread());
      host.hold = new Promise(() => {});
      const ready = await view.waitForRequest('ready');
      assert.deepEqual(ready.params, { at: 1000 });
      await host.snapshot(1000);
      await view.page.waitForSelector('.entry[data-index="1000"]:not(.entry-stub)');
      assert.match(await view.page.innerText('.entry[data-index="1000"]'), /Question 500\./);
      assert.equal(host.fetched.length, 0, 'nothing had to be asked for');
      host.entries[1001] = { type: 'agent', text: 'Edited in place.', attachments: [], done: true };
      await host.send([{ kind: 'entryChanged', index: 1001, entry: host.entries[1001] }]);
      await view.page.waitForFunction(() =>
        /Edited in place/.test(document.querySelector('.entry[data-index="1001"]')?.textContent ?? ''),
      );
      // Far from the reader, a change goes as a stub: the page never holds it whole unasked.
      host.entries[2900] = { type: 'agent', text: 'Far away.', attachments: [], done: true };
      await host.send([{ kind: 'entryChanged', index: 2900, entry: host.entries[2900] }]);
      assert.equal(host.window.holds(2900), false);
    });
  });
}
