/**
 * The library's worker thread: owns the store (synchronous SQLite) so that writing transcripts
 * and searching them never holds up the extension host's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LibraryStore, LibraryTooNew } from './store';
import type { LibraryCalls, LibraryOp, LibraryReply, LibraryRequest, LibraryWorkerData } from './workerProtocol';

const port = parentPort!;
const data = workerData as LibraryWorkerData;
const post = (m: LibraryReply) => port.postMessage(m);
const log = (line: string) => post({ id: 0, log: line });

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
