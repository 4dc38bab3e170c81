import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentConfig } from '../../src/agent/types';

/** The repository root, from the bundled test file (out/test/<kind>/x.js) or the source. */
export const repoRoot = resolve(__dirname, existsSync(resolve(__dirname, '../../package.json')) ? '../..' : '../../..');
/** The bundled reference agent; `ACP_TEST_AGENT` names another copy (the mutation run keeps its own). */
export const agentScript = process.env.ACP_TEST_AGENT ?? join(repoRoot, 'out/test/agent.js');

/** A temporary directory removed by `cleanup()`. */
export function tempDir(prefix = 'acp-test-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Seeds the reference agent's store. */
export function seed(store: string, cwds: string[], sessions: number, turns: number, extra: string[] = []): void {
  execFileSync(
    process.execPath,
    [
      agentScript,
      'seed',
      '--store',
      store,
      ...cwds.flatMap((c) => ['--cwd', c]),
      '--sessions',
      String(sessions),
      '--turns',
      String(turns),
      ...extra,
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/**
 * A suite's world (call it inside `describe`): a temporary folder `project` and a store seeded
 * for it before the suite, removed after it. What a test puts in `running` (connections,
 * hosts) is stopped after each test.
 */
export function useSeededFolder<T extends { stop(): Promise<unknown> }>(sessions: number, turns: number) {
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const running: T[] = [];
  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], sessions, turns);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
  });
  after(() => dir.cleanup());
  return { dir, store, cwd, running };
}

/** An `acp.agents` entry that runs the reference agent with the given switches. */
export function refAgentConfig(store: string, switches: string[] = [], id = 'ref'): AgentConfig {
  return {
    id,
    name: 'Reference Agent',
    command: process.execPath,
    args: [agentScript, '--store', store, ...switches],
    env: {},
  };
}

/** Whether a process is still there. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Running and not a zombie: an orphan's zombie lingers until PID 1 reaps it, slowly on some machines. */
export function isAlive(pid: number): boolean {
  if (!isRunning(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}
