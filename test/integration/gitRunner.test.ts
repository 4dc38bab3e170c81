// The one git runner against real repositories that configure programs of their own: an
// fsmonitor (also in a repository around the folder), hooks that read their input or never end.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorktreeRows } from '../../src/app/worktreeRows';
import { WorktreeError } from '../../src/worktrees/errors';
import { Git } from '../../src/worktrees/git';
import { Worktrees } from '../../src/worktrees/worktrees';
import { git, writeFiles } from '../support/checkpoints';
import { tempDir } from '../support/refAgent';

const identity = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** A shell script at `file` that appends `word` to `marker` each time it runs, then runs `then`. */
function script(file: string, marker: string, word: string, then = ''): string {
  writeFileSync(file, `#!/bin/sh\necho "${word} $$" >> "${marker}"\n${then}\n`);
  chmodSync(file, 0o755);
  return file;
}

function repoAt(folder: string): string {
  mkdirSync(folder, { recursive: true });
  writeFiles(folder, { 'a.txt': 'one\n' });
  git(folder, ['init', '-q', '-b', 'main']);
  git(folder, ['add', '-A']);
  git(folder, ['commit', '-qm', 'base']);
  return folder;
}

function ran(marker: string): string[] {
  return existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : [];
}

/** The work trees of the repositories git opened, from a GIT_TRACE2_EVENT folder (a file per process). */
function opened(trace: string): Set<string> {
  const out = new Set<string>();
  for (const f of readdirSync(trace))
    for (const line of readFileSync(join(trace, f), 'utf8').split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line) as { event: string; worktree?: string };
      if (e.event === 'def_repo' && e.worktree) out.add(e.worktree);
    }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('The git runner: no program of the repository runs unless asked, nothing hangs', function () {
  if (process.platform === 'win32') return;
  this.timeout(60_000);
  let dir: ReturnType<typeof tempDir>;
  let marker: string;
  beforeEach(() => {
    dir = tempDir('acp-gitrun-');
    marker = join(dir.path, 'ran.txt');
  });
  afterEach(() => dir.cleanup());

  it('reads a repository, and one around the folder, without running their fsmonitor', async () => {
    // An extracted archive: a repository whose config names an fsmonitor, and a repository two
    // folders down in it (no submodule), which the Sessions view lists.
    const outer = repoAt(join(dir.path, 'archive'));
    git(outer, ['config', 'core.fsmonitor', script(join(dir.path, 'outer-monitor'), marker, 'outer')]);
    const inner = repoAt(join(outer, 'apps', 'frontend'));
    git(inner, ['config', 'core.fsmonitor', script(join(dir.path, 'inner-monitor'), marker, 'inner')]);
    // The machine's own git runs them: the test would prove nothing otherwise.
    git(outer, ['status', '--porcelain']);
    assert.ok(ran(marker).length > 0, 'the plain git ran the fsmonitor');
    writeFileSync(marker, '');
    const wt = new Worktrees(new Git({ env: { ...process.env, ...identity } }));
    await wt.list(inner);
    await wt.uncommitted(inner);
    await wt.list(join(outer, 'apps'));
    await wt.uncommitted(join(outer, 'apps'));
    const made = await wt.create(inner, { branch: 'feature', carry: true });
    await wt.summary(made.path, 'main');
    assert.deepEqual(ran(marker), []);
  });

  it('lists a folder inside another repository without opening that repository', async () => {
    // The Sessions view's worktree rows of a repository two folders down in an extracted archive:
    // looking for a superproject, git itself would run `ls-files` in the archive's repository.
    const outer = realpathSync(repoAt(join(dir.path, 'archive')));
    git(outer, ['config', 'core.fsmonitor', script(join(dir.path, 'outer-monitor'), marker, 'outer')]);
    const inner = repoAt(join(outer, 'apps', 'frontend'));
    git(inner, ['worktree', 'add', '-q', '-b', 'side', join(dir.path, 'side')]);
    writeFileSync(join(dir.path, 'side', 'a.txt'), 'changed in the worktree\n');
    const trace = join(dir.path, 'trace');
    mkdirSync(trace);
    const rows = new WorktreeRows(
      new Worktrees(new Git({ env: { ...process.env, ...identity, GIT_TRACE2_EVENT: trace } })),
    );
    await rows.refresh(inner);
    assert.deepEqual(
      rows.rows(inner).map((r) => [r.info.branch, r.summary?.changed]),
      [['side', 1]],
    );
    const seen = opened(trace);
    assert.ok(seen.has(inner), `the trace names what git opened: ${[...seen].join(', ')}`);
    assert.ok(!seen.has(outer), 'the archive’s repository was never opened');
    assert.deepEqual(ran(marker), []);
  });

  it('closes the input of what it runs: a program git hands its input to ends, and the command with it', async () => {
    const repo = repoAt(join(dir.path, 'project'));
    writeFileSync(join(repo, 'a.txt'), 'changed\n');
    // An fsmonitor gets git's own input (hooks get none): named after the runner's options, it
    // runs, reads, and must find the input closed, or it and `status` would wait for ever.
    const monitor = script(join(dir.path, 'monitor'), marker, 'monitor', 'cat > /dev/null');
    const g = new Git({ env: { ...process.env, ...identity }, timeoutMs: 20_000 });
    const r = await g.run(repo, ['-c', `core.fsmonitor=${monitor}`, 'status', '--porcelain']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /a\.txt/);
    assert.equal(ran(marker).length, 1, 'the program ran and read its input to the end');
  });

  it('runs no hook where the user asked for none: reads never do', async () => {
    const repo = repoAt(join(dir.path, 'project'));
    // Git runs no hook on these commands; a hooksPath set in the repository changes nothing.
    git(repo, ['config', 'core.hooksPath', join(dir.path, 'hooks')]);
    mkdirSync(join(dir.path, 'hooks'));
    script(join(dir.path, 'hooks', 'post-checkout'), marker, 'hook');
    const g = new Git({ env: { ...process.env, ...identity } });
    assert.equal((await g.run(repo, ['checkout', '-q', '-b', 'quiet'])).code, 0);
    assert.deepEqual(ran(marker), []);
    assert.equal((await g.run(repo, ['checkout', '-q', '-b', 'loud'], { hooks: true })).code, 0);
    assert.equal(ran(marker).length, 1);
  });

  it('stops a command past its limit with what it started, and says which step it was', async () => {
    const repo = repoAt(join(dir.path, 'project'));
    script(join(repo, '.git', 'hooks', 'post-checkout'), marker, 'hook', 'sleep 600');
    const g = new Git({ env: { ...process.env, ...identity }, timeoutMs: 1500 });
    await assert.rejects(g.run(repo, ['checkout', '-q', '-b', 'stuck'], { hooks: true }), (e: unknown) => {
      assert.ok(e instanceof WorktreeError);
      assert.match(e.message, /^git checkout did not end within 2 s and was stopped\./);
      return true;
    });
    // The hook had started (its pid is in the marker) and is stopped with git.
    const [line] = ran(marker);
    assert.ok(line, 'the hook ran');
    const pid = Number(line.split(' ')[1]);
    const end = Date.now() + 20_000;
    while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(pid), false, 'the hook was stopped too');
  });
});
