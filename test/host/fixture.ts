// A throwaway world for one host run: workspace folders with a few files, the reference
// agent's session store seeded for them, and the settings that configure that agent.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { seededTurn } from '../agent/content';
import { repoRoot } from './paths';

export interface FixtureOptions {
  /** Names of the workspace folders; two or more make a .code-workspace file. Default ['project']. */
  folders?: string[];
  /** Open a .code-workspace file even for fewer than two folders (none: a multi-root window with no folder). */
  workspaceFile?: boolean;
  /** Sessions seeded per folder (0: none). Default 5. */
  sessions?: number;
  turns?: number;
  /** More switches for the reference agent (faults, page size...). */
  agentArgs?: string[];
  /** The agent records what it receives (`--record`) to `recordFile`. */
  record?: boolean;
  /** More switches for seeding (`--sidechains N`, `--subagents N`, `--empty N`...). */
  seedArgs?: string[];
  /** False: no `acp.agents` at all. */
  agent?: boolean;
  agentId?: string;
  /** A second reference agent on the same store (several agents side by side). */
  secondAgent?: { id: string; name: string; agentArgs?: string[] };
  /**
   * git's trace2 events (`GIT_TRACE2_EVENT`) of every git the extension host starts, a file per
   * process in `gitTraceDir`: which repositories git opened.
   */
  gitTrace?: boolean;
  /**
   * The demo world of `npm start` instead of the folders above: two project folders in a
   * workspace file and their realistic sessions (test/agent/demo), ages counted from now.
   */
  demo?: boolean;
}

/** What a run hands to the suites in the extension host (JSON file in ACP_TEST_CONTEXT). */
export interface FixtureContext {
  folders: string[];
  workspaceFile?: string;
  storeDir: string;
  /** The agent appends its pid here each time it starts. */
  startedFile: string;
  agentId: string;
  agentScript: string;
  sessionsPerFolder: number;
  /** Where the agent records what it receives, when asked to. */
  recordFile?: string;
  /** Where git writes its trace2 events, when asked to. */
  gitTraceDir?: string;
}

export interface Fixture extends FixtureContext {
  root: string;
  /** The folder or .code-workspace to open. */
  target: string;
  settings: Record<string, unknown>;
  /** Environment for code-server: points the suites at the context file. */
  env: Record<string, string>;
  dispose(): void;
}

export function agentScript(): string {
  return join(repoRoot(), 'out', 'test', 'agent.js');
}

export function seedSessions(
  storeDir: string,
  cwds: string[],
  sessions: number,
  turns: number,
  extra: readonly string[] = [],
): void {
  const script = agentScript();
  if (!existsSync(script)) {
    console.warn(`fixture: ${script} is not built; not seeding sessions`);
    return;
  }
  const args = [
    script,
    'seed',
    '--store',
    storeDir,
    ...cwds.flatMap((c) => ['--cwd', c]),
    '--sessions',
    String(sessions),
    '--turns',
    String(turns),
    ...extra,
  ];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`seeding sessions failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
}

/** Writes the demo world under `root` with the reference agent's `demo` command. */
function seedDemo(root: string): { folders: string[]; workspaceFile: string; sessions: number } {
  const r = spawnSync(process.execPath, [agentScript(), 'demo', '--root', root], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`seeding the demo failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout) as { folders: string[]; workspaceFile: string; sessions: number };
}

/** The `acp.agents` entry for the reference agent. Absolute paths: code-server rebuilds PATH. */
export function referenceAgent(id: string, storeDir: string, startedFile: string, extra: string[] = []) {
  return {
    id,
    name: 'Reference Agent',
    command: process.execPath,
    args: [agentScript(), '--store', storeDir, '--started-file', startedFile, ...extra],
  };
}

