// A window that names a session and archives another through the extension's own store, then
// ends at once (SIGKILL, as a server stopped or a browser closed). Tests read what was kept.
// Its global state is like VS Code's: held in memory, written to disk a while later.
// Usage: node marksWriter.js <global storage dir>
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { marksStore } from '../../src/app/app';
import { SessionMarks } from '../../src/sessions/marks';

const dir = process.argv[2]!;
const stateFile = join(dir, 'globalState.json');
const state = new Map<string, unknown>(
  Object.entries(existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as object) : {}),
);
const globalState = {
  get: (key: string) => state.get(key),
  update: (key: string, value: unknown) => {
    state.set(key, value);
    setTimeout(() => writeFileSync(stateFile, JSON.stringify(Object.fromEntries(state))), 1000);
    return Promise.resolve();
  },
};

const marks = new SessionMarks(marksStore(dir, globalState));
marks.setName('ref', 's1', 'Release checklist');
marks.archiveSessions('ref', [{ sessionId: 's2', cwd: '/work/p', title: 'Done with this' }]);
process.kill(process.pid, 'SIGKILL');
