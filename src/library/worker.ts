/**
 * The library's worker thread: owns the store (synchronous SQLite) so that writing transcripts
 * and searching them never holds up the extension host's event loop.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { LibraryStore, LibraryTooNew } from './store';
import {
  WORKER_NICE,
  type LibraryCalls,
  type LibraryOp,
  type LibraryReply,
  type LibraryRequest,
  type LibraryWorkerData,
} from './workerProtocol';

const port = parentPort!;
const data = workerData as LibraryWorkerData;
const post = (m: LibraryReply) => port.postMessage(m);
const log = (line: string) => post({ id: 0, log: line });

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

yieldToForeground();

let store: LibraryStore | undefined;
let failure: { message: string; tooNew: boolean } | undefined;
try {
  store = LibraryStore.open({ dir: data.dir, maxBytes: data.maxBytes, log });
  post({ id: 0, ready: true });
} catch (e) {
  failure = { message: e instanceof Error ? e.message : String(e), tooNew: e instanceof LibraryTooNew };
  post({ id: 0, ready: true, error: failure.message, tooNew: failure.tooNew });
}

type Handlers = { [K in LibraryOp]: (s: LibraryStore, p: LibraryCalls[K]['params']) => LibraryCalls[K]['result'] };

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

port.on('message', (req: LibraryRequest) => {
  if (!store) {
    post({
      id: req.id,
      ok: false,
      message: failure?.message ?? 'The session library is closed.',
      tooNew: failure?.tooNew,
    });
    return;
  }
  try {
    const handler = handlers[req.op] as (s: LibraryStore, p: unknown) => unknown;
    post({ id: req.id, ok: true, result: handler(store, req.params) });
  } catch (e) {
    post({ id: req.id, ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
