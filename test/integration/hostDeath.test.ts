import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, repoRoot, useSeededFolder } from '../support/refAgent';
import { waitFor } from '../support/wait';

/** The live members of a process group, read from /proc (only to watch our own processes). */
function members(group: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === group && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      continue;
    }
  }
  return out;
}

/**
 * An extension host killed outright (a crash, a force quit, the out-of-memory killer) runs no
 * code to stop its agents. An agent that ignores the end of its input and SIGTERM, started
 * through a launcher, and a terminal command that ignores SIGTERM must still not outlive it.
 */
describe('When the extension host is killed outright', function () {
  this.timeout(60_000);
  const { store, cwd } = useSeededFolder(1, 0);
  const left: number[] = [];
  after(() => {
    for (const pid of left)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
  });

  it('no agent, launcher child or terminal command it started lives on, one that left with setsid env -u included', async () => {
    const host = spawn(
      process.execPath,
      [join(repoRoot, 'out/test/host/standInHost.js'), store, cwd, '--launcher', '--ignore-eof'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve, reject) => {
      host.stdout!.once('data', (d: Buffer) => resolve(d.toString()));
      host.once('exit', (code) => reject(new Error(`the stand-in host exited (${code})`)));
    });
    const pids = JSON.parse(line) as { host: number; agent: number; terminal: number; escaped: number; guard: number };
    // The launcher and the agent it runs, in the launcher's group.
    await waitFor('the launcher and its agent', () => members(pids.agent).length >= 2);
    // And one that left with `setsid env -u` (no group, no mark): found by the pipe it holds.
    const started = [...members(pids.agent), pids.terminal, pids.escaped];
    left.push(...started);
    assert.ok(started.every(isAlive));

    host.kill('SIGKILL');
    await waitFor('every process the host started to end', () => started.every((pid) => !isAlive(pid)), 20_000);
    await waitFor('the guard to leave too', () => !isAlive(pids.guard), 10_000);
  });
});
