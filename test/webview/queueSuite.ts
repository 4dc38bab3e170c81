/**
 * Follow-ups while the agent works: Enter during a turn hands the message to the host, which
 * queues it; the queue the host sends shows above the composer, each message editable and
 * removable until it is sent, and sendable at once after a Stop paused the queue.
 */
import * as assert from 'node:assert/strict';
import type { QueueState } from '../../src/protocol/messages';
import { capabilitiesChangedEvent, changedEvent, queueChangedEvent, snapshotEvent } from '../../src/protocol/messages';
import { capabilities, everyKind, snapshotOf } from './fixtures';
import { frames, WebviewPage, type SuiteEnv } from './harness';

const queued = (paused: boolean, ...texts: string[]): QueueState => ({
  items: texts.map((text, i) => ({ id: `q${i + 1}`, text, editing: false })),
  paused,
});

export function queueSuite(env: SuiteEnv): void {
  describe('queued follow-ups', function () {
    this.timeout(60_000);
    let view: WebviewPage;

    beforeEach(async () => {
      view = await WebviewPage.open(env.browser(), env.harness());
      await view.host.sendNotification(
        snapshotEvent,
        snapshotOf(everyKind, { status: { state: 'prompting' } }, { canPrompt: false, canQueue: true }),
      );
      await view.page.waitForSelector('.title:not(:empty)');
      await frames(view);
    });
    afterEach(async () => {
      await view?.close();
    });

    const rows = () => view.page.locator('.queue-item .queue-text').allTextContents();
    const requests = (method: string) => view.requests.filter((r) => r.method === method).map((r) => r.params);

    it('queues a message typed during a turn and shows the queue the host keeps', async () => {
      assert.equal(await view.page.isVisible('.stop'), true);
      assert.equal(await view.page.textContent('.send .button-label'), 'Queue', 'Send becomes Queue beside Stop');
      assert.match((await view.page.getAttribute('.composer-input', 'placeholder')) ?? '', /Queue a follow-up/);
      await view.page.click('.composer-input');
      await view.page.keyboard.type('and add tests');
      await view.page.keyboard.press('Enter');
      assert.deepEqual((await view.waitForRequest('sendPrompt')).params, { text: 'and add tests' });
      assert.equal(await view.page.inputValue('.composer-input'), '', 'the composer is free for the next one');
      assert.equal(await view.page.isHidden('.queue'), true, 'nothing shows until the host says it is queued');
      await view.host.sendNotification(queueChangedEvent, queued(false, 'and add tests', 'then update the README'));
      await view.page.waitForSelector('.queue-item');
      assert.deepEqual(await rows(), ['and add tests', 'then update the README']);
      assert.match(
        (await view.page.textContent('.queue-title')) ?? '',
        /2 queued messages — sent when the agent finishes/,
      );
      assert.equal(await view.page.locator('.queue-send').count(), 0, 'no Send now while the turn runs');
      await view.page.screenshot({ path: 'test-results/webview-queue.png' });
      // Sent: the host drops it from the queue as its prompt enters the thread.
      await view.host.sendNotification(queueChangedEvent, queued(false, 'then update the README'));
      await view.page.waitForFunction(() => document.querySelectorAll('.queue-item').length === 1);
      await view.host.sendNotification(queueChangedEvent, queued(false));
      await view.page.waitForSelector('.queue', { state: 'hidden' });
    });

    it('edits a queued message in place, holding it while the editor is open, and removes one', async () => {
      await view.host.sendNotification(queueChangedEvent, queued(false, 'first', 'second'));
      await view.page.waitForSelector('.queue-item');
      await view.page.locator('.queue-item').first().locator('.queue-edit').click();
      assert.deepEqual((await view.waitForRequest('updateQueued')).params, { id: 'q1', editing: true });
      const editor = view.page.locator('.queue-input');
      assert.equal(await editor.inputValue(), 'first');
      // The host echoes the hold; the editor and what is typed in it survive the redraw.
      await view.host.sendNotification(queueChangedEvent, {
        items: [
          { id: 'q1', text: 'first', editing: true },
          { id: 'q2', text: 'second', editing: false },
        ],
        paused: false,
      });
      await view.page.keyboard.type(', with tests');
      await frames(view);
      await view.page.keyboard.press('Escape');
      await view.waitForRequest(
        'updateQueued',
        (p) => JSON.stringify(p) === JSON.stringify({ id: 'q1', editing: false }),
      );
      assert.equal(requests('cancelTurn').length, 0, 'Escape in the editor does not stop the turn');
      assert.equal(await view.page.locator('.queue-input').count(), 0);

      await view.page.locator('.queue-item').first().locator('.queue-edit').click();
      await view.page.locator('.queue-input').fill('first, rewritten');
      await view.page.keyboard.press('Enter');
      await view.waitForRequest('updateQueued', (p) => (p as { text?: string }).text === 'first, rewritten');
      assert.deepEqual(requests('updateQueued').at(-1), { id: 'q1', text: 'first, rewritten', editing: false });

      await view.page.locator('.queue-item').nth(1).locator('.queue-trash').click();
      assert.deepEqual((await view.waitForRequest('removeQueued')).params, { id: 'q2' });
    });

    it('after Stop, shows the queue paused and offers Send now for each message', async () => {
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'statusChanged', status: { state: 'idle' } }],
      });
      await view.host.sendNotification(capabilitiesChangedEvent, { ...capabilities, canQueue: false });
      await view.host.sendNotification(queueChangedEvent, queued(true, 'kept', 'also kept'));
      await view.page.waitForSelector('.queue-send');
      assert.match((await view.page.textContent('.queue-title')) ?? '', /2 queued messages — paused after Stop/);
      assert.equal(await view.page.textContent('.send .button-label'), 'Send');
      await view.page.locator('.queue-item').nth(1).locator('.queue-send').click();
      assert.deepEqual((await view.waitForRequest('sendQueued')).params, { id: 'q2' });
    });

    it('shows the queue from the snapshot after the panel was hidden and shown again', async () => {
      await view.host.sendNotification(snapshotEvent, {
        ...snapshotOf(everyKind, { status: { state: 'prompting' } }, { canPrompt: false, canQueue: true }),
        queue: queued(false, 'still here'),
      });
      await view.page.waitForSelector('.queue-item');
      assert.deepEqual(await rows(), ['still here']);
    });
  });
}
