// What the tests run besides their own Node: a Node whose `node:sqlite` the library can use
// (Node 22.13 and later), and the real Claude Code adapter (installed by `npm test` into the
// test cache, see scripts/hostSetup.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const cache = process.env.ACP_TEST_CACHE || join(homedir(), '.cache', 'acp-client-test');
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';

/** This Node, then the host tests' Node 24 (where it is installed). */
function nodes(): string[] {
  const candidates = [
    process.execPath,
    process.env.ACP_NODE24_DIR && join(process.env.ACP_NODE24_DIR, 'bin', 'node'),
    join(cache, 'n24', 'node_modules', 'node', 'node_modules', `node-linux-${arch}`, 'bin', 'node'),
  ];
  return candidates.filter((node): node is string => !!node && existsSync(node));
}

/** A Node that has `node:sqlite` with FTS5: this one, the host tests' Node 24, or none. */
export function nodeWithSqlite(): string | undefined {
  return nodes().find(hasSqlite);
}

/** A Node of at least `major`: this one, the host tests' Node 24, or none. */
export function nodeAtLeast(major: number): string | undefined {
  return nodes().find((node) => {
    const v = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout;
    return Number.parseInt(v, 10) >= major;
  });
}

function hasSqlite(node: string): boolean {
  const probe =
    "const s = process.getBuiltinModule?.('node:sqlite'); const d = s && new s.DatabaseSync(':memory:');" +
    'process.exit(d && d.prepare("SELECT sqlite_compileoption_used(\'ENABLE_FTS5\') AS f").get().f === 1 ? 0 : 1)';
  return spawnSync(node, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

/** The installed `@agentclientprotocol/claude-agent-acp` package, if there is one. */
export function claudeAcp(): string | undefined {
  const dir =
    process.env.ACP_CLAUDE_ACP || join(cache, 'claude-acp', 'node_modules', '@agentclientprotocol', 'claude-agent-acp');
  return existsSync(join(dir, 'dist', 'index.js')) ? dir : undefined;
}
