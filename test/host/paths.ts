import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The repository root: the nearest folder above this file whose package.json is ours. */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'acp-client'
    ) {
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no acp-client package.json above ${__dirname}`);
    dir = up;
  }
}

export interface HostPaths {
  /** Folder holding Node 24's bin/ (code-server refuses other Node versions). */
  node24Dir: string;
  codeServer: string;
  chromium: string;
}

/**
 * Where scripts/hostSetup.mjs put the pair. The test command passes the paths in the
 * environment; the fallback repeats the script's defaults for tests run by hand.
 */
export function hostPaths(): HostPaths {
  const cache = process.env.ACP_TEST_CACHE || join(homedir(), '.cache', 'acp-client-test');
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  return {
    node24Dir:
      process.env.ACP_NODE24_DIR || join(cache, 'n24', 'node_modules', 'node', 'node_modules', `node-linux-${arch}`),
    codeServer: process.env.ACP_CODE_SERVER || join(cache, 'cs', 'node_modules', '.bin', 'code-server'),
    chromium: process.env.ACP_CHROMIUM || '/usr/bin/chromium',
  };
}

/** Screenshots and logs of host tests land here (gitignored). */
export function resultsDir(): string {
  return join(repoRoot(), 'test-results');
}
