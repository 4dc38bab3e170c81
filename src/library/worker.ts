/**
 * The library's worker thread: owns the store (synchronous SQLite) so that writing transcripts
 * and searching them never holds up the extension host's event loop.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ResponseError, ErrorCodes } from 'vscode-jsonrpc';
import { createChannel } from '../protocol/channel';
import { LibraryBusy } from './sqlite';
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
/** Why the store cannot open, for good (a newer extension's file, a disk that refuses); or closed. */
let failure: { message: string; tooNew: boolean } | undefined;

function failed(message: string, why: LibraryFailure = {}): ResponseError<LibraryFailure> {
  return new ResponseError(ErrorCodes.InternalError, message, why);
}

/**
 * The store, opened on first need. Another window holding the file all the while this one
 * waited is no failure: the next request tries again.
 */
function opened(): LibraryStore {
  if (store) return store;
  if (failure) throw failed(failure.message, { tooNew: failure.tooNew });
  try {
    store = data.reader ? LibraryStore.openReader({ ...data, log }) : LibraryStore.open({ ...data, log });
    return store;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof LibraryBusy) throw failed(message, { busy: true });
    failure = { message, tooNew: e instanceof LibraryTooNew };
    throw failed(message, { tooNew: failure.tooNew });
  }
}

type Handlers = { [K in LibraryOp]: (s: LibraryStore, p: ParamsOf<K>) => ResultOf<K> };

const handlers: Handlers = {
  write: (s, p) => s.write(p),
  session: (s, p) => s.session(p),
  sessions: (s, p) => s.sessions(p),
  transcript: (s, p) => s.transcript(p),
  entry: (s, p) => s.entry(p),
  search: (s, p) => s.search(p.text, p.scope, p.limit, p.filter),
  warm: (s) => s.warm(),
  touched: (s, p) => s.touched(p.paths, p.scope, p.like),
  link: (s, p) => s.link(p),
  links: (s, p) => s.links(p),
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
    // Closing a library that never opened needs no file.
    if (op === 'close' && !store) {
      failure = { message: 'The session library is closed.', tooNew: false };
      return undefined;
    }
    const s = opened();
    try {
      return handler(s, params);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      throw failed(e instanceof Error ? e.message : String(e), { busy: e instanceof LibraryBusy });
    }
  });
}

channel.listen();
if (!data.reader) yieldToForeground();
try {
  void channel.sendNotification(openedEvent, { engine: opened().engine });
} catch (e) {
  const why = e instanceof ResponseError ? (e.data as LibraryFailure | undefined) : undefined;
  const message = e instanceof Error ? e.message : String(e);
  void channel.sendNotification(openedEvent, why?.busy ? { busy: message } : { error: message, tooNew: why?.tooNew });
}
