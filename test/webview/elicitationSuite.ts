/**
 * Elicitation cards in the webview: a form from the agent's schema (every field kind, defaults,
 * required marks, validation messages, what Submit sends), and a URL card that shows the site
 * plainly and leaves opening it to the host. Hostile labels are in the security suite.
 */
import * as assert from 'node:assert/strict';
import type { ElicitationEntry, ThreadEntry } from '../../src/protocol/entries';
import {
  answerElicitationRequest,
  changedEvent,
  snapshotEvent,
  type AnswerElicitationParams,
} from '../../src/protocol/messages';
import { elicitationForm } from '../agent/replies';
import { snapshotOf } from './fixtures';
import { frames, WebviewPage, type SuiteEnv } from './harness';
import { waitFor } from '../support/wait';

const form: ElicitationEntry = {
  type: 'elicitation',
  requestId: 'elic-1',
  mode: 'form',
  message: 'Tell me about the project.',
  schema: elicitationForm,
};
const url: ElicitationEntry = {
  type: 'elicitation',
  requestId: 'elic-2',
  mode: 'url',
  message: 'Sign in to continue.',
  url: 'https://login.example.com/oauth/authorize?client=acp&state=xyz',
};

export function elicitationSuite(env: SuiteEnv): void {
  describe('elicitation cards', function () {
    this.timeout(60_000);
    let view: WebviewPage;
    let answers: AnswerElicitationParams[];
    let accept: boolean;

    beforeEach(async () => {
      view = await WebviewPage.open(env.browser(), env.harness());
      answers = [];
      accept = true;
      view.host.onRequest(answerElicitationRequest, (params) => {
        answers.push(params);
        return accept;
      });
    });
    afterEach(async () => {
      await view?.close();
    });

    async function show(entries: ThreadEntry[]): Promise<void> {
      await view.host.sendNotification(snapshotEvent, snapshotOf(entries, { status: { state: 'prompting' } }));
      await view.page.waitForSelector('.elicitation');
      await frames(view);
    }
    const field = (label: string) =>
      view.page.locator('.elicitation-field', { has: view.page.locator('.field-name', { hasText: label }) });

    it('renders a form of every field kind with its defaults, checks it, and sends the values', async () => {
      await show([form]);
      const page = view.page;
      assert.equal(await page.textContent('.elicitation-message'), 'Tell me about the project.');
      assert.deepEqual(await page.locator('.field-name').allTextContents(), [
        'Project name *',
        'Contact email',
        'Homepage',
        'Due date',
        'Kick-off',
        'Seats *',
        'Budget (k€)',
        'Public repository',
        'Licence',
        'Team size',
        'Languages *',
        'Tools',
      ]);
      assert.equal(await field('Contact email').locator('input').getAttribute('type'), 'email');
      assert.equal(await field('Due date').locator('input').getAttribute('type'), 'date');
      assert.equal(await field('Kick-off').locator('input').getAttribute('type'), 'datetime-local');
      assert.equal(await field('Seats').locator('input').inputValue(), '3', 'defaults are filled in');
      assert.equal(await field('Public repository').locator('input').isChecked(), true);
      assert.equal(await field('Licence').locator('select').inputValue(), 'MIT');
      assert.deepEqual(await field('Team size').locator('option').allTextContents(), ['—', 'Small', 'Medium', 'Large']);
      assert.equal(await field('Tools').locator('.field-choice', { hasText: 'CI' }).locator('input').isChecked(), true);

      await page.click('.elicitation button:has-text("Submit")');
      await page.waitForSelector('.elicitation-field.invalid');
      assert.equal(await field('Project name').locator('.field-error').textContent(), 'Required.');
      assert.equal(await field('Languages').locator('.field-error').textContent(), 'Choose at least 1.');
      assert.equal(
        await page.evaluate(
          () => document.activeElement?.closest('.elicitation-field')?.querySelector('.field-name')?.textContent,
        ),
        'Project name *',
        'the first invalid field has the focus',
      );
      await page.setViewportSize({ width: 900, height: 1300 });
      await page.screenshot({ path: 'test-results/webview-elicitation.png' });

      await field('Project name').locator('input').fill('Atlas');
      await field('Contact email').locator('input').fill('not-an-address');
      await field('Languages').locator('.field-choice', { hasText: 'Rust' }).locator('input').check();
      // The thread re-renders the card (here: the host resends the entry); what was typed stays.
      await view.host.sendNotification(changedEvent, { changes: [{ kind: 'entryChanged', index: 0, entry: form }] });
      await frames(view, 3);
      assert.equal(await field('Project name').locator('input').inputValue(), 'Atlas');
      assert.equal(
        await field('Languages').locator('.field-choice', { hasText: 'Rust' }).locator('input').isChecked(),
        true,
      );

      await field('Contact email').locator('input').press('Enter');
      await page.waitForFunction(
        () =>
          document.querySelector('.elicitation-field.invalid .field-error')?.textContent === 'Enter an email address.',
      );
      assert.equal(answers.length, 0, 'nothing is sent while the form is not valid');
      await field('Contact email').locator('input').fill('dev@example.com');
      await field('Kick-off').locator('input').fill('2025-03-01T09:30');
      await field('Seats').locator('input').fill('12');
      await field('Team size').locator('select').selectOption('m');
      await page.click('.elicitation button:has-text("Submit")');
      await waitFor('an answer', () => answers.length > 0, 5000);
      await page.waitForFunction(() => document.querySelectorAll('.elicitation button:disabled').length === 3);
      const meeting = await page.evaluate(() => new Date('2025-03-01T09:30').toISOString());
      assert.deepEqual(answers, [
        {
          requestId: 'elic-1',
          action: 'accept',
          values: {
            name: 'Atlas',
            email: 'dev@example.com',
            homepage: '',
            due: '',
            meeting,
            seats: '12',
            budget: '',
            public: true,
            licence: 'MIT',
            size: 'm',
            languages: ['Rust'],
            tools: ['ci'],
          },
        },
      ]);
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryChanged', index: 0, entry: { ...form, outcome: 'accept' } }],
      });
      await page.waitForSelector('.elicitation.answered');
      assert.equal(await page.textContent('.elicitation-outcome'), 'Submitted');
      assert.equal(await page.locator('.elicitation input').count(), 0);
    });

    it('declines and cancels, and a card the host did not answer comes back to life', async () => {
      await show([form, { ...form, requestId: 'elic-3' }]);
      accept = false;
      await view.page.locator('.elicitation').first().locator('button:has-text("Decline")').click();
      await waitFor('one answer', () => answers.length === 1, 5000);
      await frames(view, 3);
      assert.deepEqual(answers, [{ requestId: 'elic-1', action: 'decline' }]);
      assert.equal(
        await view.page.locator('.elicitation').first().locator('button:disabled').count(),
        0,
        'not answered: the buttons work again',
      );
      accept = true;
      await view.page.locator('.elicitation').nth(1).locator('button:has-text("Cancel")').click();
      await view.page.waitForFunction(
        () => document.querySelectorAll('.elicitation')[1]?.querySelectorAll('button:disabled').length === 3,
      );
      assert.deepEqual(answers.at(-1), { requestId: 'elic-3', action: 'cancel' });
    });

    it('shows a URL card with the site first, opens it only through the host, and closes when completed', async () => {
      await show([
        url,
        { ...url, requestId: 'elic-4', url: 'javascript:alert(1)' },
        { ...url, requestId: 'elic-5', url: 'http://аpple.com@evil.example/login' },
      ]);
      const cards = view.page.locator('.elicitation');
      assert.equal(await cards.nth(0).locator('.elicitation-host').textContent(), 'login.example.com');
      assert.equal(await cards.nth(0).locator('.elicitation-url').textContent(), url.url);
      assert.equal(await cards.nth(0).locator('a').count(), 0, 'the address is text, not a link');
      assert.equal(
        await cards.nth(1).locator('button:has-text("Open")').count(),
        0,
        'a script address is never offered',
      );
      assert.match((await cards.nth(1).textContent()) ?? '', /Only web addresses/);
      // Parsers disagree on where such an address goes: it names no site and is not offered.
      assert.equal(await cards.nth(2).locator('.elicitation-host').count(), 0, 'no site named for it');
      assert.equal(await cards.nth(2).locator('button:has-text("Open")').count(), 0, 'not offered');
      assert.match((await cards.nth(2).textContent()) ?? '', /user name.*cannot be opened/);

      await cards.nth(0).locator('button:has-text("Open")').click();
      await view.page.waitForFunction(
        () => document.querySelectorAll('.elicitation')[0]?.querySelectorAll('button:disabled').length === 3,
      );
      assert.deepEqual(answers, [{ requestId: 'elic-2', action: 'accept' }]);
      assert.equal(view.context.pages().length, 1, 'the page opened nothing itself');
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryChanged', index: 0, entry: { ...url, outcome: 'accept' } }],
      });
      await view.page.waitForFunction(() =>
        document.querySelector('.elicitation-outcome')?.textContent?.startsWith('Opened in your browser'),
      );
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryChanged', index: 0, entry: { ...url, outcome: 'accept', completed: true } }],
      });
      await view.page.waitForFunction(
        () => document.querySelector('.elicitation-outcome')?.textContent === 'Completed',
      );
    });
  });
}
