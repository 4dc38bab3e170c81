/**
 * Agent text is hostile until rendered inert: every payload of the corpus goes everywhere agent
 * text reaches (messages, streaming text, thoughts, tool titles, tool text, diffs, terminal
 * output and exit, raw tool input and output, image types and data, embedded resources,
 * plans, notices, dividers, permission cards, elicitation forms and addresses, the title,
 * command completions), and
 * nothing may run, nothing dangerous may stay in the DOM, and no click may navigate.
 */
import * as assert from 'node:assert/strict';
import type { ThreadEntry, ThreadMeta } from '../../src/protocol/entries';
import { snapshotEvent } from '../../src/protocol/messages';
import { meta, snapshotOf } from './fixtures';
import { frames, WebviewPage, type SuiteEnv } from './harness';
import { FORBIDDEN_TAGS, XSS_PAYLOADS } from './xss';

function hostileEntries(payload: string): ThreadEntry[] {
  return [
    { type: 'agent', text: `Before ${payload} after`, attachments: [], done: true },
    {
      type: 'agent',
      text: payload,
      attachments: [
        { type: 'resource_link', uri: payload, name: payload },
        { type: 'image', mimeType: payload, data: payload },
        { type: 'image', mimeType: 'image/png', data: payload, uri: payload },
        { type: 'image', mimeType: `image/png;${payload}`, data: 'iVBORw0KGgo=' },
        { type: 'resource', resource: { uri: payload, text: payload, mimeType: payload } },
        { type: 'resource', resource: { uri: payload, blob: payload, mimeType: `image/${payload}` } },
      ],
      done: true,
    },
    { type: 'user', text: payload, attachments: [], done: true },
    { type: 'thought', text: payload, attachments: [], done: true },
    { type: 'agent', text: `${payload}\n\n${payload}\n\nopen tail ${payload}`, attachments: [], done: false },
    {
      type: 'tool',
      toolCallId: 'x',
      title: payload,
      kind: 'edit',
      status: 'completed',
      content: [
        { type: 'content', content: { type: 'text', text: payload } },
        { type: 'diff', path: payload, oldText: `a\n${payload}\n`, newText: `b\n${payload}\n${payload}\n` },
        { type: 'terminal', terminalId: 't' },
      ],
      locations: [{ path: payload, line: 1 }],
      terminalOutput: { t: { output: payload, truncated: false, exitCode: null, signal: payload } },
      rawInput: { [payload]: payload, nested: [payload, { payload }] },
      rawOutput: payload,
    },
    { type: 'plan', entries: [{ content: payload, priority: 'high', status: 'pending' }] },
    { type: 'notice', severity: 'error', title: payload, description: payload },
    { type: 'divider', text: payload },
    {
      type: 'permission',
      requestId: 'p',
      toolCallId: 'x',
      title: payload,
      options: [{ optionId: payload, name: payload, kind: 'allow_once' }],
    },
    {
      type: 'elicitation',
      requestId: 'e-form',
      mode: 'form',
      message: payload,
      schema: {
        type: 'object',
        title: payload,
        description: payload,
        properties: {
          [payload]: { type: 'string', title: payload, description: payload, default: payload, pattern: payload },
          pick: { type: 'string', enum: [payload, 'b'], default: payload },
          named: { type: 'string', oneOf: [{ const: payload, title: payload, description: payload }] },
          many: { type: 'array', items: { anyOf: [{ const: payload, title: payload }] }, default: [payload] },
          when: { type: 'string', format: 'date-time', default: payload },
          odd: { type: payload, title: payload },
        },
        required: [payload, 'odd'],
      },
    },
    { type: 'elicitation', requestId: 'e-url', mode: 'url', message: payload, url: payload },
    { type: 'elicitation', requestId: 'e-web', mode: 'url', message: payload, url: `https://example.com/${payload}` },
  ];
}

