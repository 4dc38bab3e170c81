/**
 * Speed: a 20,000-update replay (≈10 MB) streamed in batches as the host sends it, and the
 * same thread as one snapshot. Prints first paint, last entry, the longest task and the DOM size;
 * asserts only what does not depend on the machine: the DOM stays bounded and every end of the
 * thread is reachable by scrolling.
 */
import * as assert from 'node:assert/strict';
import type { ThreadChange, ThreadEntry } from '../../src/protocol/entries';
import { changedEvent, snapshotEvent } from '../../src/protocol/messages';
import { meta, replay, snapshotOf } from './fixtures';
import { WebviewPage, type SuiteEnv } from './harness';

const UPDATES = 20_000;
const PER_BATCH = 200;
const MAX_DOM_ELEMENTS = 5_000;

interface Timing {
  firstEntry: number;
  lastEntry: number;
  transport: number;
  longest: number;
  longTasks: number;
  maxDom: number;
  dom: number;
}

/** In the page: posts the frames one task apart, as the host's batches arrive, and times them. */
function run(args: { last: number; finalSelector: string; bare: boolean }): Promise<Timing> {
  const w = window as unknown as { __frames: unknown[]; __received: number[] };
  const frameList = w.__frames;
  w.__received = [];
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) =>
    list.getEntries().forEach((entry) => longTasks.push(entry.duration)),
  );
  observer.observe({ type: 'longtask' });
  return new Promise((resolve) => {
    const t0 = performance.now();
    let firstEntry = NaN;
    let lastEntry = NaN;
    let maxDom = 0;
    const list = document.querySelector('.thread-list');
    const mutations = new MutationObserver(() => {
      const now = performance.now() - t0;
      if (Number.isNaN(firstEntry) && list?.querySelector('.entry')) firstEntry = now;
      if (Number.isNaN(lastEntry) && list?.querySelector(`.entry[data-index="${args.last}"] ${args.finalSelector}`))
        lastEntry = now;
    });
    if (list) mutations.observe(list, { childList: true, subtree: true });
    const finish = (): void => {
      setTimeout(() => {
        observer.disconnect();
        mutations.disconnect();
        resolve({
          firstEntry,
          lastEntry,
          transport: w.__received[w.__received.length - 1] - t0,
          longest: Math.max(0, ...longTasks),
          longTasks: longTasks.length,
          maxDom,
          dom: document.getElementsByTagName('*').length,
        });
      }, 300);
    };
    const sample = (): void => {
      maxDom = Math.max(maxDom, document.getElementsByTagName('*').length);
      const done = args.bare ? w.__received.length === frameList.length : !Number.isNaN(lastEntry);
      if (done) finish();
      else requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
    let next = 0;
    const send = (): void => {
      window.postMessage(frameList[next++], '*');
      if (next < frameList.length) setTimeout(send, 0);
    };
    send();
  });
}

async function reachable(view: WebviewPage, last: number): Promise<void> {
  const page = view.page;
  // Heights are measured as entries render, so a scroll may land a little off at first: each
  // check scrolls again until the place is reached (as a reader would), within the wait's limit.
  await page.waitForFunction(
    () => {
      document.querySelector('.thread')?.scrollTo(0, 0);
      return !!document.querySelector('.entry[data-index="0"]');
    },
    undefined,
    { timeout: 10_000 },
  );
  await page.evaluate(() => {
    const thread = document.querySelector('.thread') as HTMLElement;
    thread.scrollTop = thread.scrollHeight / 2;
  });
  const inMiddle = (indices: number[]) => indices.length > 0 && Math.min(...indices) > 0 && Math.max(...indices) < last;
  const middle = await page
    .waitForFunction(
      (last) => {
        const indices = [...document.querySelectorAll<HTMLElement>('.entry')].map((n) => Number(n.dataset.index));
        return indices.length > 0 && Math.min(...indices) > 0 && Math.max(...indices) < last && indices;
      },
      last,
      { timeout: 10_000 },
    )
    .then(
      async (handle) => (await handle.jsonValue()) as number[],
      () => page.$$eval('.entry', (nodes) => nodes.map((n) => Number((n as HTMLElement).dataset.index))),
    );
  assert.ok(inMiddle(middle), `a middle range renders: ${middle[0]}…${middle[middle.length - 1]}`);
  const visible = await page
    .waitForFunction(
      (index) => {
        const thread = document.querySelector('.thread') as HTMLElement;
        thread.scrollTop = thread.scrollHeight;
        const box = thread.getBoundingClientRect();
        const node = document.querySelector(`.entry[data-index="${index}"]`)?.getBoundingClientRect();
        return !!node && node.bottom <= box.bottom + 2 && node.bottom > box.top;
      },
      last,
      { timeout: 10_000 },
    )
    .then(
      () => true,
      () => false,
    );
  assert.ok(visible, 'the last entry is visible at the bottom');
}

