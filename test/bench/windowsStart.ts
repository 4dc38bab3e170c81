// Run under Windows' node.exe by the Windows lane of `npm run bench` (Wine): how long an agent
// takes to answer `initialize` when started through a `.cmd` shim found on PATH (cmd.exe, then
// node) beside a direct start of node. Results go to $ACP_BENCH_RESULTS (node.exe's stdout to a
// pipe is lost at its exit under Wine, so the table is printed by the runner from that file).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import { agentScript, seed } from '../support/refAgent';
import { median, ms, ratio, summary } from './lib';

const ROUNDS = 5;

async function startOnce(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const agent = await AgentConnection.start({
    config: { id: 'bench', name: 'bench', command, args, env },
    logger: silentLogger,
    clientInfo: { name: 'bench', version: '0' },
    handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
  });
  const took = performance.now() - t0;
  await agent.stop();
  return took;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'acp-bench-win-'));
  try {
    const store = join(dir, 'store');
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    seed(store, [join(dir, 'project')], 1, 0);
    writeFileSync(join(bin, 'opencode.cmd'), `@ECHO OFF\r\n"${process.execPath}" "${agentScript}" %*\r\n`);
    const env = { PATH: `${bin};${process.env.PATH ?? ''}` };
    const direct: number[] = [];
    const shim: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      direct.push(await startOnce(process.execPath, [agentScript, '--store', store], env));
      shim.push(await startOnce('opencode', ['--store', store], env));
    }
    const d = median(direct);
    const s = median(shim);
    summary('windowsStart', 'start to initialize, direct node.exe (median of 5)', ms(d), 'under Wine');
    summary(
      'windowsStart',
      'start to initialize, through a .cmd shim (median of 5)',
      ms(s),
      `${ratio(s, d)} of direct`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
