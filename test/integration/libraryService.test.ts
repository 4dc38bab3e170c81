import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { FILE_NAME, FORMAT_VERSION } from '../../src/library/schema';
import { LibraryService } from '../../src/library/service';
import { WORKER_NICE } from '../../src/library/workerProtocol';
import { repoRoot, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const workerPath = join(repoRoot, 'dist/libraryWorker.js');

/** A thread's nice value (Linux). */
function nice(tid: string): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  // The fields after the command name start with the 3rd; nice is the 19th.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('library: the service the extension holds', function () {
  this.timeout(30_000);
  let dir: ReturnType<typeof tempDir>;
  let service: LibraryService;
  let lines: string[];
  beforeEach(() => {
    dir = tempDir('acp-library-service-');
    lines = [];
    service = new LibraryService({ workerPath, dir: dir.path, log: (m) => lines.push(m) });
  });
  afterEach(async () => {
    await service.close();
    dir.cleanup();
  });

  it('starts nothing until first used, then keeps and searches', async () => {
    assert.equal(existsSync(join(dir.path, FILE_NAME)), false, 'no file before first use');
    const library = service.get()!;
    await library.write({
      agentId: 'a',
      sessionId: 's',
      cwd: '/p',
      entries: [{ index: 0, entry: { type: 'user', text: 'kept words', attachments: [], done: true } }],
    });
    assert.equal((await library.search('kept'))[0]!.sessionId, 's');
    assert.equal(service.get(), library, 'one library for the window');
  });

  it('runs its worker thread at a lower priority on Linux, so a busy machine serves the chats first', async function () {
    if (process.platform !== 'linux' || nice(String(process.pid)) >= WORKER_NICE) this.skip();
    const before = new Set(readdirSync('/proc/self/task'));
    const mainNice = nice(String(process.pid));
    await service.get()!.ready;
    const started = readdirSync('/proc/self/task').filter((tid) => !before.has(tid));
    assert.ok(
      started.some((tid) => nice(tid) === WORKER_NICE),
      `a thread the library started runs at nice ${WORKER_NICE}: ${started.map((t) => `${t}:${nice(t)}`).join(' ')}`,
    );
    assert.equal(nice(String(process.pid)), mainNice, 'the main thread keeps its priority');
    assert.ok(!lines.some((l) => /keeps its priority/.test(l)), lines.join('\n'));
  });

  it('searches in a thread of its own at the normal priority, which sees every write sent before the search', async function () {
    if (process.platform !== 'linux' || nice(String(process.pid)) >= WORKER_NICE) this.skip();
    const library = service.get()!;
    await library.ready;
    const before = new Set(readdirSync('/proc/self/task'));
    await library.warm();
    const started = readdirSync('/proc/self/task').filter((tid) => !before.has(tid));
    assert.ok(
      started.some((tid) => nice(tid) === nice(String(process.pid))),
      `the searching thread keeps the host's priority: ${started.map((t) => `${t}:${nice(t)}`).join(' ')}`,
    );
    // Written without waiting, searched at once: each search must see all that was sent before it.
    for (let round = 0; round < 20; round++) {
      const writes = Array.from({ length: 10 }, (_, i) =>
        library.write({
          agentId: 'a',
          sessionId: `s${round}-${i}`,
          cwd: '/p',
          entries: [{ index: 0, entry: { type: 'user', text: `quetzal${round} said`, attachments: [], done: true } }],
        }),
      );
      const hits = await library.search(`quetzal${round}`, {}, 50);
      assert.equal(hits.length, 10, `round ${round}: ${hits.length} of the 10 sessions written before the search`);
      await Promise.all(writes);
    }
  });

  it('stops when turned off and starts again when turned on', async () => {
    const first = service.get()!;
    await first.ready;
    await service.configure({ enabled: false, maxBytes: 1e9 });
    assert.equal(service.get(), undefined);
    await assert.rejects(first.search('x'), /closed/);
    void service.configure({ enabled: true, maxBytes: 1e9 });
    const again = service.get()!;
    assert.notEqual(again, first);
    await again.ready;
  });

  it('passes a new size limit to the running library', async () => {
    const library = service.get()!;
    await library.ready;
    void service.configure({ enabled: true, maxBytes: 12_345_678 });
    // The worker answers in order: the stats come after the new limit.
    assert.equal((await library.stats()).maxBytes, 12_345_678);
  });

  it('stays off, said once in the log, when the file is from a newer extension', async () => {
    const db = new Database(join(dir.path, FILE_NAME));
    db.exec(`PRAGMA locking_mode = EXCLUSIVE; PRAGMA user_version = ${FORMAT_VERSION + 1}`);
    db.close();
    const library = service.get()!;
    await assert.rejects(library.ready, /newer version/);
    await waitFor('the library to be off', () => service.get() === undefined);
    assert.equal(lines.filter((l) => /off in this window/.test(l)).length, 1);
  });
});
