// Benchmark 10: a session in a new worktree of a 50,000-file repository (the checkpoints
// benchmark's folder, committed once into a repository of the test cache), beside raw
// `git worktree add` in the same run: creating the worktree (its checks, `worktree add`, the
// base kept in the branch's config), then `session/new` in it with the reference agent already
// running; and a fork's worktree with 20 uncommitted files carried over.
// Usage: node out/test/bench/worktrees.js
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { MemoryLogger } from '../../src/agent/log';
import { Git } from '../../src/worktrees/git';
import { Worktrees } from '../../src/worktrees/worktrees';
import { refAgentConfig, tempDir } from '../support/refAgent';
import { benchFolder, FILES, fileContent, filePath } from './checkpointsRepo';
import { median, ms, percentile, ratio, summary, table, timed } from './lib';

const run = promisify(execFile);
const B = 'worktrees';
const ROUNDS = Number(process.env.ACP_BENCH_WORKTREE_ROUNDS ?? 3);
const CARRIED = 20;
const identity = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};
const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };

async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, ...identity, GIT_CONFIG_NOSYSTEM: '1' };
  return (await run('git', args, { cwd, env, maxBuffer: 1 << 28, encoding: 'utf8' })).stdout.trim();
}

/** The generated folder committed once into a repository of its own beside it (made once, kept). */
async function benchRepo(log: (l: string) => void): Promise<string> {
  const folder = benchFolder(log);
  const repo = join(folder, '..', 'worktree-repo');
  if (existsSync(join(repo, '.git', 'acp-bench-ready'))) return repo;
  log(`committing ${FILES.toLocaleString('en-US')} files into ${repo} (once)…`);
  rmSync(repo, { recursive: true, force: true });
  cpSync(folder, repo, { recursive: true });
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-qm', 'generated');
  writeFileSync(join(repo, '.git', 'acp-bench-ready'), '');
  return repo;
}

/**
 * Removes the bench's worktrees and branches: their folders deleted outright, then pruned (a
 * `git worktree remove` of each looks at all 50,000 files first), the branches in one command.
 */
async function removeWorktrees(repo: string): Promise<void> {
  const listed = await git(repo, 'worktree', 'list', '--porcelain');
  const paths = [...listed.matchAll(/^worktree (.+)$/gm)].map((m) => m[1]!).slice(1);
  for (const p of paths) rmSync(p, { recursive: true, force: true });
  await git(repo, 'worktree', 'prune');
  const branches = (await git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads'))
    .split('\n')
    .filter((b) => /^(raw|ours|fork)-\d+$/.test(b));
  if (branches.length) await git(repo, 'branch', '-D', ...branches);
}

async function main(): Promise<void> {
  const repo = await benchRepo((l) => console.log(l));
  // A run stopped half-way left its worktrees.
  await removeWorktrees(repo);
  const scratch = tempDir('acp-bench-worktrees-');
  const store = join(scratch.path, 'store');
  mkdirSync(store);
  const wt = new Worktrees(new Git({ env: { ...process.env, ...identity } }));
  const c = await AgentConnection.start({
    config: refAgentConfig(store),
    logger: new MemoryLogger(),
    handlers,
    clientInfo: { name: 'acp-client-bench', version: '0.0.0' },
  });
  const carriedFiles = Array.from({ length: CARRIED }, (_, k) => filePath((k * 2503) % FILES));
  try {
    console.log(`${(await git(repo, '--version')).trim()}; ${FILES.toLocaleString('en-US')} files; ${ROUNDS} rounds`);
    const location = join(scratch.path, 'worktrees');
    const raw: number[] = [];
    const create: number[] = [];
    const session: number[] = [];
    const total: number[] = [];
    const fork: number[] = [];
    // Both start with the repository in the page cache.
    await git(repo, 'status', '--porcelain');
    for (let r = 0; r < ROUNDS; r++) {
      const rawRun = async () => {
        const branch = `raw-${r}`;
        const path = join(location, branch);
        const t = await timed(() => git(repo, 'worktree', 'add', '-q', '-b', branch, path, 'main'));
        raw.push(t.ms);
      };
      const ourRun = async () => {
        const branch = `ours-${r}`;
        const t = await timed(async () => {
          const c1 = await timed(() => wt.create(repo, { branch, base: 'main', location }));
          create.push(c1.ms);
          const s = await timed(() => c.newSession({ cwd: c1.value.path, mcpServers: [] }));
          session.push(s.ms);
        });
        total.push(t.ms);
      };
      for (const f of r % 2 ? [ourRun, rawRun] : [rawRun, ourRun]) await f();
      // A fork's worktree: 20 files changed in the folder, carried into it.
      for (const [k, rel] of carriedFiles.entries()) appendFileSync(join(repo, rel), `// changed ${r} ${k}\n`);
      const branch = `fork-${r}`;
      const f = await timed(() => wt.create(repo, { branch, base: 'main', location, carry: true }));
      if (f.value.carried?.copied.length !== CARRIED)
        throw new Error(`carried ${f.value.carried?.copied.length} files`);
      fork.push(f.ms);
      for (const rel of carriedFiles) writeFileSync(join(repo, rel), fileContent(Number(/file(\d+)/.exec(rel)![1])));
    }
    const row = (what: string, v: number[], aim = '') => [
      what,
      ms(median(v)),
      ms(percentile(v, 90)),
      ratio(median(v), median(raw)),
      aim,
    ];
    table(
      `A session in a new worktree of ${FILES.toLocaleString('en-US')} files (${ROUNDS} rounds)`,
      ['', 'p50', 'p90', '/ raw git', 'note'],
      [
        row('raw git worktree add', raw),
        row('New Session in Worktree: create', create, 'checks, worktree add, base kept'),
        row('then session/new in it', session, 'agent running'),
        row('create + session/new', total),
        row(`fork's worktree, ${CARRIED} changes carried`, fork, 'create + carry'),
      ],
    );
    summary(B, 'worktree + session/new, p50', ms(median(total)), `raw git worktree add ${ms(median(raw))}`);
    summary(B, `fork's worktree, ${CARRIED} carried, p50`, ms(median(fork)), `raw ${ms(median(raw))}`);
  } finally {
    await c.stop();
    await removeWorktrees(repo);
    for (const rel of carriedFiles) writeFileSync(join(repo, rel), fileContent(Number(/file(\d+)/.exec(rel)![1])));
    scratch.cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
