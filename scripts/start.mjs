// `npm start`: the extension running in a real VS Code (code-server) against the reference
// agent, with a demo folder of ~300 sessions. Prints the URL; Ctrl+C stops everything.
// Env: PORT (default a free one), ACP_TEST_CACHE (where code-server and the demo live).
// Flag: --reseed (start the demo's session store afresh).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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

const DEMO_FILES = {
  'README.md': '# acme-webshop\n\nA small shop used to show the ACP Client: open the ACP view in the activity bar.\n',
  'package.json':
    JSON.stringify({ name: 'acme-webshop', version: '1.0.0', private: true, type: 'module' }, null, 2) + '\n',
  'src/cart.ts':
    'export interface Line { sku: string; qty: number; price: number }\n\nexport const total = (lines: Line[]) => lines.reduce((sum, l) => sum + l.qty * l.price, 0);\n',
  'src/server.ts':
    "import { createServer } from 'node:http';\n\ncreateServer((_req, res) => res.end('ok')).listen(8080, '127.0.0.1');\n",
  'test/cart.test.ts':
    "import { total } from '../src/cart';\n\nconsole.assert(total([{ sku: 'a', qty: 2, price: 3 }]) === 6);\n",
};

function seedDemo(demoDir, agentJs, reseed) {
  const folder = join(demoDir, 'acme-webshop');
  const store = join(demoDir, 'store');
  for (const [file, text] of Object.entries(DEMO_FILES)) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), text);
  }
  if (reseed) rmSync(store, { recursive: true, force: true });
  if (!existsSync(join(store, 'index.json'))) {
    // Mostly short sessions, and a few long ones to show a long history streaming in.
    for (const [sessions, turns] of [
      [285, 4],
      [15, 150],
    ]) {
      must(
        process.execPath,
        [agentJs, 'seed', '--store', store, '--cwd', folder, '--sessions', String(sessions), '--turns', String(turns)],
        'seeding the demo',
      );
    }
  }
  return { folder, store };
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
const { folder, store } = seedDemo(demoDir, agentJs, process.argv.includes('--reseed'));

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
  `\ncode-server is listening on 127.0.0.1:${server.port} (${server.bootMs} ms). Open:\n\n  ${server.url(folder)}\n`,
);
console.log(`Demo folder ${folder}, session store ${store}. Ctrl+C stops.`);

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
