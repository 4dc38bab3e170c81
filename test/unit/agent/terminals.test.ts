import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/agent/log';
import { pinRoots } from '../../../src/agent/roots';
import { DEFAULT_OUTPUT_BYTE_LIMIT, Terminals } from '../../../src/agent/terminals';
import type { TerminalsOptions } from '../../../src/agent/terminals';
import { assertRejected, assertRefused } from './helpers';
import { waitFor, quietFor } from '../../support/wait';
import { posixIt } from '../../support/platform';

const node = process.execPath;

/** Alive and not a zombie: an orphan's zombie lingers where PID 1 does not reap. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

describe('Terminals', function () {
  // Under Wine each kill reads Windows' process table, which takes seconds there.
  this.timeout(process.platform === 'win32' ? 60_000 : 15_000);
  let base: string;
  let root: string;
  let terminals: Terminals;
  const started: number[] = [];

  const make = (options: Partial<TerminalsOptions> = {}) => {
    terminals.dispose();
    terminals = new Terminals({ logger: new MemoryLogger(), ...options });
    return terminals;
  };
  const run = (script: string, extra: { sessionId?: string; outputByteLimit?: number; cwd?: string } = {}) =>
    terminals.create(
      {
        sessionId: extra.sessionId ?? 's1',
        command: node,
        args: ['-e', script],
        outputByteLimit: extra.outputByteLimit,
        cwd: extra.cwd,
      },
      pinRoots([root]),
    );

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'acp-term-')));
    root = join(base, 'root');
    mkdirSync(join(root, 'sub'), { recursive: true });
    terminals = new Terminals({ logger: new MemoryLogger() });
  });

  afterEach(() => {
    terminals.dispose();
    // Only the processes these tests started, by pid.
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(base, { recursive: true, force: true });
  });

  it('collects stdout and stderr and reports the exit code', async () => {
    const chunks: string[] = [];
    terminals.onOutput((e) => chunks.push(e.chunk));
    const { terminalId } = await run(
      "process.stdout.write('out;'); setTimeout(() => { process.stderr.write('err;'); process.exit(3); }, 50)",
    );
    const ref = { sessionId: 's1', terminalId };
    assert.deepEqual(await terminals.waitForExit(ref), { exitCode: 3, signal: null });
    const out = terminals.output(ref);
    assert.equal(out.output, 'out;err;');
    assert.equal(out.truncated, false);
    assert.equal(out.exitStatus?.exitCode, 3);
    assert.equal(chunks.join(''), 'out;err;');
  });

  it('runs in the first root by default, and in a cwd inside the roots', async () => {
    const a = await terminals.create(
      { sessionId: 's1', command: node, args: ['-e', 'process.stdout.write(process.cwd())'] },
      pinRoots([`${root}/`]),
    );
    const b = await run('process.stdout.write(process.cwd())', { cwd: join(root, 'sub') });
    await terminals.waitForExit({ sessionId: 's1', ...a });
    await terminals.waitForExit({ sessionId: 's1', ...b });
    assert.equal(terminals.output({ sessionId: 's1', ...a }).output, root);
    assert.equal(terminals.output({ sessionId: 's1', ...b }).output, join(root, 'sub'));
  });

  it('refuses a cwd outside the roots or with ".."', async () => {
    await assertRejected(run('1', { cwd: base }), -32602, 'outside');
    await assertRejected(run('1', { cwd: `${root}/sub/..` }), -32602, '".."');
  });

  it('passes env', async () => {
    const a = await terminals.create(
      {
        sessionId: 's1',
        command: node,
        args: ['-e', 'process.stdout.write(process.env.ACP_T)'],
        env: [{ name: 'ACP_T', value: 'v1' }],
      },
      pinRoots([root]),
    );
    await terminals.waitForExit({ sessionId: 's1', ...a });
    assert.equal(terminals.output({ sessionId: 's1', ...a }).output, 'v1');
  });

  posixIt('sh', 'runs a shell line given without args', async () => {
    const b = await terminals.create({ sessionId: 's1', command: 'echo hello | tr a-z A-Z' }, pinRoots([root]));
    await terminals.waitForExit({ sessionId: 's1', ...b });
    assert.equal(terminals.output({ sessionId: 's1', ...b }).output, 'HELLO\n');
  });

  it('keeps the end of the output within the byte limit, cutting at a character boundary', async () => {
    // 'é' is two bytes: a limit of 9 leaves an odd cut in the middle of one.
    const { terminalId } = await run(
      "process.stdout.write('é'.repeat(50)); setTimeout(() => process.stdout.write('END'), 50)",
      { outputByteLimit: 9 },
    );
    const ref = { sessionId: 's1', terminalId };
    await terminals.waitForExit(ref);
    const { output, truncated } = terminals.output(ref);
    assert.equal(truncated, true);
    assert.ok(Buffer.byteLength(output) <= 9, output);
    assert.ok(output.endsWith('éééEND'), output);
    assert.ok(!output.includes('\uFFFD'), output);
  });

  it('caps the output at our own limit however much the agent asks for, against an endless writer', async () => {
    make({ maxOutputBytes: 64 * 1024 });
    const writer = "const b = 'x'.repeat(8192); (function w() { process.stdout.write(b, w); })()";
    const ref = { sessionId: 's1', terminalId: (await run(writer, { outputByteLimit: 1e12 })).terminalId };
    await waitFor('the output cut', () => terminals.output(ref).truncated, 10_000);
    // Keeps writing: the memory held stays at the cap, not at what the agent asked.
    await quietFor(300);
    const out = terminals.output(ref);
    assert.equal(out.truncated, true);
    assert.ok(Buffer.byteLength(out.output) <= 64 * 1024, `kept ${Buffer.byteLength(out.output)} bytes`);
    assert.ok(Buffer.byteLength(out.output) > 60 * 1024, 'and keeps the latest output up to the cap');
    await terminals.kill(ref);
  });

  it('caps at 1 MiB by default when the agent asks for a terabyte', async () => {
    const writer = "const b = 'y'.repeat(65536); (function w() { process.stdout.write(b, w); })()";
    const ref = { sessionId: 's1', terminalId: (await run(writer, { outputByteLimit: 1e12 })).terminalId };
    await waitFor('the output cut', () => terminals.output(ref).truncated, 10_000);
    assert.ok(Buffer.byteLength(terminals.output(ref).output) <= DEFAULT_OUTPUT_BYTE_LIMIT);
    await terminals.kill(ref);
  });

  it('keeps 1 MB when the agent gives no limit', async () => {
    const { terminalId } = await run(`process.stdout.write('x'.repeat(${DEFAULT_OUTPUT_BYTE_LIMIT} + 1000) + 'END')`);
    const ref = { sessionId: 's1', terminalId };
    await terminals.waitForExit(ref);
    const { output, truncated } = terminals.output(ref);
    assert.equal(truncated, true);
    assert.equal(output.length, DEFAULT_OUTPUT_BYTE_LIMIT);
    assert.ok(output.endsWith('xEND'));
  });

  it('kill ends the command and the process it started', async () => {
    const script = [
      "const { spawn } = require('node:child_process');",
      "const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "console.log('pids ' + process.pid + ' ' + g.pid);",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const { terminalId } = await run(script);
    const ref = { sessionId: 's1', terminalId };
    await waitFor('both pids printed', () => /pids \d+ \d+/.test(terminals.output(ref).output), 5000);
    const [, child, grandchild] = /pids (\d+) (\d+)/.exec(terminals.output(ref).output)!.map(Number);
    started.push(child, grandchild);
    assert.ok(alive(child) && alive(grandchild));
    await terminals.kill(ref);
    // Windows has no signals: a command ended by the client is reported killed.
    assert.equal(terminals.output(ref).exitStatus?.signal, process.platform === 'win32' ? 'SIGKILL' : 'SIGTERM');
    await waitFor('child and grandchild gone', () => !alive(child) && !alive(grandchild), 5000);
  });

  it('kill sends SIGKILL to a command that ignores SIGTERM', async () => {
    make({ killGraceMs: 200 });
    const { terminalId } = await run(
      "process.on('SIGTERM', () => {}); console.log(process.pid); setInterval(() => {}, 1000)",
    );
    const ref = { sessionId: 's1', terminalId };
    await waitFor('its pid printed', () => /\d+\n/.test(terminals.output(ref).output), 5000);
    started.push(Number(terminals.output(ref).output.trim()));
    await terminals.kill(ref);
    assert.deepEqual(await terminals.waitForExit(ref), { exitCode: null, signal: 'SIGKILL' });
  });

  it('release kills a running command and forgets the terminal', async () => {
    const { terminalId } = await run('console.log(process.pid); setInterval(() => {}, 1000)');
    const ref = { sessionId: 's1', terminalId };
    await waitFor('its pid printed', () => /\d+/.test(terminals.output(ref).output), 5000);
    const pid = Number(terminals.output(ref).output.trim());
    started.push(pid);
    terminals.release(ref);
    assertRefused(() => terminals.output(ref), -32002, 'Unknown terminal');
    await waitFor('the process gone', () => !alive(pid), 5000);
  });

  /** A command that starts a child in a session of its own, its output pipes closed: neither the group nor the pipes reach it. */
  const escaping = (stay: boolean) =>
    [
      "const { spawn } = require('node:child_process');",
      "const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });",
      'c.unref();',
      'console.log(c.pid);',
      stay ? 'setInterval(() => {}, 1000);' : '',
    ].join('\n');

  it('stops on kill what a running command started that left its process group (setsid)', async () => {
    make({ killGraceMs: 200 });
    const { terminalId } = await run(escaping(true));
    const ref = { sessionId: 's1', terminalId };
    await waitFor('its pid printed', () => /\d+\n/.test(terminals.output(ref).output), 5000);
    const pid = Number(terminals.output(ref).output.trim());
    started.push(pid);
    assert.ok(alive(pid), 'the detached child runs');
    await terminals.kill(ref);
    await waitFor('the process gone', () => !alive(pid), 5000);
  });

  posixIt(
    'orphans',
    'stops on release what an ended command started that left its process group (setsid)',
    async () => {
      make({ killGraceMs: 200 });
      const { terminalId } = await run(escaping(false));
      const ref = { sessionId: 's1', terminalId };
      await waitFor('its pid printed', () => /\d+\n/.test(terminals.output(ref).output), 5000);
      const pid = Number(terminals.output(ref).output.trim());
      started.push(pid);
      await terminals.waitForExit(ref);
      assert.ok(alive(pid), 'the detached child runs');
      terminals.release(ref);
      await waitFor('the process gone', () => !alive(pid), 5000);
    },
  );

  it('runs and keeps a bounded number of terminals, refusing more with a reason', async () => {
    make({ maxRunning: 3, maxKept: 5 });
    const sleeper = 'setInterval(() => {}, 1000)';
    const running = [await run(sleeper), await run(sleeper), await run(sleeper)];
    await assertRejected(run(sleeper), -32602, '3 commands are running');
    await terminals.kill({ sessionId: 's1', ...running[0]! });
    running.push(await run(sleeper));
    for (const t of running.slice(1)) await terminals.kill({ sessionId: 's1', ...t });
    const ended = await run('1');
    await terminals.waitForExit({ sessionId: 's1', ...ended });
    await assertRejected(run('1'), -32602, '5 are kept');
    terminals.release({ sessionId: 's1', ...ended });
    await terminals.waitForExit({ sessionId: 's1', ...(await run('1')) });
  });

  it('refuses an unknown id, and a terminal of another session', async () => {
    assertRefused(() => terminals.output({ sessionId: 's1', terminalId: 'nope' }), -32002, '"nope"');
    await assertRejected(terminals.waitForExit({ sessionId: 's1', terminalId: 'nope' }), -32002);
    await assertRejected(terminals.kill({ sessionId: 's1', terminalId: 'nope' }), -32002);
    const { terminalId } = await run('1');
    assertRefused(() => terminals.output({ sessionId: 's2', terminalId }), -32002);
    assertRefused(() => terminals.release({ sessionId: 's2', terminalId }), -32002);
    // Ended before its folder is removed: Windows keeps a running process's folder.
    await terminals.waitForExit({ sessionId: 's1', terminalId });
  });

  it('releaseSession releases only that session, and dispose kills the rest', async () => {
    const script = 'console.log(process.pid); setInterval(() => {}, 1000)';
    const a = { sessionId: 's1', ...(await run(script)) };
    const b = { sessionId: 's2', ...(await run(script, { sessionId: 's2' })) };
    await waitFor(
      'both pids printed',
      () => /\d/.test(terminals.output(a).output) && /\d/.test(terminals.output(b).output),
      5000,
    );
    const [pa, pb] = [a, b].map((r) => Number(terminals.output(r).output.trim()));
    started.push(pa, pb);
    terminals.releaseSession('s1');
    assert.deepEqual(terminals.terminalsOf('s1'), []);
    assert.deepEqual(terminals.terminalsOf('s2'), [b.terminalId]);
    await waitFor('the first process gone', () => !alive(pa), 5000);
    assert.ok(alive(pb));
    terminals.dispose();
    await waitFor('the second process gone', () => !alive(pb), 5000);
  });

  it('refuses when terminals are off for the session, and a command that cannot start', async () => {
    make({ allowTerminal: (id) => id !== 's1' });
    await assertRejected(run('1'), -32602, 'turned off');
    await assertRejected(
      terminals.create({ sessionId: 's2', command: join(base, 'no-such-program'), args: ['x'] }, pinRoots([root])),
      -32603,
      'Could not start',
    );
  });
});
