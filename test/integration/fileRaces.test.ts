import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientFileSystem } from '../../src/agent/fileSystem';
import { silentLogger } from '../../src/agent/log';
import { pinRoots } from '../../src/agent/roots';
import { tempDir } from '../support/refAgent';

/**
 * An agent that can write inside a root can race the client: it swaps a folder of the path for
 * a symbolic link to a folder outside, over and over, while it asks to read and write through
 * that path. Whatever the timing, nothing outside may be read or written.
 */
describe('A folder raced against a symbolic link', function () {
  this.timeout(120_000);
  const dir = tempDir('acp-race-');
  const root = join(dir.path, 'root');
  const outside = join(dir.path, 'outside');
  const raced = join(root, 'd');
  let swapper: ChildProcess | undefined;
  const fs = new ClientFileSystem({ rootsFor: () => pinRoots([root]), logger: silentLogger });
  const ROUNDS = 3000;

  before(async () => {
    mkdirSync(raced, { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(raced, 'file.txt'), 'inside');
    writeFileSync(join(outside, 'file.txt'), 'OUTSIDE');
    // Swaps `d` between the real folder and a link to `outside`, as fast as it can.
    const script = `
      const fs = require('node:fs');
      const [d, away, outside] = process.argv.slice(1);
      const quiet = (f) => { try { f(); } catch {} };
      // Each state lasts a moment (the link longer), so a check and the open after it fall apart.
      const hold = (ns) => { const end = process.hrtime.bigint() + ns; while (process.hrtime.bigint() < end); };
      process.stdout.write('ready\\n');
      for (;;) {
        quiet(() => fs.renameSync(d, away));
        quiet(() => fs.symlinkSync(outside, d));
        hold(300000n);
        quiet(() => fs.unlinkSync(d));
        quiet(() => fs.renameSync(away, d));
        hold(100000n);
      }`;
    swapper = spawn(process.execPath, ['-e', script, raced, join(root, 'away'), outside], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((resolve) => swapper!.stdout!.once('data', resolve));
  });
  after(() => {
    swapper?.kill('SIGKILL');
    dir.cleanup();
  });

  it('reads nothing from outside', async () => {
    let outsideReads = 0;
    let insideReads = 0;
    // At least ROUNDS reads, and on until some got through: on a loaded machine the swapper can
    // hold the folder as a link for every read of a fixed number.
    let rounds = 0;
    for (; rounds < ROUNDS || (insideReads === 0 && rounds < ROUNDS * 20); rounds++) {
      const read = await fs.readTextFile({ sessionId: 's', path: join(raced, 'file.txt') }).catch(() => undefined);
      if (read?.content === 'OUTSIDE') outsideReads++;
      if (read?.content === 'inside') insideReads++;
    }
    assert.equal(outsideReads, 0, `${outsideReads} of ${rounds} reads returned the file outside the root`);
    assert.ok(insideReads > 0, 'the race let reads through at all');
  });

  it('writes nothing outside', async () => {
    let written = 0;
    for (let i = 0; i < ROUNDS; i++) {
      // An existing file and a new one, in turns.
      const path = join(raced, i % 2 ? 'file.txt' : `w-${i}.txt`);
      const ok = await fs
        .writeTextFile({ sessionId: 's', path, content: 'x' })
        .then(() => true)
        .catch(() => false);
      if (ok) written++;
    }
    const landed = readdirSync(outside).filter((f) => f !== 'file.txt');
    assert.deepEqual(landed, [], `${landed.length} of ${ROUNDS / 2} new files landed outside the root`);
    assert.equal(readFileSync(join(outside, 'file.txt'), 'utf8'), 'OUTSIDE', 'the file outside was not written');
    assert.ok(written > 0, 'the race let writes through at all');
    assert.ok(!existsSync(join(outside, 'd')), 'no folder was made outside either');
  });
});