export function replaySuite(env: SuiteEnv): void {
  describe('a 20,000-update replay', function () {
    this.timeout(240_000);
    const { batches, entries } = replay(UPDATES, PER_BATCH);
    const last = entries - 1;
    const json = JSON.stringify(batches.map((changes) => ({ jsonrpc: '2.0', method: 'changed', params: { changes } })));
    const megabytes = (json.length / 1e6).toFixed(1);

    it(`streams ${UPDATES} updates (${batches.length} batches) with a bounded DOM`, async () => {
      const bare = await env.browser().newPage();
      await bare.goto(`${env.harness().origin}/?bare=1`);
      await bare.evaluate((text) => ((window as unknown as { __frames: unknown }).__frames = JSON.parse(text)), json);
      const raw = await bare.evaluate(run, { last, finalSelector: '', bare: true });
      await bare.close();

      const view = await WebviewPage.open(env.browser(), env.harness());
      try {
        await view.host.sendNotification(
          snapshotEvent,
          snapshotOf([], { status: { state: 'loading', received: 0 }, meta: { ...meta, title: 'Replay' } }),
        );
        await view.page.waitForSelector('.status-line.loading');
        await view.page.evaluate(
          (text) => ((window as unknown as { __frames: unknown }).__frames = JSON.parse(text)),
          json,
        );
        const timing = await view.page.evaluate(run, { last, finalSelector: '.tool-completed', bare: false });
        console.log(
          `      replay: ${UPDATES} updates, ${megabytes} MB, ${entries} entries; raw transport ${raw.transport.toFixed(0)} ms; ` +
            `transport with the webview ${timing.transport.toFixed(0)} ms; first entry ${timing.firstEntry.toFixed(0)} ms; ` +
            `last entry ${timing.lastEntry.toFixed(0)} ms (${(timing.lastEntry / raw.transport).toFixed(2)}× raw); ` +
            `longest task ${timing.longTasks ? `${timing.longest.toFixed(0)} ms (${timing.longTasks} over 50 ms)` : 'none over 50 ms'}; ` +
            `DOM ${timing.dom} elements (max ${timing.maxDom})`,
        );
        assert.ok(!Number.isNaN(timing.lastEntry), 'the last entry rendered');
        assert.ok(
          timing.maxDom < MAX_DOM_ELEMENTS,
          `DOM stayed under ${MAX_DOM_ELEMENTS} elements (max ${timing.maxDom})`,
        );
        await reachable(view, last);
      } finally {
        await view.close();
      }
    });

    it('shows the same thread from one snapshot', async () => {
      const view = await WebviewPage.open(env.browser(), env.harness());
      try {
        // The thread as the host holds it after the replay: apply the changes in Node.
        const thread: ThreadEntry[] = [];
        for (const batch of batches) {
          for (const change of batch) {
            if (change.kind === 'entryAdded' || change.kind === 'entryChanged') thread[change.index] = change.entry;
            else if (change.kind === 'textAppended') (thread[change.index] as { text: string }).text += change.text;
          }
        }
        const frame = {
          jsonrpc: '2.0',
          method: 'snapshot',
          params: snapshotOf(thread, { meta: { ...meta, title: 'Snapshot' } }),
        };
        await view.page.evaluate(
          (text) => ((window as unknown as { __frames: unknown }).__frames = [JSON.parse(text)]),
          JSON.stringify(frame),
        );
        const timing = await view.page.evaluate(run, { last, finalSelector: '.tool-completed', bare: false });
        console.log(
          `      snapshot: ${entries} entries; first entry ${timing.firstEntry.toFixed(0)} ms after posting; ` +
            `longest task ${timing.longTasks ? `${timing.longest.toFixed(0)} ms` : 'none over 50 ms'}; DOM ${timing.dom} elements`,
        );
        assert.ok(timing.maxDom < MAX_DOM_ELEMENTS);
        await reachable(view, last);
      } finally {
        await view.close();
      }
    });
  });
}

const REPLY_CHUNKS = 2_000;
const LINE = 'This is one line of a very long reply, repeated to fill one mebibyte of text.\n';

/** A 1 MiB reply as an agent streams it: the host's batches, one chunk each, then its end. */
function longReply(shape: 'paragraph' | 'fence'): { frames: unknown[]; lines: number } {
  const lines = Math.ceil((1024 * 1024) / LINE.length);
  const body = LINE.repeat(lines);
  const text = shape === 'fence' ? `Here is the file:\n\n\`\`\`text\n${body}\`\`\`\n` : `# A long reply\n\n${body}`;
  const size = Math.ceil(text.length / REPLY_CHUNKS);
  const changes: ThreadChange[][] = [
    [{ kind: 'entryAdded', index: 1, entry: { type: 'agent', text: '', attachments: [], done: false } }],
  ];
  for (let at = 0; at < text.length; at += size)
    changes.push([{ kind: 'textAppended', index: 1, text: text.slice(at, at + size) }]);
  // The host says only that it ended: the text is not sent again.
  changes.push([{ kind: 'messageEnded', index: 1 }]);
  return { frames: changes.map((c) => ({ jsonrpc: '2.0', method: 'changed', params: { changes: c } })), lines };
}

