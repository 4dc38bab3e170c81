/**
 * What the user approves must read as what happens: direction controls in a permission card, a
 * tool's title, input, files and an address card show as escapes; a web address whose site parsers read
 * differently is not offered to open; and a form's Submit never runs the agent's pattern, which
 * could freeze the panel.
 */
import * as assert from 'node:assert/strict';
import type { ThreadEntry } from '../../src/protocol/entries';
import { snapshotEvent, type AnswerElicitationParams } from '../../src/protocol/messages';
import { HOSTILE_ADDRESS } from '../agent/replies';
import { snapshotOf } from './fixtures';
import { frames, WebviewPage, type SuiteEnv } from './harness';

const RLO = '\u202e';
const reversed = `rm -rf ~/${RLO}txt.tset`;

export function approvalSuite(env: SuiteEnv): void {
  describe('what the user approves', function () {
    this.timeout(60_000);
    let view: WebviewPage;

    beforeEach(async () => {
      view = await WebviewPage.open(env.browser(), env.harness(), { height: 2000 });
    });
    afterEach(async () => {
      await view?.close();
    });

    async function show(entries: ThreadEntry[]): Promise<void> {
      await view.host.sendNotification(snapshotEvent, snapshotOf(entries, { status: { state: 'prompting' } }));
      await view.page.waitForFunction((n) => document.querySelectorAll('.entry').length === n, entries.length);
      await frames(view);
    }

    it('shows direction controls as escapes in permission cards, tool titles, input, files, diffs and addresses', async () => {
      await show([
        {
          type: 'tool',
          toolCallId: 't',
          title: `Run ${reversed}`,
          kind: 'execute',
          status: 'pending',
          content: [{ type: 'diff', path: `/p/${RLO}fig.sh`, oldText: 'a\n', newText: `${reversed}\n` }],
          locations: [{ path: `/p/${RLO}gpj.exe` }],
          rawInput: { command: reversed },
        },
        {
          type: 'permission',
          requestId: 'p',
          toolCallId: 't',
          title: `Allow ${reversed}?`,
          options: [{ optionId: 'a', name: `Allow ${RLO}ecno`, kind: 'allow_once' }],
        },
        {
          type: 'elicitation',
          requestId: 'e',
          mode: 'url',
          message: `Open ${reversed}`,
          url: `${HOSTILE_ADDRESS}${RLO}x`,
        },
      ]);
      const texts = await view.page.evaluate(() =>
        [
          '.tool-title',
          '.tool-raw-body',
          '.location',
          '.diff-header',
          '.diff-add',
          '.permission-title',
          '.permission-options button',
          '.elicitation-message',
          '.elicitation-url',
        ].map((selector) => [selector, document.querySelector(selector)?.textContent ?? '']),
      );
      for (const [selector, text] of texts) {
        assert.ok(!text.includes(RLO), `${selector} holds the control itself: ${text}`);
        assert.ok(text.includes('\\u202E'), `${selector} shows it: ${text}`);
      }
    });

    it('offers no Open for an address that shows one site and would open another, and says why', async () => {
      await show([{ type: 'elicitation', requestId: 'e', mode: 'url', message: 'Sign in', url: HOSTILE_ADDRESS }]);
      assert.equal(await view.page.locator('.elicitation button:has-text("Open")').count(), 0);
      assert.match((await view.page.textContent('.elicitation-site')) ?? '', /backslash.*cannot be opened/);
      assert.equal(await view.page.locator('.elicitation-host').count(), 0, 'no site is named as if it were sure');
      await view.page.click('.elicitation button:has-text("Decline")');
      const answer = await view.waitForRequest('answerElicitation');
      assert.equal((answer.params as AnswerElicitationParams).action, 'decline');
    });

    it("submits a form without running the agent's pattern, which would take minutes for this value", async () => {
      const value = `${'a'.repeat(40)}!`;
      await show([
        {
          type: 'elicitation',
          requestId: 'f',
          mode: 'form',
          message: 'Code?',
          schema: { type: 'object', properties: { code: { type: 'string', title: 'Code', pattern: '^(a|a)+$' } } },
        },
      ]);
      await view.page.fill('.elicitation-input', value);
      await view.page.click('.elicitation button:has-text("Submit")');
      const answer = await view.waitForRequest('answerElicitation');
      assert.deepEqual(answer.params, { requestId: 'f', action: 'accept', values: { code: value } });
    });
  });
}
