/**
 * A vscode-jsonrpc connection over a webview's message port, the same on both sides:
 * - webview: `post` = `acquireVsCodeApi().postMessage`, `onMessage` = window 'message' (event.data);
 * - host: `post` = `webview.postMessage`, `onMessage` = `webview.onDidReceiveMessage`.
 *
 * `vscode-jsonrpc` resolves to its node entry for the extension bundle and, through the
 * package's `browser` field (honoured by esbuild's browser platform), to its browser entry
 * for the webview bundle; each installs its own runtime (RAL), so this file stays free of
 * platform imports.
 */
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createMessageConnection,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageConnection,
  type MessageReader,
  type MessageWriter,
} from 'vscode-jsonrpc';

/** The two directions of a webview's message channel. */
export interface MessagePort {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): { dispose(): void };
}

/** Only JSON-RPC frames reach the connection; anything else on the port is ignored. */
export function isJsonRpcMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

class PortReader extends AbstractMessageReader implements MessageReader {
  constructor(private readonly port: MessagePort) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    return this.port.onMessage((message) => {
      if (isJsonRpcMessage(message)) callback(message);
    });
  }
}

class PortWriter extends AbstractMessageWriter implements MessageWriter {
  constructor(private readonly port: MessagePort) {
    super();
  }

  async write(message: Message): Promise<void> {
    try {
      this.port.post(message);
    } catch (error) {
      // A disposed webview throws on post: report it as a writer error, never crash the caller.
      this.fireError(error, message, 0);
      throw error;
    }
  }

  end(): void {}
}

/** Creates (but does not start) a connection; call `listen()` after registering handlers. */
export function createChannel(port: MessagePort): MessageConnection {
  return createMessageConnection(new PortReader(port), new PortWriter(port));
}
