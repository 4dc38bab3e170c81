// Two windows on one folder: processes of their own checkpointing it at the same moment,
// through the same storage. None waits on another's index lock, none corrupts the repository,
// every checkpoint holds what its window wrote before it, and the journal keeps every record.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { folderKey } from '../../src/checkpoints/shadowRepo';
import { checkpointsIn, writeFiles } from '../support/checkpoints';
import { repoRoot, tempDir } from '../support/refAgent';

const run = promisify(execFile);
const window = join(repoRoot, 'out/test/support/checkpointWindow.js');

describe('Checkpoints from two windows on one folder', function () {
  this.timeout(180_000);
  const dir = tempDir('acp-cp-win-');
  const folder = join(dir.path, 'project');
  const storage = join(dir.path, 'storage');
  after(() => dir.cleanup());

  it('takes every checkpoint of three processes at once without corrupting the store', async () => {
    mkdirSync(folder);
    writeFiles(
      folder,
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`])),
    );
    const N = 8;
    const cps = checkpointsIn(storage);
    const here = (async () => {
      const ids: { id: string; file: string }[] = [];
      for (let i = 0; i < N; i++) {
        const file = `c-${i}.txt`;
        writeFileSync(join(folder, file), `c ${i}\n`);
        ids.push({ id: (await cps.checkpoint(folder, `c ${i}`, { sessionId: 'c' })).id, file });
      }
      return ids;
    })();
    const others = ['a', 'b'].map(async (tag) => {
      const { stdout } = await run(process.execPath, [window, storage, folder, String(N), tag]);
      return JSON.parse(stdout) as { id: string; file: string }[];
    });
    const all = (await Promise.all([here, ...others])).flat();
    assert.equal(all.length, 3 * N);
    for (const { id, file } of all) {
      const files = await cps.files(folder, id);
      assert.ok(files.includes(file), `${id.slice(0, 8)} holds ${file}, written before it`);
      assert.ok(files.includes('src/f299.ts'));
    }
    const gitDir = join(storage, folderKey(folder), 'git');
    // fsck exits non-zero on any broken object or ref.
    execFileSync('git', ['--git-dir', gitDir, 'fsck', '--strict', '--no-dangling'], { stdio: 'pipe' });
    const records = (await cps.history(folder)).filter((r) => r.kind === 'checkpoint');
    assert.equal(records.length, 3 * N, 'every journal line kept');
    assert.deepEqual(readdirSync(join(storage, folderKey(folder), 'tmp')), [], 'no temporary index left behind');
    assert.ok(!existsSync(join(gitDir, 'index.lock')));
  });
});
