import * as assert from 'node:assert/strict';
import { createChannel, type MessagePort } from '../../../src/protocol/channel';
import { changedEvent, openLinkRequest, readyRequest } from '../../../src/protocol/messages';

/** Two ports joined back to back, delivering asynchronously like postMessage. */
function pair(): [MessagePort, MessagePort] {
  const listeners: [Set<(m: unknown) => void>, Set<(m: unknown) => void>] = [new Set(), new Set()];
  const port = (mine: number): MessagePort => ({
    post: (message) => {
      const copy = structuredClone(message);
      setTimeout(() => listeners[1 - mine].forEach((l) => l(copy)), 0);
    },
    onMessage: (listener) => {
      listeners[mine].add(listener);
      return { dispose: () => listeners[mine].delete(listener) };
    },
  });
  return [port(0), port(1)];
}

describe('webview channel', () => {
  it('carries requests and notifications both ways and ignores foreign messages', async () => {
    const [hostPort, webviewPort] = pair();
    const host = createChannel(hostPort);
    const webview = createChannel(webviewPort);
    const links: string[] = [];
    let readyCount = 0;
    host.onRequest(readyRequest, () => {
      readyCount++;
      void host.sendNotification(changedEvent, { changes: [{ kind: 'textAppended', index: 0, text: 'hi' }] });
    });
    host.onRequest(openLinkRequest, ({ href }) => void links.push(href));
    const received = new Promise<string>((resolve) =>
      webview.onNotification(changedEvent, ({ changes }) => resolve(changes[0].kind)),
    );
    host.listen();
    webview.listen();
    webviewPort.post({ not: 'json-rpc' });
    await webview.sendRequest(readyRequest, {});
    await webview.sendRequest(openLinkRequest, { href: 'https://example.com' });
    assert.equal(await received, 'textAppended');
    assert.equal(readyCount, 1);
    assert.deepEqual(links, ['https://example.com']);
    host.dispose();
    webview.dispose();
  });
});
