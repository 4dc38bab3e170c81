/**
 * The chat webview in a real Chromium, outside VS Code: rendering, the composer, permissions,
 * links, the status banners and the saved UI state. Security and speed live in their own files.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { ThreadEntry } from '../../src/protocol/entries';
import { ResponseError } from 'vscode-jsonrpc';
import { changedEvent, setConfigOptionRequest, setModeRequest, snapshotEvent } from '../../src/protocol/messages';
import { everyKind, meta, snapshotOf } from './fixtures';
import { frames, launch, startHarness, WebviewPage, type Harness } from './harness';
import { longReplySuite, replaySuite } from './replaySuite';
import { approvalSuite } from './approvalSuite';
import { codeSuite } from './codeSuite';
import { findSuite } from './findSuite';
import { firstScreenSuite } from './firstScreenSuite';
import { queueSuite } from './queueSuite';
import { elicitationSuite } from './elicitationSuite';
import { securitySuite } from './securitySuite';
import { stubSuite } from './stubSuite';
import { quietFor } from '../support/wait';

describe('chat webview', function () {
  this.timeout(60_000);
  let browser: Browser;
  let harness: Harness;
  let view: WebviewPage;

  before(async () => {
    [browser, harness] = await Promise.all([launch(), startHarness()]);
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });
  describe('thread and composer', () => {
    beforeEach(async () => {
      view = await WebviewPage.open(browser, harness);
    });
    afterEach(async () => {
      await view?.close();
    });

    async function show(
      entries: ThreadEntry[],
      overrides: Parameters<typeof snapshotOf>[1] = {},
      caps: Parameters<typeof snapshotOf>[2] = {},
    ): Promise<void> {
      await view.host.sendNotification(snapshotEvent, snapshotOf(entries, overrides, caps));
      await view.page.waitForSelector('.title:not(:empty)');
      await frames(view);
    }

    it('shows no made-up title before the first snapshot arrives', async () => {
      await frames(view, 3);
      assert.equal(await view.page.textContent('.title'), '', 'not "Untitled session ·"');
      await show(everyKind);
      assert.equal(await view.page.textContent('.title'), 'Fix the flaky session list paging');
    });

    it("says in the header how long the session's turns ran", async () => {
      await show(everyKind, {}, { activeMs: 65 * 60_000 });
      assert.match(
        (await view.page.textContent('.subtitle')) ?? '',
        /Reference Agent · \/home\/dev\/project · 1 h 5 min active$/,
      );
    });

    it('renders every entry kind, the title, pickers and usage', async () => {
      await show(everyKind);
      const page = view.page;
      assert.equal(await page.textContent('.title'), 'Fix the flaky session list paging');
      assert.match((await page.textContent('.subtitle')) ?? '', /Reference Agent · \/home\/dev\/project/);
      assert.equal(await page.locator('.msg-user strong').textContent(), 'duplicates');
      assert.equal(await page.locator('details.msg-thought').getAttribute('open'), null, 'thoughts start collapsed');
      assert.equal(
        await page.locator('.msg-agent pre code').first().textContent(),
        'const seen = new Set<string>();\nfor (const s of page.sessions) if (!seen.has(s.sessionId)) items.push(s);\n',
      );
      assert.equal(await page.locator('.msg-agent li').count(), 2);
      assert.equal(await page.locator('.tool').count(), 2);
      assert.equal(await page.locator('.diff-add').count(), 2);
      assert.equal(await page.locator('.diff-del').count(), 1);
      assert.match((await page.textContent('.terminal-output')) ?? '', /1 failing/);
      assert.equal(await page.textContent('.terminal-exit'), 'exit code 1');
      assert.equal(await page.textContent('.tool-failed .status-failed'), 'Failed');
      assert.equal(await page.locator('.tool-text strong').textContent(), '1');
      assert.equal(await page.textContent('a.location'), '/home/dev/project/src/sessions/list.ts:12');
      assert.equal(await page.locator('.plan-item').count(), 3);
      assert.equal(await page.textContent('.plan-header'), 'Plan · 1/3');
      assert.equal(await page.textContent('.notice-warning .notice-title'), '3 updates were dropped');
      assert.equal(await page.textContent('.divider'), 'Reconnected');
      assert.deepEqual(await page.locator('.permission:not(.answered) button').allTextContents(), [
        'Allow once',
        'Always allow',
        'Reject',
        'Dismiss',
      ]);
      assert.equal(await page.textContent('.permission.answered .permission-outcome'), 'Reject');
      assert.equal(await page.textContent('.attachments a.chip'), 'README.md');
      assert.match((await page.textContent('.usage')) ?? '', /48k \/ 200k tokens \(24%\) · 0\.42 USD/);
      assert.deepEqual(
        await page.locator('select.picker').evaluateAll((s) => (s as HTMLSelectElement[]).map((x) => x.value)),
        ['default', 'sonnet'],
      );

      await page.click('.thought-summary');
      await page.waitForSelector('details.msg-thought[open] .md code');

      mkdirSync('test-results', { recursive: true });
      await page.setViewportSize({ width: 900, height: 1500 });
      await page.evaluate(() => document.querySelector('.thread')?.scrollTo(0, 0));
      await frames(view, 4);
      await page.screenshot({ path: 'test-results/webview-thread.png' });
    });

    it('draws tool kinds, statuses, Send and Stop, notices and chips with the bundled codicon font', async () => {
      await show(everyKind, { status: { state: 'prompting' } });
      const page = view.page;
      const font = await page.evaluate(async () => (await document.fonts.load('16px codicon')).map((f) => f.status));
      assert.deepEqual(font, ['loaded'], 'the font came from the extension (the CSP allows nothing else)');
      for (const selector of [
        '.tool-kind .codicon-edit',
        '.tool-kind .codicon-terminal',
        '.status-completed .codicon-check',
        '.status-failed .codicon-error',
        '.stop .codicon-debug-stop',
        '.send .codicon-send',
        '.notice-warning .codicon-warning',
        '.permission-outcome .codicon-check',
        'a.chip .codicon-link-external',
        '.plan-completed .codicon-pass',
        '.status-line .codicon-loading.codicon-modifier-spin',
      ]) {
        assert.equal((await page.locator(selector).count()) > 0, true, selector);
      }
      const glyph = await page.evaluate(() => {
        const node = document.querySelector('.tool-kind .codicon')!;
        return {
          family: getComputedStyle(node).fontFamily,
          content: getComputedStyle(node, '::before').content,
          hidden: node.getAttribute('aria-hidden'),
        };
      });
      assert.equal(glyph.family, 'codicon');
      assert.match(glyph.content, /^"[\ue000-\uf8ff]"$/, 'a private-use glyph of the font');
      assert.equal(glyph.hidden, 'true');
      assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), []);
    });

    it('keeps a long open code block in blocks of whole lines, only the last one growing', async () => {
      await show([{ type: 'agent', text: '', attachments: [], done: false }], { status: { state: 'prompting' } });
      const line = (n: number) => `line ${String(n).padStart(5, '0')} of a code block still being written\n`;
      let code = '';
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'textAppended', index: 0, text: 'Writing it:\n```text\n' }],
      });
      for (let chunk = 0; chunk < 40; chunk++) {
        let text = '';
        for (let i = 0; i < 10; i++) text += line(chunk * 10 + i);
        code += text;
        await view.host.sendNotification(changedEvent, { changes: [{ kind: 'textAppended', index: 0, text }] });
      }
      await view.page.waitForFunction(() =>
        document.querySelector('.md-tail pre')?.textContent?.includes('line 00399'),
      );
      assert.equal(await view.page.textContent('.md-done p'), 'Writing it:', 'the text before the fence is finished');
      assert.equal(await view.page.textContent('.md-tail .code-lang'), 'text', 'the open block shows its language');
      const first = await view.page.evaluate(() => {
        const node = document.querySelector('.md-tail-part') as HTMLElement & { __mark?: boolean };
        node.__mark = true;
        return node.textContent;
      });
      // The closing fence waits for its line break rather than show as code.
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'textAppended', index: 0, text: line(400) + '``' }],
      });
      await view.page.waitForFunction(() =>
        document.querySelector('.md-tail pre')?.textContent?.includes('line 00400'),
      );
      const parts = await view.page.$$eval('.md-tail pre .md-tail-part', (nodes) =>
        nodes.map((n) => n.textContent ?? ''),
      );
      assert.equal(parts.join(''), code + line(400), 'the block shows every character of the code, in order');
      assert.ok(parts.length >= 5, `about 20 KB of code is in several blocks (${parts.length})`);
      for (const part of parts.slice(0, -1)) {
        assert.ok(
          part.endsWith('\n') && part.length <= 4096 + line(0).length,
          `a full block ends at a line break, about 4096 characters long (${part.length})`,
        );
      }
      assert.equal(
        await view.page.evaluate(
          () => (document.querySelector('.md-tail-part') as HTMLElement & { __mark?: boolean }).__mark,
        ),
        true,
        'the first block is the same node',
      );
      assert.equal(parts[0], first, 'and its text did not change');
      // Closed: the block shown is kept as it is (its lines not parsed and laid out again), and
      // where it is (moved, its text would be laid out again).
      await view.page.evaluate(() => {
        (document.querySelector('.md-tail .code-block')!.parentElement as HTMLElement & { __home?: boolean }).__home =
          true;
      });
      await view.host.sendNotification(changedEvent, { changes: [{ kind: 'textAppended', index: 0, text: '`\n' }] });
      await view.page.waitForFunction(() => document.querySelector('.md-done pre')?.textContent?.includes('00400'));
      assert.equal(await view.page.textContent('.md-done pre'), code + line(400));
      assert.equal(
        await view.page.evaluate(
          () => (document.querySelector('.md-done pre .md-tail-part') as HTMLElement & { __mark?: boolean }).__mark,
        ),
        true,
        'the closed block is the one shown while it streamed',
      );
      assert.equal(
        await view.page.evaluate(
          () =>
            (
              document.querySelector('.md-done pre')!.closest('.code-block')!.parentElement as HTMLElement & {
                __home?: boolean;
              }
            ).__home,
        ),
        true,
        'in the element it was in',
      );
    });

    it('renders the paragraph still being written as Markdown, parsing only the open tail', async () => {
      await show([{ type: 'agent', text: '', attachments: [], done: false }], { status: { state: 'prompting' } });
      const append = async (text: string, shows: string): Promise<void> => {
        await view.host.sendNotification(changedEvent, { changes: [{ kind: 'textAppended', index: 0, text }] });
        await view.page.waitForFunction((t) => document.querySelector('.md-tail')?.textContent?.includes(t), shows);
      };
      await append('The **fix** is in [list.ts](src/list.ts) and `pager', 'and `pager');
      assert.equal(await view.page.textContent('.md-tail strong'), 'fix');
      assert.equal(await view.page.textContent('.md-tail a'), 'list.ts');
      await append('.ts`:\n\n- first\n- sec', 'sec');
      assert.equal(await view.page.textContent('.md-done code'), 'pager.ts');
      assert.deepEqual(await view.page.locator('.md-tail li').allTextContents(), ['first', 'sec']);
      // A paragraph with no blank line in it, 40 KB long: finished in pieces, the open piece small.
      const line = 'one more line of a paragraph that never takes a breath, with **bold** words\n';
      let long = '';
      for (let i = 0; i < 540; i++) long += line;
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'textAppended', index: 0, text: 'ond\n\n' }],
      });
      await view.page.waitForFunction(() => document.querySelectorAll('.md-done li')[1]?.textContent === 'second');
      for (let at = 0; at < long.length; at += 20 * line.length) {
        await view.host.sendNotification(changedEvent, {
          changes: [{ kind: 'textAppended', index: 0, text: long.slice(at, at + 20 * line.length) }],
        });
        const lines = Math.min(540, at / line.length + 20);
        await view.page.waitForFunction((n) => document.querySelectorAll('.msg-agent strong').length >= n, lines);
      }
      await append('end', 'end');
      const sizes = await view.page.evaluate(() => ({
        tail: document.querySelector('.md-tail')!.textContent!.length,
        done: document.querySelectorAll('.md-done p').length,
        bold: document.querySelectorAll('.md-done strong, .md-tail strong').length,
      }));
      assert.ok(sizes.tail < 5_000, `the open tail stays small (${sizes.tail} characters)`);
      assert.ok(sizes.done >= 3, `the long paragraph was finished in pieces (${sizes.done})`);
      assert.equal(sizes.bold, 541, 'every line rendered as Markdown (and the first paragraph’s)');
    });

    it('sends on Enter, breaks lines on Shift+Enter, cancels on Escape and Stop', async () => {
      await show(everyKind);
      const input = view.page.locator('.composer-input');
      await input.click();
      await view.page.keyboard.type('hello');
      await view.page.keyboard.press('Shift+Enter');
      await view.page.keyboard.type('world');
      assert.equal(await input.inputValue(), 'hello\nworld');
      await view.page.keyboard.press('Enter');
      const sent = await view.waitForRequest('sendPrompt');
      assert.deepEqual(sent.params, { text: 'hello\nworld' });
      assert.equal(await input.inputValue(), '');

      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'statusChanged', status: { state: 'prompting' } }],
      });
      await view.page.waitForSelector('.stop:not([hidden])');
      assert.equal(await view.page.isHidden('.send'), true);
      await view.page.keyboard.type('queued');
      await view.page.keyboard.press('Enter');
      await view.page.keyboard.press('Escape');
      await view.waitForRequest('cancelTurn');
      assert.equal(view.requests.filter((r) => r.method === 'sendPrompt').length, 1, 'no prompt while a turn runs');
      await view.page.click('.stop');
      await view.page.waitForFunction(() => true);
      await frames(view);
      assert.equal(view.requests.filter((r) => r.method === 'cancelTurn').length, 2);
    });

    it('completes / commands with arrows, Enter and Tab', async () => {
      await show(everyKind);
      await view.page.click('.composer-input');
      await view.page.keyboard.type('/re');
      await view.page.waitForSelector('.completions:not([hidden])');
      assert.deepEqual(await view.page.locator('.completion-name').allTextContents(), ['/review', '/research']);
      await view.page.screenshot({ path: 'test-results/webview-completions.png' });
      await view.page.keyboard.press('ArrowDown');
      assert.equal(await view.page.textContent('.completion.active .completion-name'), '/research');
      await view.page.keyboard.press('Enter');
      assert.equal(await view.page.inputValue('.composer-input'), '/research ');
      assert.equal(await view.page.isHidden('.completions'), true);
      await view.page.fill('.composer-input', '');
      await view.page.keyboard.type('/c');
      await view.page.keyboard.press('Tab');
      assert.equal(await view.page.inputValue('.composer-input'), '/compact ');
      assert.equal(view.requests.filter((r) => r.method === 'sendPrompt').length, 0);
      await view.page.keyboard.press('Enter');
      assert.deepEqual((await view.waitForRequest('sendPrompt')).params, { text: '/compact ' });
    });

    it('answers a permission request and shows the choice', async () => {
      await show(everyKind);
      await view.page.click('.permission:not(.answered) button:has-text("Allow once")');
      assert.deepEqual((await view.waitForRequest('answerPermission')).params, {
        requestId: 'perm-1',
        optionId: 'allow',
      });
      await view.page.waitForSelector('.permission:not(.answered) button:disabled');
      const entry = {
        ...(everyKind[8] as Extract<ThreadEntry, { type: 'permission' }>),
        outcome: { optionId: 'allow' },
      };
      await view.host.sendNotification(changedEvent, { changes: [{ kind: 'entryChanged', index: 8, entry }] });
      await view.page.waitForFunction(() => document.querySelectorAll('.permission.answered').length === 2);
      assert.equal(await view.page.locator('.permission-outcome').first().textContent(), 'Allow once');

      const second = { ...(everyKind[8] as Extract<ThreadEntry, { type: 'permission' }>), requestId: 'perm-2' };
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryAdded', index: everyKind.length, entry: second }],
      });
      await view.page.click('.permission:not(.answered) button:has-text("Dismiss")');
      assert.deepEqual(
        (await view.waitForRequest('answerPermission', (p) => (p as { requestId: string }).requestId === 'perm-2'))
          .params,
        { requestId: 'perm-2', optionId: null },
      );
    });

    it('opens links, files and diffs through the host and never navigates', async () => {
      await show(everyKind);
      const url = view.page.url();
      await view.page.click('a[href^="https://agentclientprotocol.com"]');
      assert.deepEqual((await view.waitForRequest('openLink')).params, {
        href: 'https://agentclientprotocol.com/protocol/session-list',
      });
      await view.page.click('.msg-agent a[href^="src/"]');
      assert.deepEqual((await view.waitForRequest('openLocation')).params, { path: 'src/sessions/list.ts', line: 42 });
      await view.page.click('a.location');
      assert.deepEqual(
        (await view.waitForRequest('openLocation', (p) => (p as { line?: number }).line === 12)).params,
        { path: '/home/dev/project/src/sessions/list.ts', line: 12 },
      );
      await view.page.click('button:has-text("Open diff")');
      assert.deepEqual((await view.waitForRequest('openDiff')).params, { entryIndex: 3, contentIndex: 0 });
      await view.page.click('.attachments a.chip');
      assert.deepEqual(
        (await view.waitForRequest('openLocation', (p) => String((p as { path: string }).path).startsWith('file:')))
          .params,
        { path: 'file:///home/dev/project/README.md' },
      );
      await view.page.click('a[href^="https://agentclientprotocol.com"]', { button: 'middle' });
      await frames(view);
      assert.equal(view.page.url(), url);
      assert.equal(view.context.pages().length, 1);
    });

    it('shows loading, error and disconnected states with their actions', async () => {
      await show([], { status: { state: 'loading', received: 1234 } });
      assert.equal(await view.page.textContent('.status-line .status-text'), 'Loading history… 1,234 updates');
      assert.equal(await view.page.isDisabled('.send'), true);
      await view.page.click('.status-line button:has-text("Cancel")');
      await view.waitForRequest('cancelLoad');

      await view.host.sendNotification(changedEvent, {
        changes: [
          {
            kind: 'statusChanged',
            status: { state: 'error', message: 'The agent did not answer session/load in 30 s.', canRetry: true },
          },
        ],
      });
      await view.page.waitForSelector('.banner.error');
      assert.equal(await view.page.textContent('.banner-message'), 'The agent did not answer session/load in 30 s.');
      await view.page.click('.banner button:has-text("Retry")');
      await view.page.click('.banner button:has-text("Show Log")');
      await view.waitForRequest('retry');
      await view.waitForRequest('showLog');

      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'statusChanged', status: { state: 'disconnected', message: 'The agent exited (code 1).' } }],
      });
      await view.page.waitForSelector('.banner.disconnected');
      await view.page.click('.banner button:has-text("Restart Agent")');
      await view.waitForRequest('restartAgent');
      assert.equal(await view.page.isDisabled('.send'), true);
    });

    it('sends mode and config changes from the pickers', async () => {
      await show(everyKind);
      await view.page.selectOption('select[data-mode]', 'plan');
      assert.deepEqual((await view.waitForRequest('setMode')).params, { modeId: 'plan' });
      await view.page.selectOption('select[data-config="model"]', 'opus');
      assert.deepEqual((await view.waitForRequest('setConfigOption')).params, { configId: 'model', value: 'opus' });
      await view.page.click('.picker-toggle input');
      assert.deepEqual(
        (await view.waitForRequest('setConfigOption', (p) => (p as { configId: string }).configId === 'thinking'))
          .params,
        { configId: 'thinking', value: false },
      );
    });

    it("shows the agent's value again when it refuses a mode or option", async () => {
      const refuse = (): never => {
        throw new ResponseError(-32602, 'Refused by the agent');
      };
      view.host.onRequest(setModeRequest, refuse);
      view.host.onRequest(setConfigOptionRequest, refuse);
      await show(everyKind);
      const page = view.page;
      await page.selectOption('select[data-mode]', 'plan');
      await page.waitForFunction(
        () => document.querySelector<HTMLSelectElement>('select[data-mode]')?.value === 'default',
      );
      await page.selectOption('select[data-config="model"]', 'opus');
      await page.waitForFunction(
        () => document.querySelector<HTMLSelectElement>('select[data-config="model"]')?.value === 'sonnet',
      );
      await page.click('.picker-toggle input');
      await page.waitForFunction(
        () => document.querySelector<HTMLInputElement>('.picker-toggle input')?.checked === true,
      );
    });

    it('prefers a mode config option over the legacy modes picker; booleans are checkboxes', async () => {
      const configOptions = [
        ...meta.configOptions,
        {
          id: 'mode',
          name: 'Mode',
          category: 'mode',
          type: 'select' as const,
          currentValue: 'plan',
          options: [
            { value: 'default', name: 'Default' },
            { value: 'plan', name: 'Plan' },
          ],
        },
      ];
      await show(everyKind, { meta: { ...meta, configOptions } });
      assert.equal(await view.page.locator('select[data-mode]').count(), 0, 'one mode picker, not two');
      assert.equal(await view.page.inputValue('select[data-config="mode"]'), 'plan');
      assert.equal(await view.page.getAttribute('.picker-toggle input', 'type'), 'checkbox');
      await view.page.selectOption('select[data-config="mode"]', 'default');
      assert.deepEqual((await view.waitForRequest('setConfigOption')).params, { configId: 'mode', value: 'default' });
      // Without config options to set, the legacy picker is all there is.
      await show(everyKind, { meta: { ...meta, configOptions } }, { canSetConfig: false });
      assert.equal(await view.page.locator('select[data-mode]').count(), 1);
    });

    it('hides pickers and prompting the agent does not offer', async () => {
      await show(everyKind, {}, { canSetMode: false, canSetConfig: false, canPrompt: false });
      assert.equal(await view.page.locator('.picker, .picker-toggle').count(), 0);
      assert.equal(await view.page.isDisabled('.send'), true);
    });

    it("follows the bottom, keeps the reader's place when scrolled up, and restores it after a reload", async () => {
      const long = (n: number): ThreadEntry[] =>
        Array.from({ length: n }, (_, i): ThreadEntry => ({
          type: 'agent',
          text: `Entry ${i}. ${'Lorem ipsum dolor sit amet. '.repeat(1 + (i % 7))}`,
          attachments: [],
          done: true,
        }));
      await show(long(300));
      const page = view.page;
      const topEntry = (): Promise<{ index: number; top: number }> =>
        page.evaluate(() => {
          const thread = document.querySelector('.thread')!.getBoundingClientRect();
          for (const node of document.querySelectorAll<HTMLElement>('.entry')) {
            const rect = node.getBoundingClientRect();
            // The entry under a point a little below the top edge: immune to sub-pixel rounding.
            if (rect.bottom > thread.top + 8)
              return { index: Number(node.dataset.index), top: Math.round(rect.top - thread.top) };
          }
          return { index: -1, top: 0 };
        });
      const lastVisible = (index: number): Promise<boolean> =>
        page.evaluate((i) => {
          const thread = document.querySelector('.thread')!.getBoundingClientRect();
          const rect = document.querySelector(`.entry[data-index="${i}"]`)?.getBoundingClientRect();
          return !!rect && Math.abs(rect.bottom - thread.bottom) < 3;
        }, index);
      assert.ok(await lastVisible(299), 'a snapshot opens at the bottom');

      await page.hover('.thread');
      await page.mouse.wheel(0, -3000);
      await frames(view, 4);
      const before = await topEntry();
      assert.ok(before.index > 0 && before.index < 290, `scrolled up to ${before.index}`);
      await view.host.sendNotification(changedEvent, {
        changes: long(320)
          .slice(300)
          .map((entry, i) => ({ kind: 'entryAdded' as const, index: 300 + i, entry })),
      });
      await page.waitForFunction(() => !document.querySelector<HTMLElement>('.jump')?.hidden);
      await frames(view, 4);
      assert.deepEqual(await topEntry(), before, 'new entries do not move what the reader sees');

      await page.click('.jump');
      await frames(view, 4);
      assert.ok(await lastVisible(319), 'the jump button returns to the bottom');

      await page.mouse.wheel(0, -5000);
      await frames(view, 4);
      const saved = await topEntry();
      // The UI state is saved 300 ms after the last scroll.
      await page.waitForFunction(
        () => (window as unknown as { __state?: { anchor?: unknown } }).__state?.anchor !== undefined,
      );
      // And no later save of an earlier scroll position.
      await quietFor(400);
      await page.reload();
      await view.waitForRequest('ready', () => view.requests.filter((r) => r.method === 'ready').length === 2);
      await show(long(320));
      await frames(view, 4);
      const restored = await topEntry();
      assert.equal(restored.index, saved.index, 'the reader is back at the same entry');
      assert.ok(Math.abs(restored.top - saved.top) < 3, `at the same offset (${restored.top} vs ${saved.top})`);
    });

    it('stops following when something else scrolls up (find in page, keys), and not for its own scrolls', async () => {
      const long = (n: number): ThreadEntry[] =>
        Array.from({ length: n }, (_, i): ThreadEntry => ({
          type: 'agent',
          text: `Entry ${i}. ${'Lorem ipsum dolor sit amet. '.repeat(1 + (i % 7))}`,
          attachments: [],
          done: true,
        }));
      await show(long(300));
      const page = view.page;
      const jumpShown = () => page.evaluate(() => !document.querySelector<HTMLElement>('.jump')?.hidden);
      const lastVisible = (index: number): Promise<boolean> =>
        page.evaluate((i) => {
          const thread = document.querySelector('.thread')!.getBoundingClientRect();
          const rect = document.querySelector(`.entry[data-index="${i}"]`)?.getBoundingClientRect();
          return !!rect && Math.abs(rect.bottom - thread.bottom) < 3;
        }, index);
      const add = (from: number, to: number) =>
        view.host.sendNotification(changedEvent, {
          changes: long(to)
            .slice(from)
            .map((entry, i) => ({ kind: 'entryAdded' as const, index: from + i, entry })),
        });

      // The page grows between the view's scroll to the bottom and that scroll's event (entries
      // arriving in between): the event lands short of the bottom, and the view still follows.
      await page.evaluate(() => {
        const thread = document.querySelector('.thread') as HTMLElement;
        const native = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop')!;
        let grow = 3;
        Object.defineProperty(thread, 'scrollTop', {
          configurable: true,
          get() {
            return native.get!.call(this) as number;
          },
          set(value: number) {
            native.set!.call(this, value);
            if (value > 1e9 && grow-- > 0) {
              const taller = document.createElement('div');
              taller.className = 'grow-probe';
              taller.style.height = '600px';
              document.querySelector('.thread-list')!.append(taller);
            }
          },
        });
      });
      for (let i = 300; i < 340; i++) await add(i, i + 1);
      // Entry 339 is only rendered (the thread is virtual) if the view kept following.
      await page.waitForSelector('.entry[data-index="339"]', { timeout: 10_000 });
      await frames(view, 4);
      assert.equal(await page.locator('.grow-probe').count(), 3, 'the page grew under three of its scrolls');
      assert.equal(await jumpShown(), false, 'still following');
      await page.evaluate(() => {
        document.querySelectorAll('.grow-probe').forEach((n) => n.remove());
        delete (document.querySelector('.thread') as unknown as { scrollTop?: number }).scrollTop;
      });
      await frames(view, 4);
      assert.ok(await lastVisible(339), 'the newest entry is at the bottom');

      // Find in page scrolls the thread from a script: the reader went there.
      await page.evaluate(
        () =>
          document.querySelector('.entry[data-index="100"]')?.scrollIntoView() ??
          document.querySelector('.thread')!.scrollBy(0, -2000),
      );
      await page.waitForFunction(() => !document.querySelector<HTMLElement>('.jump')?.hidden);
      await add(340, 350);
      await frames(view, 4);
      assert.equal(await lastVisible(349), false, 'the view stays where it was taken');

      await page.click('.jump');
      await frames(view, 4);
      assert.ok(await lastVisible(349));
      await page.focus('.thread');
      await page.keyboard.press('PageUp');
      await page.waitForFunction(() => !document.querySelector<HTMLElement>('.jump')?.hidden);
      await add(350, 360);
      await frames(view, 4);
      assert.equal(await lastVisible(359), false, 'the reader who paged up stays where they are');

      // The reader scrolls up just after one of the view's own scrolls to the bottom, before
      // that frame's scroll events: the view must still see the reader's scroll as theirs.
      await page.click('.jump');
      await frames(view, 4);
      await page.evaluate(() => {
        const thread = document.querySelector('.thread') as HTMLElement;
        const native = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop')!;
        Object.defineProperty(thread, 'scrollTop', {
          configurable: true,
          get() {
            return native.get!.call(this) as number;
          },
          set(value: number) {
            native.set!.call(this, value);
            if (value > 1e9) {
              delete (thread as unknown as { scrollTop?: number }).scrollTop;
              setTimeout(() => thread.scrollBy(0, -2000));
            }
          },
        });
      });
      await add(360, 380);
      await page.waitForFunction(() => !document.querySelector<HTMLElement>('.jump')?.hidden, undefined, {
        timeout: 5_000,
      });
      await add(380, 390);
      await frames(view, 4);
      assert.equal(await lastVisible(389), false, 'the reader who scrolled up stays where they are');
    });

    it('shows raw tool input and output collapsed, data: images, and embedded resources as code', async () => {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
      const tool: ThreadEntry = {
        type: 'tool',
        toolCallId: 'raw',
        title: 'Fetch the page',
        kind: 'fetch',
        status: 'in_progress',
        content: [],
        locations: [],
        rawInput: { url: 'https://example.com', depth: 2 },
        rawOutput: { status: 200, body: 'x'.repeat(50_000) },
      };
      const message: ThreadEntry = {
        type: 'agent',
        text: 'Here is what I found:',
        done: true,
        attachments: [
          { type: 'image', mimeType: 'image/png', data: png },
          { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zy8+' },
          { type: 'image', mimeType: 'image/png', data: '', uri: 'https://evil.example/track.png' },
          {
            type: 'resource',
            resource: { uri: 'file:///home/dev/project/notes.md', text: '# Notes\n<b>not bold</b>' },
          },
        ],
      };
      await show([tool, message]);
      const page = view.page;
      assert.deepEqual(await page.locator('.tool-raw-summary').allTextContents(), ['Input', 'Output']);
      assert.equal(await page.locator('details.tool-raw[open]').count(), 0, 'collapsed');
      await page.click('details[data-raw="input"] summary');
      assert.equal(
        await page.textContent('details[data-raw="input"] .tool-raw-body'),
        '{\n  "url": "https://example.com",\n  "depth": 2\n}',
      );
      const output = (await page.textContent('details[data-raw="output"] .tool-raw-body')) ?? '';
      assert.ok(
        output.startsWith('{\n  "status": 200,\n  "body": "xxx') && output.endsWith('\n…') && output.length <= 20_002,
        `capped (${output.length})`,
      );
      // The card renders anew when the tool call changes; what the reader opened stays open.
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryChanged', index: 0, entry: { ...tool, status: 'completed' } }],
      });
      await page.waitForSelector('.tool-completed');
      assert.equal(await page.locator('details[data-raw="input"][open]').count(), 1);

      await page.waitForFunction(
        () => document.querySelector<HTMLImageElement>('img.content-image')?.naturalWidth === 1,
      );
      assert.equal(await page.locator('img').count(), 1, 'only the inline PNG is an image');
      assert.match((await page.getAttribute('img.content-image', 'src')) ?? '', /^data:image\/png;base64,/);
      assert.deepEqual(await page.locator('.msg-agent .chip').allTextContents(), [
        'image (image/svg+xml, not shown)',
        'image (image/png, no data)',
        'notes.md',
      ]);
      assert.equal(await page.textContent('.resource-text'), '# Notes\n<b>not bold</b>');
      assert.equal(await page.locator('.resource b').count(), 0);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), []);
    });

    it('appends terminal output as it arrives and shows an exit by signal', async () => {
      await show(everyKind);
      const output = () => view.page.textContent('.terminal-output');
      const before = (await output()) ?? '';
      await view.host.sendNotification(changedEvent, {
        changes: [
          {
            kind: 'terminalAppended',
            index: 4,
            terminalId: 'term-1',
            delta: { text: 'rerun\n', reset: false, truncated: false, exitCode: null, signal: 'SIGKILL' },
          },
        ],
      });
      await view.page.waitForFunction(() =>
        document.querySelector('.terminal-output')?.textContent?.endsWith('rerun\n'),
      );
      assert.equal(await output(), before + 'rerun\n');
      assert.equal(await view.page.textContent('.terminal-exit'), 'killed by SIGKILL');
      await view.host.sendNotification(changedEvent, {
        changes: [
          {
            kind: 'terminalAppended',
            index: 4,
            terminalId: 'term-1',
            delta: { text: 'only the newest', reset: true, truncated: true },
          },
        ],
      });
      await view.page.waitForFunction(
        () => document.querySelector('.terminal-output')?.textContent === '…\nonly the newest',
      );
    });

    it('keeps the last keystrokes of the draft when the panel is hidden or the page goes', async () => {
      await show(everyKind);
      const draft = () =>
        view.page.evaluate(() => (window as unknown as { __state?: { draft: string } }).__state?.draft);
      await view.page.click('.composer-input');
      await view.page.keyboard.type('typed just before hiding');
      // VS Code hides the panel: the page becomes hidden before its timers could run.
      const saved = await view.page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
        return (window as unknown as { __state?: { draft: string } }).__state?.draft;
      });
      assert.equal(saved, 'typed just before hiding', 'saved as the panel hid, not 300 ms later');

      await view.page.evaluate(() => delete (document as unknown as { visibilityState?: string }).visibilityState);
      await view.page.keyboard.type(', and before the reload');
      assert.notEqual(
        await draft(),
        'typed just before hiding, and before the reload',
        'not saved yet (the save waits for typing to pause)',
      );
      await view.page.reload();
      await view.waitForRequest('ready', () => view.requests.filter((r) => r.method === 'ready').length === 2);
      await show(everyKind);
      assert.equal(await view.page.inputValue('.composer-input'), 'typed just before hiding, and before the reload');
    });

    it('starts the thread over when the host clears it, showing only the entries sent after', async () => {
      await show(everyKind);
      assert.equal(await view.page.locator('.entry').count(), everyKind.length);
      const replayed: ThreadEntry[] = [
        { type: 'user', text: 'Replayed question', attachments: [], done: true },
        { type: 'agent', text: 'Replayed answer', attachments: [], done: true },
      ];
      await view.host.sendNotification(changedEvent, {
        changes: [
          { kind: 'entriesCleared' },
          ...replayed.map((entry, index) => ({ kind: 'entryAdded' as const, index, entry })),
        ],
      });
      await view.page.waitForFunction(() => document.querySelectorAll('.entry').length === 2);
      await frames(view, 3);
      assert.deepEqual(
        await view.page.locator('.entry').evaluateAll((nodes) => nodes.map((n) => n.textContent?.trim())),
        ['YouReplayed question', 'Replayed answer'],
      );
      // A later batch adds to the new thread, not to the old one.
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryAdded', index: 2, entry: { type: 'divider', text: 'Reconnected' } }],
      });
      await view.page.waitForFunction(() => document.querySelectorAll('.entry').length === 3);
      assert.equal(await view.page.textContent('.entry[data-index="2"]'), 'Reconnected');
    });

    it('asks for a snapshot again after a reload and keeps the draft', async () => {
      await show(everyKind);
      await view.page.fill('.composer-input', 'half-written thought');
      await view.page.waitForFunction(
        () => (window as unknown as { __state?: { draft: string } }).__state?.draft === 'half-written thought',
      );
      await view.page.reload();
      await view.waitForRequest('ready', () => view.requests.filter((r) => r.method === 'ready').length === 2);
      await show(everyKind);
      assert.equal(await view.page.inputValue('.composer-input'), 'half-written thought');
      assert.equal(await view.page.locator('.msg-user').count(), 1);
    });
  });

  const env = { browser: () => browser, harness: () => harness };
  elicitationSuite(env);
  approvalSuite(env);
  codeSuite(env);
  findSuite(env);
  firstScreenSuite(env);
  stubSuite(env);
  queueSuite(env);
  securitySuite(env);
  replaySuite(env);
  longReplySuite(env);
});
