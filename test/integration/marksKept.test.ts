import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryLogger } from '../../src/agent/log';
import { marksStore } from '../../src/app/app';
import { SessionMarks } from '../../src/sessions/marks';
import { repoRoot, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

const writer = join(repoRoot, 'out/test/support/marksWriter.js');

/** The global state as a window starting now reads it (what reached the disk). */
function globalStateOf(dir: string) {
  const file = join(dir, 'globalState.json');
  const state = new Map<string, unknown>(
    Object.entries(existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as object) : {}),
  );
  return {
    get: (key: string) => state.get(key),
    update: async (key: string, value: unknown) => void state.set(key, value),
  };
}

describe('names and archives: kept the moment they are given', function () {
  this.timeout(60_000);
  const dirs: Array<{ cleanup(): void }> = [];
  const dir = () => {
    const d = tempDir('acp-marks-');
    dirs.push(d);
    return d.path;
  };
  after(() => dirs.forEach((d) => d.cleanup()));

  it('a window killed right after a rename and an archive loses neither', async () => {
    const path = dir();
    const ended = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      const child = spawn(process.execPath, [writer, path], { stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('error', reject);
      child.on('exit', (_code, signal) => resolve(signal));
    });
    assert.equal(ended, 'SIGKILL', 'the window ended abruptly');
    const marks = new SessionMarks(marksStore(path, globalStateOf(path)));
    assert.equal(marks.nameOf('ref', 's1'), 'Release checklist');
    assert.equal(marks.isArchived('ref', 's2'), true);
    assert.equal(marks.archived('ref')[0]?.info.title, 'Done with this');
  });

  it('another window sees a name given in this one, without a reload', async () => {
    const path = dir();
    const store = marksStore(path, globalStateOf(path));
    const other = marksStore(path, globalStateOf(path));
    try {
      const here = new SessionMarks(store);
      const there = new SessionMarks(other);
      assert.equal(there.nameOf('ref', 's1'), undefined);
      here.setName('ref', 's1', 'Named here');
      await waitFor('the name in the other window', () => there.nameOf('ref', 's1') === 'Named here');
      there.archiveSessions('ref', [{ sessionId: 's2', cwd: '/work/p' }]);
      await waitFor('the archive in this window', () => here.isArchived('ref', 's2'));
    } finally {
      store.dispose();
      other.dispose();
    }
  });

  it('reads what an earlier version kept in the global state, and keeps it in the file on the next change', () => {
    const path = dir();
    const state = globalStateOf(path);
    void state.update('acp.sessionNames.v1', { v: 1, names: { 'ref\ns1': { name: 'Old name', at: 1 } } });
    const marks = new SessionMarks(marksStore(path, state));
    assert.equal(marks.nameOf('ref', 's1'), 'Old name');
    marks.setName('ref', 's2', 'New name');
    const again = new SessionMarks(marksStore(path, globalStateOf(path)));
    assert.equal(again.nameOf('ref', 's1'), 'Old name');
    assert.equal(again.nameOf('ref', 's2'), 'New name');
  });

  it('an unreadable file is said in the log and read as empty; the next change replaces it', () => {
    const path = dir();
    const logger = new MemoryLogger();
    const marks = new SessionMarks(marksStore(path, globalStateOf(path)), { logger });
    mkdirSync(join(path, 'marks'), { recursive: true });
    writeFileSync(join(path, 'marks', 'acp.sessionNames.v1.json'), '{"v":1,"names":');
    assert.equal(marks.nameOf('ref', 's1'), undefined);
    assert.match(logger.lines.join('\n'), /ignored unreadable acp\.sessionNames\.v1/);
    marks.setName('ref', 's1', 'After the damage');
    assert.equal(new SessionMarks(marksStore(path, globalStateOf(path))).nameOf('ref', 's1'), 'After the damage');
  });
});
