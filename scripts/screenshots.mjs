// `npm run screenshots`: takes the README's pictures again from the real workbench (code-server
// and Chromium, as the end-to-end tests run them) on the demo of `npm start`, writing
// media/screenshots/*.png. Look at them before committing. Env: ACP_SCREENSHOTS_DIR (another
// folder), ACP_TEST_CACHE (where code-server lives).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostSetup } from './hostSetup.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

const built = spawnSync(process.execPath, ['esbuild.mjs', '--tests'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(1);
let paths;
try {
  paths = hostSetup();
} catch (e) {
  console.error(`host setup failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
const run = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    // The end-to-end settings, with this one file.
    '--config',
    '.mocharc.screenshots.json',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      ACP_NODE24_DIR: paths.node24Dir,
      ACP_CODE_SERVER: paths.codeServer,
      ACP_CHROMIUM: paths.chromium,
      ACP_SCREENSHOTS_DIR: process.env.ACP_SCREENSHOTS_DIR || 'media/screenshots',
    },
  },
);
process.exit(run.status ?? 1);
