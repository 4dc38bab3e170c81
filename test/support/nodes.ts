// Node binaries the tests run processes on besides their own: one whose `node:sqlite` the
// library can use (Node 22.13 and later), to run the library on the host's own SQLite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const cache = process.env.ACP_TEST_CACHE || join(homedir(), '.cache', 'acp-client-test');
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';

/** A Node that has `node:sqlite` with FTS5: this one, the host tests' Node 24, or none. */
export function nodeWithSqlite(): string | undefined {
  const candidates = [
    process.execPath,
    process.env.ACP_NODE24_DIR && join(process.env.ACP_NODE24_DIR, 'bin', 'node'),
    join(cache, 'n24', 'node_modules', 'node', 'node_modules', `node-linux-${arch}`, 'bin', 'node'),
  ];
  return candidates.find((node) => node && existsSync(node) && hasSqlite(node)) || undefined;
}

function hasSqlite(node: string): boolean {
  const probe =
    "const s = process.getBuiltinModule?.('node:sqlite'); const d = s && new s.DatabaseSync(':memory:');" +
    'process.exit(d && d.prepare("SELECT sqlite_compileoption_used(\'ENABLE_FTS5\') AS f").get().f === 1 ? 0 : 1)';
  return spawnSync(node, ['-e', probe], { stdio: 'ignore' }).status === 0;
}