export function longReplySuite(env: SuiteEnv): void {
  describe('a 1 MiB reply streamed in 2,000 chunks', function () {
    this.timeout(240_000);
    for (const shape of ['paragraph', 'fence'] as const) {
      it(`shows all of it, as ${shape === 'fence' ? 'one code block' : 'one long paragraph'}, the tail growing without re-laying out what is shown`, async () => {
        const { frames: list, lines } = longReply(shape);
        const json = JSON.stringify(list);
        const bare = await env.browser().newPage();
        await bare.goto(`${env.harness().origin}/?bare=1`);
        await bare.evaluate((text) => ((window as unknown as { __frames: unknown }).__frames = JSON.parse(text)), json);
        const raw = await bare.evaluate(run, { last: 1, finalSelector: '', bare: true });
        await bare.close();
        const view = await WebviewPage.open(env.browser(), env.harness());
        try {
          const user: ThreadEntry = { type: 'user', text: 'long', attachments: [], done: true };
          await view.host.sendNotification(
            snapshotEvent,
            snapshotOf([user], { meta: { ...meta, title: 'Long reply' } }),
          );
          await view.page.waitForSelector('.entry[data-index="0"]');
          await view.page.evaluate(
            (text) => ((window as unknown as { __frames: unknown }).__frames = JSON.parse(text)),
            json,
          );
          const timing = await view.page.evaluate(run, {
            last: 1,
            finalSelector: '.md:not(.md-streaming)',
            bare: false,
          });
          console.log(
            `      ${shape}: ${REPLY_CHUNKS} chunks, ${lines} lines; finished entry shown ${timing.lastEntry.toFixed(0)} ms after the first chunk ` +
              `(raw transport ${raw.transport.toFixed(0)} ms, ${(timing.lastEntry / raw.transport).toFixed(2)}×); longest task ${timing.longTasks ? `${timing.longest.toFixed(0)} ms (${timing.longTasks} over 50 ms)` : 'none over 50 ms'}`,
          );
          assert.ok(!Number.isNaN(timing.lastEntry), 'the finished reply rendered');
          const shown = await view.page.$eval(
            '.entry[data-index="1"] .md',
            (node) => (node.textContent ?? '').split('repeated to fill').length - 1,
          );
          assert.equal(shown, lines, 'every line of the reply is shown');
          if (shape === 'fence')
            assert.ok(
              await view.page.$('.entry[data-index="1"] pre.code-streamed'),
              'the code block shown while it streamed is kept when its fence closes, not parsed again',
            );
        } finally {
          await view.close();
        }
      });
    }

    it('shows a burst of text over a few frames rather than in one long layout, and all of it in the end', async () => {
      const view = await WebviewPage.open(env.browser(), env.harness());
      try {
        const user: ThreadEntry = { type: 'user', text: 'burst', attachments: [], done: true };
        const agent: ThreadEntry = { type: 'agent', text: 'Start.\n\n', attachments: [], done: false };
        await view.host.sendNotification(snapshotEvent, snapshotOf([user, agent], { status: { state: 'prompting' } }));
        await view.page.waitForSelector('.entry[data-index="1"] .md-streaming');
        // 768 KiB of paragraphs in one batch, as a slow frame or a fast agent delivers them.
        const paragraph = `${'A sentence of the burst. '.repeat(40)}\n\n`;
        const burst = paragraph.repeat(Math.ceil((768 * 1024) / paragraph.length));
        const paragraphs = burst.split('\n\n').length - 1;
        await view.page.evaluate(() => {
          const w = window as unknown as { __long: number[] };
          w.__long = [];
          new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({
            type: 'longtask',
          });
        });
        await view.host.sendNotification(changedEvent, { changes: [{ kind: 'textAppended', index: 1, text: burst }] });
        // Counted in the page as soon as a frame shows more than one (no round trip in between).
        const first = (await (
          await view.page.waitForFunction(() => {
            const n = document.querySelectorAll('.entry[data-index="1"] .md-done > p').length;
            return n > 1 && n;
          })
        ).jsonValue()) as number;
        assert.ok(first < paragraphs / 4, `the first frame showed ${first} of ${paragraphs} paragraphs`);
        await view.page.waitForFunction(
          (n) => document.querySelectorAll('.entry[data-index="1"] .md-done > p').length >= n,
          paragraphs,
          { timeout: 30_000 },
        );
        const long = await view.page.evaluate(() => (window as unknown as { __long: number[] }).__long);
        console.log(
          `      burst: ${paragraphs} paragraphs (768 KiB) shown from ${first} in the first frame; long tasks ${long.length ? long.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}`,
        );
        // Ended: what is shown is completed in place, every paragraph there once.
        await view.host.sendNotification(changedEvent, {
          changes: [
            { kind: 'entryChanged', index: 1, entry: { ...agent, text: agent.text + burst + 'End.', done: true } },
          ],
        });
        await view.page.waitForSelector('.entry[data-index="1"] .md:not(.md-streaming)');
        const text = await view.page.$eval('.entry[data-index="1"] .md', (node) => node.textContent ?? '');
        assert.equal(text.split('A sentence of the burst.').length - 1, paragraphs * 40);
        assert.ok(text.trimEnd().endsWith('End.'), JSON.stringify(text.slice(-80)));
      } finally {
        await view.close();
      }
    });
  });
}