/** Everything dangerous left in the rendered thread and chrome, as readable strings. */
function findDanger(forbidden: string[]): string[] {
  // Runs in the page: nothing from this module's scope is visible there.
  const badUrl = /^(?:javascript|vbscript|data|blob):/i;
  const found: string[] = [];
  const roots = document.querySelectorAll('.thread, .header, .status-area, .completions');
  for (const root of roots) {
    for (const node of root.querySelectorAll('*')) {
      const tag = node.tagName.toLowerCase();
      // The one image the thread may hold: ours, from inline base64 of a raster type.
      const ownImage =
        tag === 'img' &&
        node.classList.contains('content-image') &&
        /^data:image\/(?:png|jpeg|gif|webp|bmp|avif);base64,[A-Za-z0-9+/]*={0,2}$/.test(node.getAttribute('src') ?? '');
      // Form controls of an elicitation card are ours (Markdown cannot make an element with a class).
      const ownControl =
        tag === 'input' && node.classList.contains('elicitation-input') && !!node.closest('.elicitation');
      if (forbidden.includes(tag) && !ownImage && !ownControl) found.push(`<${tag}>`);
      for (const attr of node.attributes) {
        const name = attr.name.toLowerCase();
        const value = attr.value.replace(/[\u0000-\u0020\u007f-\u009f\u200b-\u200f\u2028-\u202e\ufeff]/g, '');
        if (name.startsWith('on')) found.push(`${tag}[${name}]`);
        if (name === 'style' && node.closest('.entry')) found.push(`${tag}[style]`);
        if (
          ['href', 'src', 'xlink:href', 'action', 'formaction', 'srcdoc', 'data'].includes(name) &&
          badUrl.test(value) &&
          !(ownImage && name === 'src')
        )
          found.push(`${tag}[${name}=${attr.value}]`);
      }
    }
  }
  return found;
}

export function securitySuite(env: SuiteEnv): void {
  describe('hostile agent text', function () {
    this.timeout(120_000);
    let view: WebviewPage;
    const dialogs: string[] = [];

    before(async () => {
      // Tall enough that every entry of one payload is rendered at once; thoughts start open.
      view = await WebviewPage.open(env.browser(), env.harness(), {
        height: 6000,
        state: { draft: '', openThoughts: [3] },
      });
      view.page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
    });
    after(async () => {
      await view?.close();
    });

    it(`renders ${XSS_PAYLOADS.length} payloads inert everywhere agent text goes`, async () => {
      assert.ok(XSS_PAYLOADS.length >= 50);
      const page = view.page;
      const title = await page.title();
      for (const [n, payload] of XSS_PAYLOADS.entries()) {
        const hostileMeta: ThreadMeta = {
          ...meta,
          title: payload,
          commands: [{ name: `x${payload}`, description: payload }],
          modes: { currentModeId: payload, availableModes: [{ id: payload, name: payload }] },
        };
        await view.host.sendNotification(
          snapshotEvent,
          snapshotOf(hostileEntries(payload), {
            meta: hostileMeta,
            status: { state: 'error', message: payload, canRetry: true },
          }),
        );
        await page.waitForFunction(
          (count) =>
            document.querySelectorAll('.entry').length === count &&
            document.querySelector('.title')?.textContent !== '',
          hostileEntries('').length,
        );
        // Completions render command names and descriptions too.
        await page.fill('.composer-input', '/x');
        await page.dispatchEvent('.composer-input', 'input');
        await frames(view);
        const danger = await page.evaluate(findDanger, FORBIDDEN_TAGS);
        assert.deepEqual(danger, [], `payload ${n}: ${payload}`);
        // Click every link: none may navigate or reach the host with a script URL.
        const links = await page.locator('.thread a').count();
        for (let i = 0; i < links; i++) await page.locator('.thread a').nth(i).click({ force: true });
        await frames(view, 1);
      }
      await page.fill('.composer-input', '');
      await frames(view, 3);
      const state = await page.evaluate(() => {
        const w = window as unknown as { __pwnedCalls: string[]; __violations: string[] };
        return { pwned: w.__pwnedCalls, violations: w.__violations, title: document.title, href: location.href };
      });
      assert.deepEqual(state.pwned, [], 'no payload ran');
      assert.deepEqual(dialogs, [], 'no dialog opened');
      assert.equal(state.title, title, 'document.title untouched');
      assert.deepEqual(state.violations, [], 'nothing even tried to run (the CSP had nothing to block)');
      assert.equal(state.href, `${env.harness().origin}/`);
      assert.equal(view.context.pages().length, 1, 'no window opened');
      // Tool locations go to the host as the agent wrote them (it checks them against the
      // session's roots); links must only ever carry schemes VS Code may open.
      const links = view.requests
        .filter((r) => r.method === 'openLink')
        .map((r) => (r.params as { href: string }).href);
      assert.ok(links.length > 0, 'links were clicked');
      for (const href of links) assert.match(href, /^(?:https?|mailto|vscode|vscode-insiders):/i, href);
    });

    it('shows markup from agent text as text', async () => {
      const payload = '<script>__pwned("text")</script><b>bold?</b>';
      await view.host.sendNotification(
        snapshotEvent,
        snapshotOf([{ type: 'agent', text: payload, attachments: [], done: true }], {
          meta: { ...meta, title: payload },
        }),
      );
      await view.page.waitForFunction(() => document.querySelectorAll('.entry').length === 1);
      assert.equal((await view.page.textContent('.msg-agent .md'))?.trim(), payload);
      assert.equal(await view.page.textContent('.title'), payload);
      assert.equal(await view.page.locator('.msg-agent b').count(), 0);
    });
  });
}
