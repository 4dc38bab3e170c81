/**
 * A page that runs the real webview bundle (dist/webview.js, dist/chat.css) outside VS Code:
 * served from 127.0.0.1 on an ephemeral port, with a CSP like the chat panel's (scripts only by
 * nonce, styles only from the server, nothing remote) and a fake `acquireVsCodeApi`. The test
 * plays the host over the real channel: what the page posts reaches `host`, and notifications
 * sent on `host` arrive in the page as window 'message' events, as `webview.postMessage` does.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { MessageConnection } from 'vscode-jsonrpc';
import { chatCsp } from '../../src/protocol/csp';
import { createChannel } from '../../src/protocol/channel';
import { readyRequest } from '../../src/protocol/messages';
import { FIRST_SCREEN_SCRIPT } from '../../src/chat/firstScreen';

/** First screens (src/chat/firstScreen.ts) the pages of this process are to paint, by the id in their address. */
const firstScreens = new Map<string, string>();

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The repository root: out/test/webview/ when bundled, test/webview/ from source. */
const ROOT = resolve(__dirname, '..', '..', '..');

/** A few of VS Code's Dark+ theme variables, as the workbench injects them. */
const DARK_THEME = `:root {
  --vscode-font-family: system-ui, -apple-system, 'Segoe UI', Ubuntu, sans-serif;
  --vscode-font-size: 13px;
  --vscode-editor-font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace;
  --vscode-foreground: #cccccc;
  --vscode-descriptionForeground: #9d9d9d;
  --vscode-editor-background: #1e1e1e;
  --vscode-editorWidget-background: #252526;
  --vscode-panel-border: #80808059;
  --vscode-textLink-foreground: #3794ff;
  --vscode-textLink-activeForeground: #3794ff;
  --vscode-textCodeBlock-background: #0a0a0a66;
  --vscode-textBlockQuote-background: #7f7f7f1a;
  --vscode-textBlockQuote-border: #007acc80;
  --vscode-button-background: #0e639c;
  --vscode-button-foreground: #ffffff;
  --vscode-button-hoverBackground: #1177bb;
  --vscode-button-secondaryBackground: #3a3d41;
  --vscode-button-secondaryForeground: #ffffff;
  --vscode-input-background: #3c3c3c;
  --vscode-input-foreground: #cccccc;
  --vscode-input-placeholderForeground: #a6a6a6;
  --vscode-focusBorder: #007fd4;
  --vscode-dropdown-background: #3c3c3c;
  --vscode-dropdown-foreground: #f0f0f0;
  --vscode-dropdown-border: #3c3c3c;
  --vscode-editorSuggestWidget-background: #252526;
  --vscode-editorSuggestWidget-border: #454545;
  --vscode-editorSuggestWidget-selectedBackground: #04395e;
  --vscode-diffEditor-insertedLineBackground: #9bb95533;
  --vscode-diffEditor-removedLineBackground: #ff000033;
  --vscode-testing-iconPassed: #73c991;
  --vscode-errorForeground: #f48771;
  --vscode-charts-blue: #3794ff;
  --vscode-inputValidation-errorBorder: #be1100;
  --vscode-inputValidation-errorBackground: #5a1d1d;
  --vscode-inputValidation-warningBorder: #b89500;
  --vscode-inputValidation-warningBackground: #352a05;
  --vscode-inputValidation-infoBorder: #007acc;
  --vscode-widget-shadow: #0000005c;
  --vscode-terminal-background: #181818;
}`;

export interface Harness {
  origin: string;
  close(): Promise<void>;
}

