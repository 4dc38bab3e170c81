// `npm start`: the extension running in a real VS Code (code-server) against the reference
// agent, with a demo workspace of two folders and ~90 sessions. Prints the URL; Ctrl+C stops.
// Env: PORT (default a free one), ACP_TEST_CACHE (where code-server and the demo live).
// Flag: --reseed (start the demo's session store afresh).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostSetup } from './hostSetup.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

function must(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`${what} failed`);
    process.exit(1);
  }
}

// Bump when the demo's content changes, so an older demo in the cache is replaced.
const DEMO_VERSION = '2';

/**
 * The demo world (test/agent/demo): two project folders in a multi-root workspace and about
 * 90 sessions of the reference agent about them. Kept between runs (sessions you add stay);
 * rewritten with --reseed or when its version changed.
 */
function seedDemo(demoDir, agentJs, reseed) {
  const marker = join(demoDir, 'demo-version');
  const current = existsSync(marker) && readFileSync(marker, 'utf8').trim() === DEMO_VERSION;
  if (reseed || !current) {
    rmSync(demoDir, { recursive: true, force: true });
    mkdirSync(demoDir, { recursive: true });
    must(process.execPath, [agentJs, 'demo', '--root', demoDir], 'seeding the demo');
    writeFileSync(marker, DEMO_VERSION + '\n');
  }
  return { workspace: join(demoDir, 'acme.code-workspace'), store: join(demoDir, 'store') };
}

must(process.execPath, ['esbuild.mjs', '--tests'], 'the build');
let paths;
try {
  paths = hostSetup({ browser: false });
} catch (e) {
  console.error(`host setup failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
process.env.ACP_NODE24_DIR = paths.node24Dir;
process.env.ACP_CODE_SERVER = paths.codeServer;

const agentJs = join(root, 'out', 'test', 'agent.js');
const demoDir = join(paths.cacheDir, 'demo');
const { workspace, store } = seedDemo(demoDir, agentJs, process.argv.includes('--reseed'));

const { startCodeServer } = require(join(root, 'out', 'test', 'host', 'codeServer.js'));
const server = await startCodeServer({
  port: process.env.PORT ? Number(process.env.PORT) : undefined,
  settings: {
    // The agent is configured like a user would: in settings, with absolute paths, because
    // code-server rebuilds PATH for the processes the extension starts.
    'acp.agents': [
      { id: 'reference', name: 'Reference Agent', command: process.execPath, args: [agentJs, '--store', store] },
    ],
  },
});

console.log(
  `\ncode-server is listening on 127.0.0.1:${server.port} (${server.bootMs} ms). Open:\n\n  ${server.url(workspace)}\n`,
);
console.log(`Demo workspace ${workspace}, session store ${store}. Ctrl+C stops.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping code-server…');
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Keeps the process alive until a signal arrives.
setInterval(() => undefined, 1 << 30);
