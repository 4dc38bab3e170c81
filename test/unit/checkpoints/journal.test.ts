import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { withFileLock } from '../../../src/checkpoints/fileLock';
import { Journal, type JournalRecord } from '../../../src/checkpoints/journal';
import { tempDir } from '../../support/refAgent';

const cp = (id: string, at: number, sessionId?: string): JournalRecord => ({
  kind: 'checkpoint',
  id: id.repeat(40),
  at,
  label: `cp ${id}`,
  phase: 'before',
  ...(sessionId ? { sessionId } : {}),
});

describe("A folder's checkpoint journal", () => {
  const dir = tempDir('acp-journal-');
  after(() => dir.cleanup());

  it('keeps records across instances (a reload, another window) and skips a line cut short', async () => {
    const file = join(dir.path, 'a', 'journal.jsonl');
    await new Journal(file, dir.path).append(cp('a', 1, 's1'), cp('b', 2, 's2'));
    appendFileSync(file, '{"kind":"checkpoint","id":"cut');
    appendFileSync(file, '\n');
    await new Journal(file, dir.path).append(cp('c', 3));
    const records = await new Journal(file, dir.path).read();
    assert.deepEqual(
      records.map((r) => (r.kind === 'checkpoint' ? r.label : r.kind)),
      ['cp a', 'cp b', 'cp c'],
    );
  });

  it('forgets pruned checkpoints, and what names them, until one is taken again', async () => {
    const file = join(dir.path, 'b', 'journal.jsonl');
    const j = new Journal(file, dir.path);
    await j.append(cp('a', 1), cp('b', 2), {
      kind: 'turn',
      sessionId: 's',
      turn: 't',
      at: 3,
      before: 'a'.repeat(40),
      after: 'b'.repeat(40),
      prompt: 'p',
      files: 1,
      added: 1,
      deleted: 0,
      paths: ['x'],
      unnamed: [],
      ranCommands: false,
    });
    await j.forget(['a'.repeat(40)]);
    assert.deepEqual(
      (await j.read()).map((r) => r.kind + (r.kind === 'checkpoint' ? ` ${r.label}` : '')),
      ['checkpoint cp b'],
    );
    await j.append(cp('a', 4));
    assert.deepEqual(
      (await j.read()).map((r) => (r.kind === 'checkpoint' ? r.label : r.kind)),
      ['cp b', 'cp a'],
      'the same tree taken again is alive',
    );
  });

  it('rewrites itself without what was forgotten once it has grown', async () => {
    const file = join(dir.path, 'c', 'journal.jsonl');
    const j = new Journal(file, dir.path);
    const many = Array.from({ length: 10_000 }, (_, i) => ({ ...cp('d', i), id: i.toString(16).padStart(40, '0') }));
    await j.append(...many);
    assert.ok(statSync(file).size > 1024 * 1024);
    await j.forget(many.slice(0, 9990).map((r) => r.id));
    assert.ok(statSync(file).size < 10_000, 'compacted');
    assert.equal((await j.read()).length, 10);
    assert.equal(readFileSync(file, 'utf8').includes('forget'), false);
  });

  it('waits for a lock another window holds, and takes over one left by a window that died', async () => {
    const lock = join(dir.path, 'held.lock');
    mkdirSync(lock);
    const order: string[] = [];
    const waiting = withFileLock(lock, async () => {
      order.push('second');
    });
    await new Promise((r) => setTimeout(r, 30));
    order.push('first done');
    // The holder dies without removing its lock: it is stale once old enough.
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await waiting;
    assert.deepEqual(order, ['first done', 'second']);
  });
});