/** Serves the page; `?bare=1` leaves the webview bundle out (to time the transport alone). */
export async function startHarness(): Promise<Harness> {
  const server: Server = createServer((request, response) => {
    void serve(request.url ?? '/', origin).then(
      ({ status, type, body }) => {
        response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
        response.end(body);
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      },
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((done) => server.close(() => done())) };
}

async function serve(url: string, origin: string): Promise<{ status: number; type: string; body: string | Buffer }> {
  const { pathname, searchParams } = new URL(url, origin);
  switch (pathname) {
    case '/': {
      const first = firstScreens.get(searchParams.get('first') ?? '');
      const style = first === undefined ? undefined : await readFile(join(ROOT, 'dist', 'message.css'), 'utf8');
      const firstScreen = first === undefined ? undefined : { html: first, style: style! };
      return {
        status: 200,
        type: 'text/html; charset=utf-8',
        body: page(origin, searchParams.has('bare'), firstScreen),
      };
    }
    case '/dist/webview.js':
      return { status: 200, type: 'text/javascript', body: await readFile(join(ROOT, 'dist', 'webview.js')) };
    case '/theme.css':
      return { status: 200, type: 'text/css', body: DARK_THEME };
    default: {
      // The stylesheets, fonts and lazily loaded scripts the panel loads from the extension
      // (media/, dist/), and nothing else.
      const file = /^\/(media|dist)\/([\w.-]+\.(css|ttf|js))$/.exec(pathname);
      if (!file) return { status: 404, type: 'text/plain', body: 'not found' };
      return {
        status: 200,
        type: { css: 'text/css', ttf: 'font/ttf', js: 'text/javascript' }[file[3] as 'css' | 'ttf' | 'js'],
        body: await readFile(join(ROOT, file[1], file[2])),
      };
    }
  }
}

/**
 * The page as the chat panel builds it (the same CSP), plus the fake webview API and the test's
 * probes; with a first screen, as the panel builds a chat opened on a search hit: the screen's
 * style inline, and its script loading the chat's stylesheet and script once the page loaded.
 */
function page(origin: string, bare: boolean, first?: { html: string; style: string }): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = chatCsp(origin, nonce);
  const chat = first
    ? `${first.html}
<div id="app"></div>
<script nonce="${nonce}" data-style="${origin}/dist/chat.css" data-script="${origin}/dist/webview.js">${FIRST_SCREEN_SCRIPT}</script>`
    : `<div id="app"></div>
${bare ? '' : `<script nonce="${nonce}" src="${origin}/dist/webview.js"></script>`}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${origin}/theme.css">
${first ? `<style nonce="${nonce}">${first.style}</style>` : `<link rel="stylesheet" href="${origin}/dist/chat.css">`}
<title>ACP chat harness</title>
</head>
<body>
<script nonce="${nonce}">
(() => {
  // VS Code keeps a webview's state across reloads; sessionStorage stands in for it here.
  const saved = sessionStorage.getItem('vscode-state');
  let state = window.__initialState !== undefined ? window.__initialState : saved ? JSON.parse(saved) : undefined;
  let acquired = false;
  window.__posted = [];
  window.__pwnedCalls = [];
  window.__violations = [];
  window.__received = [];
  window.__pwned = (why) => window.__pwnedCalls.push(String(why));
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  // Capture phase, before the webview's listener: when each host message arrived. Reading
  // data deserialises it (once, cached), so a bare page pays what any receiver pays.
  window.addEventListener('message', (e) => { void e.data; window.__received.push(performance.now()); }, true);
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may be called once');
    acquired = true;
    return Object.freeze({
      postMessage: (message) => {
        window.__posted.push(message);
        if (window.__toHost) window.__toHost(message);
      },
      getState: () => state,
      setState: (value) => { state = value; window.__state = value; sessionStorage.setItem('vscode-state', JSON.stringify(value)); },
    });
  };
})();
</script>
${chat}
</body>
</html>`;
}

/** A posted request as the host saw it. */
export interface HostRequest {
  method: string;
  params: unknown;
}

/** One webview page with the test playing the host. */
export class WebviewPage {
  readonly requests: HostRequest[] = [];
  private readonly waiters: Array<() => void> = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly host: MessageConnection,
  ) {}

  static async open(
    browser: Browser,
    harness: Harness,
    options: { state?: unknown; width?: number; height?: number; firstScreen?: string } = {},
  ): Promise<WebviewPage> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 900, height: options.height ?? 800 },
    });
    const page = await context.newPage();
    if (options.state !== undefined)
      await page.addInitScript(
        (state) => ((window as unknown as { __initialState: unknown }).__initialState = state),
        options.state,
      );
    const listeners = new Set<(message: unknown) => void>();
    await page.exposeFunction('__toHost', (message: unknown) => listeners.forEach((listener) => listener(message)));
    const host = createChannel({
      post: (message) => void page.evaluate((m) => window.postMessage(m, '*'), message).catch(() => undefined),
      onMessage: (listener) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    });
    const view = new WebviewPage(context, page, host);
    const record = (method: string, params: unknown): void => {
      view.requests.push({ method, params });
      view.waiters.splice(0).forEach((wake) => wake());
    };
    const ready = new Promise<void>((done) =>
      host.onRequest(readyRequest, (params) => {
        record(readyRequest.method, params);
        done();
      }),
    );
    host.onRequest(record);
    host.listen();
    let address = `${harness.origin}/`;
    if (options.firstScreen !== undefined) {
      const id = randomBytes(8).toString('hex');
      firstScreens.set(id, options.firstScreen);
      address += `?first=${id}`;
    }
    await page.goto(address);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error('the webview sent no ready request within 15 s')), 15_000)),
    );
    await Promise.race([ready, late]).finally(() => clearTimeout(timer));
    return view;
  }

  /** Waits until a request matching `method` (and `test`) was posted; returns it. */
  async waitForRequest(
    method: string,
    test: (params: unknown) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<HostRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.requests.find((request) => request.method === method && test(request.params));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no ${method} request within ${timeoutMs} ms; got ${this.requests.map((r) => r.method).join(', ') || 'none'}`,
        );
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.host.dispose();
    await this.context.close();
  }
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.ACP_CHROMIUM || process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Waits `count` animation frames: changes are applied in one, measured heights settle in the next. */
export async function frames(view: WebviewPage, count = 2): Promise<void> {
  await view.page.evaluate(
    (n) =>
      new Promise<void>((done) => {
        const step = (left: number): void => void (left ? requestAnimationFrame(() => step(left - 1)) : done());
        step(n);
      }),
    count,
  );
}

/** What the suites share: the browser and the server, started once. */
export interface SuiteEnv {
  browser(): Browser;
  harness(): Harness;
}
