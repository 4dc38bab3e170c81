// What stopping an agent costs the extension host on a machine with several hundred processes
// (Linux): the search for what its command started outside its process group (marked.ts: the
// process table once, the environment and descriptors of the few that may have left), beside
// the same search reading every process, and a whole `AgentConnection.stop()` of an agent
// behind a launcher. Idle processes are started to bring the machine to ROWS processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import { traceOf, tracedProcesses, type Trace } from '../../src/agent/marked';
import { refAgentConfig, tempDir } from '../support/refAgent';
import { median, ms, ratio, summary, table } from './lib';

const ROWS = 600;
const ROUNDS = 7;

function processCount(): number {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
}

async function measure(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    walls.push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    cpus.push((cpu.user + cpu.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log('skipped: the search reads /proc (Linux)');
    return;
  }
  const idle: ChildProcess[] = [];
  const dir = tempDir('acp-bench-stop-');
  try {
    for (let n = ROWS - processCount(); n > 0; n--) idle.push(spawn('sleep', ['3600'], { stdio: 'ignore' }));
    const command = spawn('sleep', ['3600'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    idle.push(command);
    await new Promise((resolve) => command.once('spawn', resolve));
    const trace: Trace = traceOf(command.pid, 'bench-mark', [1, 2]);
    const rows = processCount();
    const scan = await measure(() => tracedProcesses(trace));
    const every = await measure(() => tracedProcesses({ ...trace, since: undefined }));
    const stops: number[] = [];
    for (let i = 0; i < 5; i++) {
      const agent = await AgentConnection.start({
        config: refAgentConfig(dir.path, ['--launcher']),
        logger: silentLogger,
        clientInfo: { name: 'bench', version: '0' },
        handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      });
      const t0 = performance.now();
      await agent.stop();
      stops.push(performance.now() - t0);
    }
    const stop = median(stops);
    table(
      `A stop's search on a machine of ${rows} processes (median of ${ROUNDS})`,
      ['what', 'wall', 'host CPU'],
      [
        ['the search as a stop makes it', ms(scan.wall), ms(scan.cpu)],
        ['the same, reading every process', ms(every.wall), ms(every.cpu)],
        ['AgentConnection.stop(), an agent behind a launcher (median of 5)', ms(stop), ''],
      ],
    );
    summary('agentStop', `a stop's search, ${rows} processes (host CPU)`, ms(scan.cpu), `wall ${ms(scan.wall)}`);
    summary(
      'agentStop',
      'the same search reading every process (host CPU)',
      ms(every.cpu),
      `${ratio(every.cpu, scan.cpu)} the stop's`,
    );
    summary('agentStop', 'AgentConnection.stop() behind a launcher', ms(stop));
  } finally {
    for (const p of idle) p.kill('SIGKILL');
    dir.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
