/** Requests from the page to the host that nothing waits for. */
import type { MessageConnection, RequestType, RequestType0 } from 'vscode-jsonrpc';

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
