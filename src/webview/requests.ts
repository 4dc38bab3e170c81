/** Requests from the page to the host that nothing waits for. */
import type { MessageConnection, RequestType, RequestType0 } from 'vscode-jsonrpc';
import { openLinkRequest, openLocationRequest } from '../protocol/messages';
import { classifyHref } from './links';

/** Fire and forget: the host reports failures through the thread; `failed` undoes what the page showed early. */
export function sendToHost<P>(
  connection: MessageConnection,
  type: RequestType<P, void, void> | RequestType0<void, void>,
  params?: P,
  failed?: () => void,
): void {
  const sent =
    params === undefined
      ? connection.sendRequest(type as RequestType0<void, void>)
      : connection.sendRequest(type as RequestType<P, void, void>, params);
  sent.catch((error: unknown) => {
    console.warn(`acp webview: ${type.method} failed`, error);
    failed?.();
  });
}

/** A link clicked in the thread: the host opens a web address or a file (at its line); nothing else. */
export function openAnchor(connection: MessageConnection, anchor: HTMLAnchorElement): void {
  const link = classifyHref(anchor.getAttribute('href'));
  if (link?.kind === 'link') sendToHost(connection, openLinkRequest, { href: link.href });
  else if (link?.kind === 'location')
    sendToHost(
      connection,
      openLocationRequest,
      link.line === undefined ? { path: link.path } : { path: link.path, line: link.line },
    );
}
