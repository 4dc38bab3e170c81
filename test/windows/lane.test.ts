// Run by the Windows lane under Windows' node.exe (scripts/windowsLane.mjs); skipped elsewhere.
// The agent starts through a `.cmd` shim named as a preset (found on PATH by its bare name), as
// `copilot`, `gemini` and `opencode` do on Windows. The shims are written by hand: Wine's
// cmd.exe does not run npm's own template (the product's reading of that template is tested in
// test/unit/agent/launch.test.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import { processTable, relatives } from '../../src/agent/processTree';
import { pinRoots } from '../../src/agent/roots';
import { Terminals } from '../../src/agent/terminals';
import { waitFor } from '../support/wait';
import { agentScript, isRunning, repoRoot, useSeededFolder } from '../support/refAgent';

const onWindows = process.platform === 'win32';

function shim(dir: string, name: string, target: string): void {
  // No `::` comment before @ECHO OFF: Wine's cmd.exe echoes it.
  writeFileSync(join(dir, `${name}.cmd`), `@ECHO OFF\r\n"${process.execPath}" "${target}" %*\r\n`);
}

/** The tree under `root` once it has at least `size` members (the table is read until then). */
async function treeOf(root: number, size: number, ms = 30_000): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const table = await processTable('win32');
    assert.ok(table, 'the process table can be read');
    const members = [...relatives(table, [root])];
    if (members.length >= size) return members;
    if (Date.now() > end) assert.fail(`the tree of ${root} has ${members.length} processes, not ${size}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

(onWindows ? describe : describe.skip)('Windows: an agent started through a .cmd shim', function () {
  this.timeout(120_000);
  const { dir, store, cwd, running } = useSeededFolder<AgentConnection>(3, 1);
  let bin: string;
  let env: Record<string, string>;
  before(() => {
    bin = join(dir.path, 'bin');
    mkdirSync(bin);
    shim(bin, 'opencode', agentScript);
    const echo = join(dir.path, 'echo.js');
    writeFileSync(echo, 'process.stdout.write(JSON.stringify(process.argv.slice(2)))');
    shim(bin, 'echoargs', echo);
    env = { PATH: `${bin};${process.env.PATH ?? ''}` };
  });

  it('starts by its bare name, answers initialize and session/list, runs a command, and stops its whole tree', async () => {
    const terminals = new Terminals({ logger: silentLogger, killGraceMs: 500 });
    const agent = await AgentConnection.start({
      config: { id: 'opencode', name: 'Shimmed', command: 'opencode', args: ['--store', store, '--launcher'], env },
      logger: silentLogger,
      clientInfo: { name: 'windows lane', version: '0' },
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }), terminals },
    });
    running.push(agent);
    const page = await agent.listSessions({ cwd });
    assert.equal(page.sessions.length, 3);

    // A terminal command through a .cmd shim, its arguments arriving exactly as sent.
    // No `%NAME%` here: Wine's cmd.exe drops an undefined variable where Windows' keeps it.
    const args = ['a b', 'x&y', 'q"uote', 'c^d', 'e|f', '(g)', 'end\\'];
    const ref = {
      sessionId: 's',
      ...(await terminals.create(
        { sessionId: 's', command: 'echoargs', args, env: [{ name: 'PATH', value: env.PATH! }] },
        pinRoots([cwd]),
      )),
    };
    const exit = await terminals.waitForExit(ref);
    assert.equal(exit.exitCode, 0);
    assert.deepEqual(JSON.parse(terminals.output(ref).output), args);

    // A killed command says it was killed.
    const long = {
      sessionId: 's',
      ...(await terminals.create(
        { sessionId: 's', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
        pinRoots([cwd]),
      )),
    };
    await terminals.kill(long);
    assert.equal(terminals.output(long).exitStatus?.signal, 'SIGKILL');

    // cmd.exe, the launcher agent and the agent it runs.
    const members = await treeOf(agent.pid!, 3);
    await agent.stop();
    await waitFor('no process of the tree to be left', () => members.every((p) => !isRunning(p)), 30_000);
    terminals.dispose();
  });

  it('is stopped with everything it started when its host is killed outright', async () => {
    const host = spawn(process.execPath, [join(repoRoot, 'out/test/host/standInHost.js'), store, cwd, '--launcher'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ACP_STANDIN_COMMAND: 'opencode', ACP_STANDIN_PATH: env.PATH },
    });
    const line = await new Promise<string>((resolve, reject) => {
      host.stdout!.once('data', (d: Buffer) => resolve(d.toString()));
      host.once('exit', (code) => reject(new Error(`the stand-in host exited (${code})`)));
    });
    const pids = JSON.parse(line) as { host: number; agent: number; terminal: number; guard: number };
    const members = await treeOf(pids.agent, 3);
    const started = [...members, pids.terminal];
    host.kill();
    await waitFor('every process the host started to end', () => started.every((p) => !isRunning(p)), 60_000);
  });
});
