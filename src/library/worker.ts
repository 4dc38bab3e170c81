/**
 * The library's worker thread: owns the store (synchronous SQLite) so that writing transcripts
 * and searching them never holds up the extension host's event loop.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc';
import { createChannel } from '../protocol/channel';
import { LibraryStore, LibraryTooNew } from './store';
import {
  libraryCalls,
  logEvent,
  openedEvent,
  WORKER_NICE,
  type LibraryFailure,
  type LibraryOp,
  type LibraryRequest,
  type LibraryWorkerData,
  type ParamsOf,
  type ResultOf,
} from './workerProtocol';

const port = parentPort!;
const data = workerData as LibraryWorkerData;
const channel = createChannel({
  post: (m) => port.postMessage(m),
  onMessage: (listener) => {
    port.on('message', listener);
    return { dispose: () => port.off('message', listener) };
  },
});
const log = (line: string) => void channel.sendNotification(logEvent, line);

/**
 * Keeping a long transcript (its full-text index) takes a core for a second or more, right
 * after the chat showed it and while other chats may stream. On Linux, where a thread has a
 * priority of its own, this thread lowers its own so that on a busy machine the chats, the agent
 * and the editor go first. Elsewhere priority is the process's, and it stays as it is.
 */
function yieldToForeground(): void {
  if (process.platform !== 'linux') return;
  try {
    // "<pid>/task/<tid>": this thread's id, which setpriority(2) takes on Linux.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid !== process.pid) setPriority(tid, WORKER_NICE);
  } catch (e) {
    log(`The library's worker keeps its priority: ${e instanceof Error ? e.message : String(e)}`);
  }
}

let store: LibraryStore | undefined;
let failure: { message: string; tooNew: boolean } | undefined;

function failed(message: string, why: LibraryFailure = {}): ResponseError<LibraryFailure> {
  return new ResponseError(ErrorCodes.InternalError, message, why);
}

type Handlers = { [K in LibraryOp]: (s: LibraryStore, p: ParamsOf<K>) => ResultOf<K> };

const handlers: Handlers = {
  write: (s, p) => s.write(p),
  session: (s, p) => s.session(p),
  sessions: (s, p) => s.sessions(p),
  transcript: (s, p) => s.transcript(p),
  search: (s, p) => s.search(p.text, p.scope, p.limit),
  touched: (s, p) => s.touched(p.paths, p.scope),
  remove: (s, p) => s.remove(p),
  clear: (s) => s.clear(),
  stats: (s) => s.stats(),
  setMaxBytes: (s, p) => s.setMaxBytes(p.maxBytes),
  close: (s) => {
    s.close();
    store = undefined;
    failure = { message: 'The session library is closed.', tooNew: false };
  },
};

for (const op of Object.keys(libraryCalls) as LibraryOp[]) {
  const handler = handlers[op] as (s: LibraryStore, p: unknown) => unknown;
  channel.onRequest(libraryCalls[op] as LibraryRequest<typeof op>, (params: unknown) => {
    if (!store) {
      const why = failure ?? { message: 'The session library is closed.', tooNew: false };
      throw failed(why.message, { tooNew: why.tooNew });
    }
    try {
      return handler(store, params);
    } catch (e) {
      throw failed(e instanceof Error ? e.message : String(e));
    }
  });
}

channel.listen();
yieldToForeground();
try {
  store = LibraryStore.open({ dir: data.dir, maxBytes: data.maxBytes, log });
  void channel.sendNotification(openedEvent, {});
} catch (e) {
  failure = { message: e instanceof Error ? e.message : String(e), tooNew: e instanceof LibraryTooNew };
  void channel.sendNotification(openedEvent, { error: failure.message, tooNew: failure.tooNew });
}
