/**
 * One of the library's worker threads as the extension host talks to it: a typed channel over
 * the thread's messages, the thread's first try at opening the file, and its end.
 */
import { Worker } from 'node:worker_threads';
import type { MessageConnection } from 'vscode-jsonrpc';
import { createChannel } from '../protocol/channel';
import { logEvent, openedEvent, type LibraryWorkerData, type OpenedParams } from './workerProtocol';

export interface ThreadEvents {
  log: (line: string) => void;
  /** The thread's first try at opening the file. */
  opened: (p: OpenedParams) => void;
  /** The thread failed or exited. */
  lost: (why: string) => void;
}

export class LibraryThread {
  private readonly worker: Worker;
  readonly channel: MessageConnection;

  constructor(workerPath: string, data: LibraryWorkerData, on: ThreadEvents) {
    const worker = (this.worker = new Worker(workerPath, { workerData: data }));
    this.channel = createChannel({
      post: (m) => worker.postMessage(m),
      onMessage: (listener) => {
        worker.on('message', listener);
        return { dispose: () => worker.off('message', listener) };
      },
    });
    this.channel.onNotification(logEvent, (line) => on.log(line));
    this.channel.onNotification(openedEvent, (p) => on.opened(p));
    this.channel.listen();
    worker.on('error', (e) => {
      on.log(`The session library failed: ${e.message}`);
      on.lost(e.message);
    });
    worker.on('exit', (code) => on.lost(`its worker exited (${code})`));
  }

  /** Every call still waiting is answered with a failure; nothing more is sent. */
  disconnect(): void {
    this.channel.dispose();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}
