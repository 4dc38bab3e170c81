// Entry point of the reference agent: `seed` fills a store; anything else serves ACP on stdio.
// stdout carries only the protocol, so every log line goes to stderr.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { buildAgent } from './agent';
import { login } from './auth';
import { type Command, parseCommand, type ServeOptions, USAGE, UsageError } from './options';
import { seedDemo } from './demo/seed';
import { seed } from './seed';
import { SessionStore } from './store';
import { Wire } from './wire';

function log(line: string): void {
  process.stderr.write(`reference agent: ${line}\n`);
}

/** Runs the real agent as a child on the same stdio, as `npx` and shell launchers do. */
function launch(options: ServeOptions): void {
  const args = options.args.filter((a) => a !== '--launcher');
  if (!args.includes('--store')) args.push('--store', options.store);
  const child = spawn(process.execPath, [process.argv[1], ...args], {
    stdio: 'inherit',
    env: { ...process.env, ACP_REF_AGENT_ARGS: '' },
  });
  log(`launcher pid ${process.pid} started agent pid ${child.pid}`);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function serve(options: ServeOptions): Promise<void> {
  if (options.login) {
    login(options.store);
    process.stdout.write(`Signed in to the reference agent (store ${options.store}).\n`);
    return;
  }
  if (options.launcher) return launch(options);
  if (options.startedFile) appendFileSync(options.startedFile, `${process.pid}\n`);
  // The client went away: nothing left to say to anyone. A broken stderr must end the process
  // too: logging the write error would fail again and spin forever on a CPU, an orphan.
  // --ignore-eof: a careless agent notices none of it and stays.
  const leave = () => (options.ignoreEof ? undefined : process.exit(0));
  process.stdout.on('error', leave);
  process.stderr.on('error', leave);
  // A test agent must survive whatever the client sends; log the surprise and carry on.
  process.on('uncaughtException', (error) => {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return leave();
    log(`uncaught: ${error.stack ?? String(error)}`);
  });
  process.on('unhandledRejection', (reason) =>
    log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
  );

  const store = new SessionStore(options.store);
  log(`pid ${process.pid}, store ${options.store} (${store.size} sessions), page size ${options.pageSize}`);
  if (options.echoKey) log(`ACP_REF_KEY=${process.env.ACP_REF_KEY ?? ''}`);
  const wire = new Wire(options);
  const connection = buildAgent(store, options, wire).connect(wire.stream);
  if (options.ignoreEof) process.on('SIGTERM', () => log('ignoring SIGTERM (--ignore-eof)'));
  await connection.closed;
  if (options.ignoreEof) {
    // A careless agent: the client is gone, and it stays anyway, until it is killed.
    log('stdin ended; staying (--ignore-eof)');
    setInterval(() => {}, 60_000);
    return;
  }
  // stdin closed: let what is already written reach the pipe, then leave.
  if (process.stdout.writableLength > 0) {
    await new Promise<void>((resolve) => {
      process.stdout.once('drain', resolve);
      setTimeout(resolve, 1000).unref();
    });
  }
  process.exit(0);
}

function run(command: Command): void {
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE + '\n');
      return;
    case 'seed': {
      const result = seed(command.options);
      const o = command.options;
      const sampled = Math.min(o.sessions, 100);
      const scale = sampled > 0 ? o.sessions / sampled : 0;
      const approx = scale > 1 ? '≈' : '';
      process.stdout.write(
        `seeded ${result.sessions} sessions × ${o.turns} turns (${approx}${Math.round(result.updates * scale)} updates, ${approx}${((result.bytes * scale) / 1e6).toFixed(1)} MB of replay) over ${o.cwds.length} cwd(s) in ${o.store} in ${result.ms} ms\n`,
      );
      return;
    }
    case 'demo': {
      const world = seedDemo(command.options.root, command.options.now);
      process.stdout.write(JSON.stringify(world) + '\n');
      return;
    }
    case 'serve':
      void serve(command.options).catch((error: unknown) => {
        log(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        process.exit(1);
      });
  }
}

try {
  run(parseCommand(process.argv.slice(2), process.env));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`acp-reference-agent: ${error.message}\n\n${USAGE}\n`);
  process.exit(2);
}
