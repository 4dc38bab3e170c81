// A stand-in for an extension host, for tests that kill one outright: it starts the reference
// agent (with the switches given) and a terminal command that ignores SIGTERM, prints their
// process ids and its guard's as one JSON line, and waits to be killed.
// Usage: node out/test/host/standInHost.js <store> <cwd> [agent switches...]
import { AgentConnection } from '../../src/agent/connection';
import { processGuard } from '../../src/agent/guard';
import { silentLogger } from '../../src/agent/log';
import { MARK_VARIABLE } from '../../src/agent/marked';
import { pinRoots } from '../../src/agent/roots';
import { Terminals } from '../../src/agent/terminals';
import { refAgentConfig } from '../support/refAgent';
import { waitFor } from '../support/wait';

async function main(): Promise<void> {
  const [store, cwd, ...switches] = process.argv.slice(2);
  if (!store || !cwd) throw new Error('usage: standInHost.js <store> <cwd> [switches...]');
  const terminals = new Terminals({ logger: silentLogger });
  // The Windows lane starts the agent through a shim found on PATH by name (ACP_STANDIN_COMMAND).
  const shimmed = process.env.ACP_STANDIN_COMMAND;
  const config = shimmed
    ? {
        ...refAgentConfig(store, switches),
        command: shimmed,
        args: ['--store', store, ...switches],
        env: { PATH: process.env.ACP_STANDIN_PATH ?? '' },
      }
    : refAgentConfig(store, switches);
  const agent = await AgentConnection.start({
    config,
    logger: silentLogger,
    clientInfo: { name: 'stand-in host', version: '0' },
    handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }), terminals },
  });
  const ref = {
    sessionId: 's',
    ...(await terminals.create(
      {
        sessionId: 's',
        command: process.execPath,
        args: ['-e', "process.on('SIGTERM', () => {}); console.log(process.pid); setInterval(() => {}, 1000)"],
      },
      pinRoots([cwd]),
    )),
  };
  await waitFor('the terminal printing its pid', () => /\d+\n/.test(terminals.output(ref).output));
  const terminal = Number(terminals.output(ref).output.trim());
  // Linux: a command that leaves its group and its mark behind (`setsid env -u`) while its
  // parent exits at once; it keeps the terminal's output pipe, as background commands do.
  let escaped: number | undefined;
  if (process.platform === 'linux') {
    const script = "process.on('SIGTERM', () => {}); console.log(process.pid); setInterval(() => {}, 1000)";
    const line = `setsid env -u ${MARK_VARIABLE} "${process.execPath}" -e "${script}" &`;
    const away = { sessionId: 's', ...(await terminals.create({ sessionId: 's', command: line }, pinRoots([cwd]))) };
    while (!/\d+\n/.test(terminals.output(away).output)) await new Promise((r) => setTimeout(r, 20));
    escaped = Number(terminals.output(away).output.trim());
  }
  process.stdout.write(
    `${JSON.stringify({ host: process.pid, agent: agent.pid, terminal, escaped, guard: processGuard.pid })}\n`,
  );
  setInterval(() => {}, 60_000);
}

main().catch((e: unknown) => {
  process.stderr.write(`stand-in host: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
