/**
 * Code that reads like code: fenced blocks in finished messages are highlighted in the theme's
 * colours once the highlighter has loaded (and only then: a chat without code never fetches it),
 * labelled with their language, and copied with a button; tool output, terminal output and whole
 * messages copy too, and a selection in the thread quotes into the composer. What the fence's info string or the code holds never becomes markup.
 */
import * as assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import type { ThreadEntry } from '../../src/protocol/entries';
import { changedEvent, snapshotEvent } from '../../src/protocol/messages';
import { everyKind, snapshotOf } from './fixtures';
import { frames, WebviewPage, type SuiteEnv } from './harness';

const agent = (text: string, done = true): ThreadEntry => ({ type: 'agent', text, attachments: [], done });
const code = (language: string, body: string) => ['```' + language, body, '```'].join('\n');
const TS = 'const seen = new Set<string>();\nif (seen.has(id)) return "dup"; // skip';

export function codeSuite(env: SuiteEnv): void {
  describe('code blocks and copy', function () {
    this.timeout(60_000);
    let view: WebviewPage;
    let scripts: string[];

    beforeEach(async () => {
      view = await WebviewPage.open(env.browser(), env.harness());
      scripts = [];
      view.page.on('request', (request: Request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
    });
    afterEach(async () => {
      await view?.close();
    });

    async function show(entries: ThreadEntry[], status: 'idle' | 'prompting' = 'idle'): Promise<void> {
      await view.host.sendNotification(snapshotEvent, snapshotOf(entries, { status: { state: status } }));
      await view.page.waitForSelector('.title:not(:empty)');
      await frames(view);
    }
    const colour = (selector: string) =>
      view.page
        .locator(selector)
        .first()
        .evaluate((node) => getComputedStyle(node).color);

    it('highlights a finished message’s code in the theme’s colours, with its language shown', async () => {
      await show([
        agent(`Here:\n\n${code('ts', TS)}\n\nAnd a shell line:\n\n${code('bash', 'npm test -- --grep list')}`),
      ]);
      await view.page.waitForSelector('.msg-agent pre code.hljs .hljs-keyword');
      assert.deepEqual(await view.page.locator('.code-lang').allTextContents(), ['ts', 'bash']);
      assert.deepEqual(await view.page.locator('.msg-agent code.hljs .hljs-keyword').allTextContents(), [
        'const',
        'new',
        'if',
        'return',
      ]);
      assert.equal(await view.page.locator('.msg-agent code .hljs-string').first().textContent(), '"dup"');
      assert.equal(await view.page.locator('.msg-agent code .hljs-comment').textContent(), '// skip');
      assert.equal(
        await view.page.locator('.msg-agent pre code').first().textContent(),
        `${TS}\n`,
        'highlighting changes no character',
      );
      assert.deepEqual(scripts, ['/dist/highlight.js'], 'the highlighter came when code came');

      // VS Code marks the kind of theme on <body>; the colours follow it.
      const dark = await colour('.hljs-keyword');
      assert.equal(dark, 'rgb(86, 156, 214)');
      const plain = await colour('.msg-agent pre code');
      assert.notEqual(await colour('.hljs-string'), plain);
      for (const [kind, keyword] of [
        ['vscode-light', 'rgb(0, 0, 255)'],
        ['vscode-high-contrast-light', 'rgb(15, 74, 133)'],
        ['vscode-dark', dark],
      ]) {
        await view.page.evaluate((name) => (document.body.className = name), kind);
        assert.equal(await colour('.hljs-keyword'), keyword, kind);
      }
      // A theme that defines the debugger's token colours colours strings with them.
      await view.page.evaluate(() =>
        document.documentElement.style.setProperty('--vscode-debugTokenExpression-string', 'rgb(1, 2, 3)'),
      );
      assert.equal(await colour('.hljs-string'), 'rgb(1, 2, 3)');
      assert.deepEqual(
        await view.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
        [],
      );
      await view.page.evaluate(() =>
        document.documentElement.style.removeProperty('--vscode-debugTokenExpression-string'),
      );
      await view.page.screenshot({ path: 'test-results/webview-code.png' });
    });

    it('loads the highlighter a slice at a time, the last of its languages included', async () => {
      // Every chat of a window shares one main thread: the highlighter registers its languages
      // over several tasks instead of in one. Timed at a quarter of the CPU, for the record.
      await show([agent('A chat without code yet.')]);
      await new Promise((done) => setTimeout(done, 500));
      const cdp = await view.page.context().newCDPSession(view.page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await view.page.evaluate(() => {
        const w = window as unknown as { __long: number[] };
        w.__long = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({
          type: 'longtask',
        });
      });
      const ps = 'function Get-Kept { param($Name) return $Name }';
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryAdded', index: 1, entry: agent(`${code('ts', TS)}\n\n${code('powershell', ps)}`) }],
      });
      await view.page.waitForSelector('.msg-agent pre code.hljs .hljs-keyword');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      const long = await view.page.evaluate(() => (window as unknown as { __long: number[] }).__long);
      console.log(
        `      the highlighter's first load at a quarter of the CPU: long tasks ${long.map((d) => d.toFixed(0)).join(', ') || 'none'}`,
      );
      assert.deepEqual(
        await view.page.locator('.msg-agent pre code.language-powershell .hljs-keyword').allTextContents(),
        ['function', 'param', 'return'],
        'the language registered last colours too',
      );
      assert.equal(await view.page.locator('.msg-agent pre code.language-powershell').textContent(), `${ps}\n`);
    });

    it('leaves a message plain while it streams, and highlights it once it is finished', async () => {
      await show([agent('', false)], 'prompting');
      const text = `Streaming:\n\n${code('ts', TS)}\n\n`;
      await view.host.sendNotification(changedEvent, { changes: [{ kind: 'textAppended', index: 0, text }] });
      await view.page.waitForSelector('.md-done .code-block pre code');
      assert.equal(await view.page.textContent('.md-done .code-lang'), 'ts', 'labelled while it streams');
      // Another, finished message loads the highlighter; the streaming one stays as it is.
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryAdded', index: 1, entry: agent(code('js', 'let x = 1;')) }],
      });
      await view.page.waitForSelector('.entry[data-index="1"] .hljs-keyword');
      await frames(view, 3);
      assert.equal(await view.page.locator('.entry[data-index="0"] [class^="hljs-"]').count(), 0);
      await view.host.sendNotification(changedEvent, {
        changes: [{ kind: 'entryChanged', index: 0, entry: agent(text.trim()) }],
      });
      await view.page.waitForSelector('.entry[data-index="0"] .md:not(.md-streaming) .hljs-keyword');
    });

    it('never fetches the highlighter for a chat without labelled code', async () => {
      await show([
        agent('Plain words, `inline code`, and a block without a language:\n\n```\nmake all\n```'),
        { type: 'user', text: 'thanks', attachments: [], done: true },
      ]);
      await frames(view, 4);
      assert.deepEqual(scripts, [], 'no script was fetched after the page’s own');
      assert.equal(await view.page.textContent('.code-lang'), '');
      assert.equal(await view.page.locator('.copy-button').count(), 1, 'a block without a language still copies');
    });

    it('keeps code that cannot be highlighted plain: an unknown language, a block too long to colour', async () => {
      const long = `${'let a = 1; '.repeat(90)}\n`.repeat(25).trimEnd();
      await show([agent(code('brainfrak', '+++[>++<-]')), agent(code('ts', long)), agent(code('ts', 'let b = 2;'))]);
      await view.page.waitForSelector('.entry[data-index="2"] .hljs-keyword');
      assert.equal(await view.page.textContent('.entry[data-index="0"] .code-lang'), 'brainfrak');
      assert.equal(await view.page.textContent('.entry[data-index="0"] pre code'), '+++[>++<-]\n');
      assert.equal(await view.page.locator('.entry[data-index="0"] [class^="hljs-"]').count(), 0);
      assert.equal(await view.page.locator('.entry[data-index="1"] [class^="hljs-"]').count(), 0);
      assert.equal(await view.page.textContent('.entry[data-index="1"] pre code'), `${long}\n`);
    });

    it('keeps only a plain language class, and code that looks like markup stays text', async () => {
      const payload = '<img src=x onerror="window.__pwned(\'code\')"><script>window.__pwned("script")</script>';
      await show([
        agent(code('html', payload)),
        agent('```ts" onmouseover="window.__pwned(1)" class="x\nlet y = 1;\n```'),
        agent('```language-ts\nlet z = 3;\n```'),
      ]);
      await view.page.waitForSelector('.entry[data-index="0"] .hljs-tag');
      assert.equal(await view.page.textContent('.entry[data-index="0"] pre code'), `${payload}\n`);
      const classes = await view.page.$$eval('.thread .md [class]', (nodes) =>
        nodes.filter((n) => !n.closest('pre > code') || n.tagName === 'CODE').map((n) => n.className),
      );
      for (const name of classes)
        assert.match(
          name,
          /^(language-[\w#+.-]+( hljs)?|code-block copyable|code-header|code-lang|copy-source|icon-button copy-button|codicon codicon-copy)$/,
          name,
        );
      assert.equal(await view.page.locator('.thread img, .thread script').count(), 0);
      assert.equal(await view.page.locator('.entry[data-index="1"] code[onmouseover]').count(), 0);
      assert.equal(
        await view.page.textContent('.entry[data-index="1"] .code-lang'),
        '',
        'a language with a quote is dropped',
      );
      await view.page.hover('.entry[data-index="1"] pre');
      assert.deepEqual(
        await view.page.evaluate(() => (window as unknown as { __pwnedCalls: string[] }).__pwnedCalls),
        [],
      );
    });

    it('copies a code block, terminal output, raw tool output and a whole message as Markdown', async () => {
      await show([
        ...everyKind,
        {
          type: 'tool',
          toolCallId: 'call-9',
          title: 'Fetch',
          kind: 'fetch',
          status: 'completed',
          content: [],
          locations: [],
          rawOutput: { status: 200 },
        },
      ]);
      const copied = async (): Promise<string> => {
        const request = await view.waitForRequest('copyText');
        view.requests.splice(view.requests.indexOf(request), 1);
        return (request.params as { text: string }).text;
      };
      await view.page.hover('.msg-agent .code-block');
      await view.page.click('.msg-agent .code-block .copy-button');
      assert.equal(
        await copied(),
        'const seen = new Set<string>();\nfor (const s of page.sessions) if (!seen.has(s.sessionId)) items.push(s);\n',
      );
      await view.page.waitForSelector('.msg-agent .code-block .copy-button.copied .codicon-check');

      await view.page.hover('.terminal');
      await view.page.click('.terminal .copy-button');
      assert.match(await copied(), /^> mocha\n[\s\S]*1 failing\n$/);

      await view.page.click('.tool-raw-summary:has-text("Output")');
      await view.page.hover('.tool-raw[open]');
      await view.page.click('.tool-raw[open] .copy-button');
      assert.equal(await copied(), '{\n  "status": 200\n}');

      const agentEntry = view.page.locator('.entry', { has: view.page.locator('.msg-agent') }).first();
      await agentEntry.hover();
      await agentEntry.locator('.msg-copy').click();
      assert.equal(await copied(), (everyKind[2] as { text: string }).text, 'the message’s Markdown, fences and all');
      const user = view.page.locator('.entry', { has: view.page.locator('.msg-user') }).first();
      await user.hover();
      await user.locator('.msg-copy').click();
      assert.equal(await copied(), (everyKind[0] as { text: string }).text);
      await view.page.keyboard.press('Tab');
      assert.equal(view.requests.filter((r) => r.method === 'copyText').length, 0, 'one request per click');
    });

    it('quotes a selection in the thread into the composer, after what was typed', async () => {
      await show([agent('First paragraph.\n\nThe **cursor** repeats when the page is empty.')]);
      assert.equal(await view.page.isHidden('.quote-button'), true);
      await view.page.fill('.composer-input', 'About this:');
      // A selection in the composer is not the thread's: no Quote.
      await view.page.evaluate(() => (document.querySelector('.composer-input') as HTMLTextAreaElement).select());
      await frames(view, 2);
      assert.equal(await view.page.isHidden('.quote-button'), true);
      await view.page.evaluate(() => getSelection()!.selectAllChildren(document.querySelectorAll('.msg-agent p')[1]!));
      await view.page.waitForSelector('.quote-button:not([hidden])');
      await view.page.click('.quote-button');
      assert.equal(
        await view.page.inputValue('.composer-input'),
        'About this:\n\n> The cursor repeats when the page is empty.\n\n',
      );
      assert.equal(await view.page.evaluate(() => document.activeElement?.className), 'composer-input');
      await view.page.waitForSelector('.quote-button', { state: 'hidden' });
      assert.equal(view.requests.filter((r) => r.method === 'sendPrompt').length, 0, 'quoted, not sent');
    });
  });
}