export function createFixture(options: FixtureOptions = {}): Fixture {
  // realpath: the extension compares a session's cwd with the folder path; /tmp may be a link.
  // The demo's paths show in its pictures: a short, plain folder name.
  const root = realpathSync(mkdtempSync(join(tmpdir(), options.demo ? 'demo-' : 'acp-fixture-')));
  const startedFile = join(root, 'agent-started.txt');
  const storeDir = join(root, 'store');
  let folders: string[];
  let workspaceFile: string | undefined;
  let sessions = options.sessions ?? 5;
  if (options.demo) {
    const world = seedDemo(root);
    folders = world.folders;
    workspaceFile = world.workspaceFile;
    sessions = world.sessions;
  } else {
    folders = (options.folders ?? ['project']).map((name) => {
      const dir = join(root, name);
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'README.md'), `# ${name}\n\nA folder for testing the ACP client.\n`);
      writeFileSync(join(dir, 'src', 'main.ts'), `export const greeting = 'hello from ${name}';\n`);
      return dir;
    });
    mkdirSync(storeDir);
    if (sessions > 0) seedSessions(storeDir, folders, sessions, options.turns ?? 3, options.seedArgs);
  }

  if (!workspaceFile && (folders.length > 1 || options.workspaceFile)) {
    workspaceFile = join(root, 'test.code-workspace');
    writeFileSync(workspaceFile, JSON.stringify({ folders: folders.map((path) => ({ path })) }, null, 2));
  }
  const agentId = options.agentId ?? 'reference';
  const recordFile = options.record ? join(root, 'agent-record.ndjson') : undefined;
  const gitTraceDir = options.gitTrace ? join(root, 'git-trace') : undefined;
  if (gitTraceDir) mkdirSync(gitTraceDir);
  const agentArgs = [...(options.agentArgs ?? []), ...(recordFile ? ['--record', recordFile] : [])];
  // Add Agent reads the ACP Registry: a test machine never asks the public one. Port 9 of this
  // machine, where nothing listens, stands for it (a test that serves a registry sets its own).
  const offline = { 'acp.registry.url': 'http://127.0.0.1:9/registry.json' };
  const settings: Record<string, unknown> =
    options.agent === false
      ? { ...offline }
      : {
          ...offline,
          'acp.agents': [
            referenceAgent(agentId, storeDir, startedFile, agentArgs),
            ...(options.secondAgent
              ? [
                  {
                    ...referenceAgent(options.secondAgent.id, storeDir, startedFile, options.secondAgent.agentArgs),
                    name: options.secondAgent.name,
                  },
                ]
              : []),
          ],
        };
  const context: FixtureContext = {
    folders,
    workspaceFile,
    storeDir,
    startedFile,
    agentId,
    agentScript: agentScript(),
    sessionsPerFolder: sessions,
    ...(recordFile ? { recordFile } : {}),
    ...(gitTraceDir ? { gitTraceDir } : {}),
  };
  const contextFile = join(root, 'context.json');
  writeFileSync(contextFile, JSON.stringify(context, null, 2));
  return {
    ...context,
    root,
    target: workspaceFile ?? folders[0]!,
    settings,
    env: { ACP_TEST_CONTEXT: contextFile, ...(gitTraceDir ? { GIT_TRACE2_EVENT: gitTraceDir } : {}) },
    dispose: () => {
      endAgents(startedFile);
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/**
 * Ends the reference agents this world started. Stopping code-server kills its extension host
 * outright, so the extension cannot stop them; they leave on their own when stdin closes, and
 * this makes sure no test leaves a process behind for the next one to compete with.
 */
function endAgents(startedFile: string): void {
  if (!existsSync(startedFile)) return;
  for (const line of readFileSync(startedFile, 'utf8').split('\n')) {
    const pid = Number(line.trim());
    if (!Number.isInteger(pid) || pid <= 0) continue;
    // Only a process that is still that agent (its command line names this world's file): a
    // pid can be reused once its process has gone.
    if (!commandLine(pid).includes(startedFile)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Updates that begin an entry of the chat's thread (the others add to one). */
const BEGINS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'plan']);

interface SeededEntry {
  sessionId: string;
  cwd: string;
  turns: number;
  seeded?: { turns: number; index: number };
}

/**
 * Writes a seeded session's history out whole with one turn more, `after` entries from its end,
 * that alone says `word` ("Where did the <word> retry loop come from?" and its answer): the
 * words a search finds only there. The index is written too (an agent running on the store
 * reads it again).
 */
export function plantWord(storeDir: string, sessionId: string, word: string, after: number): void {
  const indexFile = join(storeDir, 'index.json');
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { sessions: SeededEntry[] };
  const entry = index.sessions.find((s) => s.sessionId === sessionId);
  if (!entry?.seeded) throw new Error(`no seeded session ${sessionId} in ${indexFile}`);
  const updates: SessionUpdate[] = [];
  for (let turn = 0; turn < entry.seeded.turns; turn++)
    updates.push(...seededTurn(entry.cwd, turn, entry.seeded.index));
  let at = updates.length;
  for (let begun = 0; at > 0 && begun < after;) if (BEGINS.has(updates[--at]!.sessionUpdate)) begun++;
  // At the start of that turn.
  while (at > 0 && updates[at]!.sessionUpdate !== 'user_message_chunk') at--;
  updates.splice(
    at,
    0,
    {
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: `Where did the ${word} retry loop come from?` },
    },
    {
      sessionUpdate: 'agent_message_chunk',
      content: {
        type: 'text',
        text: `The ${word} retry loop came with the queue rewrite: it backs off twice, then gives up.`,
      },
    },
  );
  writeFileSync(
    join(storeDir, 'sessions', `${encodeURIComponent(entry.sessionId)}.ndjson`),
    updates.map((u) => JSON.stringify(u)).join('\n') + '\n',
  );
  entry.turns += 1;
  delete entry.seeded;
  writeFileSync(indexFile, JSON.stringify(index));
}
