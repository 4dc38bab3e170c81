// Worktree sessions' git work against real repositories made here: create, list, review, merge,
// discard, and every kind of bad input the issue names, each with a clear message and nothing lost.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { WorktreeError, type WorktreeProblem } from '../../src/worktrees/errors';
import { WorktreeRows } from '../../src/app/worktreeRows';
import { Git } from '../../src/worktrees/git';
import { Worktrees, type WorktreeInfo } from '../../src/worktrees/worktrees';
import { git, writeFiles } from '../support/checkpoints';
import { tempDir } from '../support/refAgent';

const identity = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

function worktrees(gitPath?: string): Worktrees {
  return new Worktrees(new Git({ gitPath, env: { ...process.env, ...identity } }));
}

/** A repository on `main` with one commit of `files`. */
function repoAt(folder: string, files: Record<string, string> = { 'a.txt': 'one\n' }): string {
  mkdirSync(folder, { recursive: true });
  writeFiles(folder, files);
  git(folder, ['init', '-q', '-b', 'main']);
  git(folder, ['add', '-A']);
  git(folder, ['commit', '-qm', 'base']);
  return folder;
}

async function rejectsWith(p: Promise<unknown>, problem: WorktreeProblem, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof WorktreeError, `a WorktreeError, not ${String(e)}`);
    assert.equal(e.problem, problem, e.message);
    assert.match(e.message, message);
    return true;
  });
}

async function find(wt: Worktrees, folder: string, branch: string): Promise<WorktreeInfo> {
  const found = (await wt.list(folder)).find((w) => w.branch === branch);
  assert.ok(found, `${branch} is listed`);
  return found;
}

describe('Worktrees with the machine’s git', function () {
  this.timeout(60_000);
  let dir: ReturnType<typeof tempDir>;
  let repo: string;
  beforeEach(() => {
    dir = tempDir('acp-wt-');
    repo = repoAt(join(dir.path, 'project'));
  });
  afterEach(() => dir.cleanup());

  it('creates a worktree beside the repository, lists it with its base, and reviews what changed there', async () => {
    const wt = worktrees();
    writeFiles(repo, { '.env': 'SECRET=1\n' });
    writeFileSync(join(repo, '.gitignore'), '.env\n');
    git(repo, ['add', '.gitignore']);
    git(repo, ['commit', '-qm', 'ignore']);
    const made = await wt.create(repo, { branch: 'feature/one', copyFiles: ['.env', 'absent.txt', '../outside'] });
    assert.equal(made.path, join(`${repo}.worktrees`, 'feature', 'one'));
    assert.equal(made.base, 'main');
    assert.deepEqual(made.copied, ['.env'], 'only the listed files that exist, inside the repository');
    assert.equal(readFileSync(join(made.path, '.env'), 'utf8'), 'SECRET=1\n');
    const listed = await wt.list(repo);
    assert.deepEqual(
      listed.map((w) => [w.branch, w.main, w.base, w.missing]),
      [
        ['main', true, undefined, false],
        ['feature/one', false, 'main', false],
      ],
    );
    writeFiles(made.path, { 'a.txt': 'two\n', 'new.txt': 'new\n' });
    git(made.path, ['add', 'a.txt']);
    git(made.path, ['commit', '-qm', 'change a']);
    writeFiles(repo, { 'b.txt': 'on main\n' });
    git(repo, ['add', 'b.txt']);
    git(repo, ['commit', '-qm', 'main moves']);
    assert.deepEqual(await wt.summary(made.path, 'main'), {
      ahead: 1,
      behind: 1,
      changed: 2,
      files: ['a.txt', 'new.txt'],
    });
    const { mergeBase, files } = await wt.changes(made.path, 'main');
    assert.deepEqual(
      files.map((f) => [f.path, f.status]),
      [
        ['a.txt', 'M'],
        ['new.txt', 'A'],
      ],
      'the branch against the merge base: b.txt of main is not a change of the worktree',
    );
    assert.equal(await wt.show(made.path, mergeBase, 'a.txt'), 'one\n');
    assert.equal(await wt.show(made.path, mergeBase, 'new.txt'), undefined);
  });

  it('reads a file at a commit by its object id only: a rev that git would read as an option writes nothing', async () => {
    const wt = worktrees();
    const written = join(dir.path, 'written');
    const marker = join(dir.path, 'ran.txt');
    // A filter and a textconv the repository names: the blob is read as stored, neither runs.
    writeFiles(repo, { '.gitattributes': '*.txt diff=mark filter=mark\n' });
    git(repo, ['add', '.gitattributes']);
    git(repo, ['commit', '-qm', 'attributes']);
    const program = join(dir.path, 'program');
    writeFileSync(program, `#!/bin/sh\necho ran >> "${marker}"\ncat "$@"\n`);
    chmodSync(program, 0o755);
    for (const key of ['diff.mark.textconv', 'filter.mark.smudge', 'filter.mark.clean'])
      git(repo, ['config', key, program]);
    const id = git(repo, ['rev-parse', 'HEAD']).trim();
    for (const rev of [`--output=${written}`, '-p', 'HEAD', 'main', id.slice(0, 12), `${id} `])
      assert.equal(await wt.show(repo, rev, 'a.txt'), undefined, rev);
    assert.equal(await wt.show(repo, id, '../a.txt'), undefined);
    assert.deepEqual(
      readdirSync(dir.path).filter((f) => f.startsWith('written')),
      [],
      'no file written',
    );
    assert.equal(await wt.show(repo, id, 'a.txt'), 'one\n');
    assert.equal(await wt.show(repo, id, 'absent.txt'), undefined);
    assert.ok(!existsSync(marker), 'no program of the repository ran');
  });

  it('lists worktrees made by hand', async () => {
    git(repo, ['worktree', 'add', '-q', '-b', 'by-hand', join(dir.path, 'elsewhere')]);
    const listed = await worktrees().list(repo);
    assert.deepEqual(
      listed.map((w) => [w.branch, relative(dir.path, w.path), w.base]),
      [
        ['main', 'project', undefined],
        ['by-hand', 'elsewhere', 'main'],
      ],
    );
  });

  it('warns when two worktrees change the same file, naming the other branch and the files', async () => {
    const wt = worktrees();
    const one = await wt.create(repo, { branch: 'one' });
    const two = await wt.create(repo, { branch: 'two' });
    const three = await wt.create(repo, { branch: 'three' });
    writeFiles(one.path, { 'a.txt': 'uno\n', 'only-one.txt': '1\n' });
    writeFiles(two.path, { 'a.txt': 'two\n' });
    writeFiles(three.path, { 'other.txt': '3\n' });
    const rows = new WorktreeRows(wt);
    await rows.refresh(repo);
    const byBranch = new Map(rows.rows(repo).map((r) => [r.info.branch, r.overlaps]));
    assert.deepEqual(byBranch.get('one'), [{ branch: 'two', files: ['a.txt'] }]);
    assert.deepEqual(byBranch.get('two'), [{ branch: 'one', files: ['a.txt'] }]);
    assert.equal(byBranch.get('three'), undefined);
  });

  it('merges a worktree into its base with a merge commit, or squashed and left staged', async () => {
    const wt = worktrees();
    const one = await wt.create(repo, { branch: 'one' });
    writeFiles(one.path, { 'one.txt': '1\n' });
    await rejectsWith(
      wt.merge(await find(wt, repo, 'one'), { mode: 'merge' }),
      'worktreeDirty',
      /has 1 uncommitted change: commit them there first/,
    );
    assert.deepEqual(await wt.merge(await find(wt, repo, 'one'), { mode: 'merge', commitMessage: 'One' }), {
      kind: 'merged',
      into: repo,
    });
    assert.equal(readFileSync(join(repo, 'one.txt'), 'utf8'), '1\n');
    assert.match(git(repo, ['log', '-1', '--format=%s']), /^Merge branch 'one'/);

    const two = await wt.create(repo, { branch: 'two' });
    writeFiles(two.path, { 'two.txt': '2\n' });
    git(two.path, ['add', '-A']);
    git(two.path, ['commit', '-qm', 'two']);
    const head = git(repo, ['rev-parse', 'HEAD']);
    assert.equal((await wt.merge(await find(wt, repo, 'two'), { mode: 'squash' })).kind, 'squashed');
    assert.equal(git(repo, ['rev-parse', 'HEAD']), head, 'a squash commits nothing: the user does');
    assert.equal(git(repo, ['diff', '--cached', '--name-only']), 'two.txt\n');
  });

  it('discards a worktree and its branch only after listing what would be lost, and refuses when more would be', async () => {
    const wt = worktrees();
    const made = await wt.create(repo, { branch: 'gone' });
    writeFiles(made.path, { 'kept.txt': 'k\n' });
    git(made.path, ['add', '-A']);
    git(made.path, ['commit', '-qm', 'unmerged work']);
    writeFiles(made.path, { 'loose.txt': 'l\n' });
    const info = await find(wt, repo, 'gone');
    const seen = await wt.losses(repo, info);
    assert.deepEqual(
      seen.uncommitted.map((f) => [f.path, f.status]),
      [['loose.txt', '?']],
    );
    assert.equal(seen.unmerged.length, 1);
    assert.match(seen.unmerged[0]!, /^[0-9a-f]{7,} unmerged work$/);
    writeFiles(made.path, { 'later.txt': 'written after the question\n' });
    await rejectsWith(wt.discard(repo, info, seen), 'failed', /changed since you were asked: nothing was removed/);
    assert.ok(existsSync(join(made.path, 'later.txt')));
    await wt.discard(repo, info, await wt.losses(repo, info));
    assert.ok(!existsSync(made.path));
    assert.equal(git(repo, ['branch', '--list', 'gone']), '');
    assert.equal((await wt.list(repo)).length, 1);
  });

  it('names the ignored files a discard deletes, and refuses when one appeared after the question', async () => {
    const wt = worktrees();
    writeFiles(repo, { '.gitignore': '.env\nbuild/\n*.local\n' });
    git(repo, ['add', '.gitignore']);
    git(repo, ['commit', '-qm', 'ignore']);
    const made = await wt.create(repo, { branch: 'ignoring' });
    writeFiles(made.path, { '.env': 'SECRET=edited by hand\n', 'build/out.js': 'built\n', 'src/x.local': 'notes\n' });
    const info = await find(wt, repo, 'ignoring');
    const seen = await wt.losses(repo, info);
    assert.deepEqual(seen.ignored, ['.env', 'build/', 'src/x.local'], 'a wholly ignored folder is named once');
    assert.deepEqual(seen.uncommitted, []);
    writeFiles(made.path, { 'notes.local': 'written after the question\n' });
    await rejectsWith(wt.discard(repo, info, seen), 'failed', /changed since you were asked: nothing was removed/);
    assert.equal(readFileSync(join(made.path, '.env'), 'utf8'), 'SECRET=edited by hand\n');
    const now = await wt.losses(repo, info);
    assert.deepEqual(now.ignored, ['.env', 'build/', 'notes.local', 'src/x.local']);
    await wt.discard(repo, info, now);
    assert.ok(!existsSync(made.path));
  });

  it('names the commits only a detached HEAD holds, and those of a branch with no base', async () => {
    const wt = worktrees();
    const loose = join(dir.path, 'loose');
    git(repo, ['worktree', 'add', '-q', '--detach', loose]);
    writeFiles(loose, { 'l.txt': 'l\n' });
    git(loose, ['add', '-A']);
    git(loose, ['commit', '-qm', 'work on a detached HEAD']);
    const detached = (await wt.list(repo)).find((w) => w.path === loose);
    assert.ok(detached && detached.detached && !detached.branch);
    const seen = await wt.losses(repo, detached);
    assert.deepEqual(
      seen.detached.map((c) => c.replace(/^[0-9a-f]+ /, '')),
      ['work on a detached HEAD'],
    );
    // Held by a branch too: nothing of it is lost.
    git(repo, ['branch', 'keeps-it', git(loose, ['rev-parse', 'HEAD']).trim()]);
    assert.deepEqual((await wt.losses(repo, detached)).detached, []);

    // A branch made by hand while the repository's HEAD is detached: no base to compare with.
    git(repo, ['checkout', '-q', '--detach']);
    const hand = join(dir.path, 'hand');
    git(repo, ['worktree', 'add', '-q', '-b', 'by-hand', hand]);
    writeFiles(hand, { 'h.txt': 'h\n' });
    git(hand, ['add', '-A']);
    git(hand, ['commit', '-qm', 'work in no other branch']);
    const byHand = await find(wt, repo, 'by-hand');
    assert.equal(byHand.base, undefined);
    const lost = await wt.losses(repo, byHand);
    assert.deepEqual(
      lost.unmerged.map((c) => c.replace(/^[0-9a-f]+ /, '')),
      ['work in no other branch'],
    );
  });

  describe('bad input', () => {
    it('not a git repository', async () => {
      const plain = join(dir.path, 'plain');
      mkdirSync(plain);
      await rejectsWith(worktrees().create(plain, { branch: 'x' }), 'notRepo', /is not in a git repository/);
    });

    it('a detached HEAD: the base must be named, then it works', async () => {
      git(repo, ['checkout', '-q', '--detach']);
      await rejectsWith(
        worktrees().create(repo, { branch: 'x' }),
        'detached',
        /HEAD is detached at [0-9a-f]{7} .*choose a branch as the base/,
      );
      assert.equal((await worktrees().create(repo, { branch: 'x', base: 'main' })).base, 'main');
    });

    it('a branch name that exists or is invalid', async () => {
      git(repo, ['branch', 'taken']);
      await rejectsWith(worktrees().create(repo, { branch: 'taken' }), 'branchExists', /"taken" exists already/);
      for (const bad of ['two words', 'a..b', 'x.lock', '-flag', 'ends/', '']) {
        await rejectsWith(worktrees().create(repo, { branch: bad }), 'invalidBranch', /not a valid branch name/);
      }
      assert.equal((await worktrees().list(repo)).length, 1, 'nothing was made');
      assert.ok(!existsSync(`${repo}.worktrees`));
    });

    it('the worktree folder exists already', async () => {
      const target = join(`${repo}.worktrees`, 'x');
      writeFiles(target, { 'mine.txt': 'the user’s\n' });
      await rejectsWith(worktrees().create(repo, { branch: 'x' }), 'folderExists', /exists already: remove it/);
      assert.equal(readFileSync(join(target, 'mine.txt'), 'utf8'), 'the user’s\n');
      assert.equal(git(repo, ['branch', '--list', 'x']), '', 'no branch left behind');
    });

    it('the base has uncommitted changes: said, left where they are, not carried', async () => {
      writeFiles(repo, { 'a.txt': 'edited\n', 'draft.txt': 'draft\n' });
      const made = await worktrees().create(repo, { branch: 'x' });
      assert.deepEqual(
        made.notCarried.map((f) => [f.path, f.status]),
        [
          ['a.txt', 'M'],
          ['draft.txt', '?'],
        ],
      );
      assert.equal(readFileSync(join(repo, 'a.txt'), 'utf8'), 'edited\n');
      assert.equal(readFileSync(join(made.path, 'a.txt'), 'utf8'), 'one\n');
      assert.ok(!existsSync(join(made.path, 'draft.txt')));
    });

    it('the base has uncommitted changes when merging: refused, nothing touched', async () => {
      const wt = worktrees();
      const made = await wt.create(repo, { branch: 'x' });
      writeFiles(made.path, { 'x.txt': 'x\n' });
      git(made.path, ['add', '-A']);
      git(made.path, ['commit', '-qm', 'x']);
      writeFiles(repo, { 'a.txt': 'edited on main\n' });
      const head = git(repo, ['rev-parse', 'HEAD']);
      await rejectsWith(
        wt.merge(await find(wt, repo, 'x'), { mode: 'merge' }),
        'baseDirty',
        /main has uncommitted changes in .* \(a\.txt\): commit or stash them/,
      );
      assert.equal(git(repo, ['rev-parse', 'HEAD']), head);
      assert.equal(readFileSync(join(repo, 'a.txt'), 'utf8'), 'edited on main\n');
    });

    it('a merge that would overwrite an ignored file of the base: refused before anything is committed, the file named', async () => {
      const wt = worktrees();
      writeFiles(repo, { '.gitignore': '.env\n' });
      git(repo, ['add', '.gitignore']);
      git(repo, ['commit', '-qm', 'ignore .env']);
      writeFiles(repo, { '.env': 'SECRET=the user’s own\n' });
      const made = await wt.create(repo, { branch: 'tracks-env' });
      writeFiles(made.path, { '.env': 'SECRET=the branch’s\n', 'x.txt': 'x\n' });
      git(made.path, ['add', '-f', '.env', 'x.txt']);
      git(made.path, ['commit', '-qm', 'track .env']);
      const head = git(repo, ['rev-parse', 'HEAD']);
      for (const mode of ['merge', 'squash'] as const) {
        await rejectsWith(
          wt.merge(await find(wt, repo, 'tracks-env'), { mode }),
          'overwritesUntracked',
          /^Merging tracks-env would overwrite 1 file in .* that git does not track .*: \.env\. Move it aside, then merge\. Nothing was merged or committed\.$/,
        );
      }
      // Uncommitted work in the worktree is not committed for a merge that cannot happen.
      writeFiles(made.path, { 'y.txt': 'y\n' });
      await rejectsWith(
        wt.merge(await find(wt, repo, 'tracks-env'), { mode: 'merge', commitMessage: 'y' }),
        'overwritesUntracked',
        /: \.env\./,
      );
      assert.equal(git(made.path, ['status', '--porcelain']), '?? y.txt\n');
      assert.equal(readFileSync(join(repo, '.env'), 'utf8'), 'SECRET=the user’s own\n');
      assert.equal(git(repo, ['rev-parse', 'HEAD']), head);
      assert.equal(git(repo, ['status', '--porcelain']), '');
      // Moved aside, the merge goes.
      rmSync(join(repo, '.env'));
      assert.equal(
        (await wt.merge(await find(wt, repo, 'tracks-env'), { mode: 'merge', commitMessage: 'y' })).kind,
        'merged',
      );
      assert.equal(readFileSync(join(repo, '.env'), 'utf8'), 'SECRET=the branch’s\n');
    });

    it('a merge that conflicts is left for the merge editor, nothing committed', async () => {
      const wt = worktrees();
      const made = await wt.create(repo, { branch: 'x' });
      writeFiles(made.path, { 'a.txt': 'theirs\n' });
      git(made.path, ['commit', '-qam', 'x']);
      writeFiles(repo, { 'a.txt': 'ours\n' });
      git(repo, ['commit', '-qam', 'main']);
      const head = git(repo, ['rev-parse', 'HEAD']);
      const r = await wt.merge(await find(wt, repo, 'x'), { mode: 'merge' });
      assert.deepEqual(r, { kind: 'conflicts', into: repo, conflicts: [join(repo, 'a.txt')] });
      assert.equal(git(repo, ['rev-parse', 'HEAD']), head);
      assert.match(readFileSync(join(repo, 'a.txt'), 'utf8'), /<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> x/);
      assert.ok(existsSync(join(repo, '.git', 'MERGE_HEAD')), 'the merge waits for the user');
    });

    it('a worktree deleted by hand: listed as missing, its unmerged commits said, discarded cleanly', async () => {
      const wt = worktrees();
      const made = await wt.create(repo, { branch: 'x' });
      writeFiles(made.path, { 'x.txt': 'x\n' });
      git(made.path, ['add', '-A']);
      git(made.path, ['commit', '-qm', 'work of x']);
      rmSync(made.path, { recursive: true, force: true });
      const info = await find(wt, repo, 'x');
      assert.equal(info.missing, true);
      const seen = await wt.losses(repo, info);
      assert.equal(seen.missing, true);
      assert.match(seen.unmerged.join('\n'), /work of x/);
      await wt.discard(repo, info, seen);
      assert.equal(git(repo, ['branch', '--list', 'x']), '');
      assert.equal((await wt.list(repo)).length, 1);
    });

    it('a locked worktree is not discarded: said with its reason', async () => {
      const wt = worktrees();
      const made = await wt.create(repo, { branch: 'x' });
      git(repo, ['worktree', 'lock', '--reason', 'on a USB disk', made.path]);
      const info = await find(wt, repo, 'x');
      await rejectsWith(
        wt.discard(repo, info, await wt.losses(repo, info)),
        'locked',
        /is locked \(on a USB disk\): unlock it/,
      );
      assert.ok(existsSync(made.path));
      assert.notEqual(git(repo, ['branch', '--list', 'x']), '');
    });

    it('a bare repository', async () => {
      const bare = join(dir.path, 'bare.git');
      git(dir.path, ['clone', '-q', '--bare', repo, bare]);
      await rejectsWith(worktrees().create(bare, { branch: 'x' }), 'bare', /is a bare repository/);
    });

    it('a submodule: its worktrees go beside the superproject, never inside its tree', async () => {
      const lib = repoAt(join(dir.path, 'lib'));
      const sup = repoAt(join(dir.path, 'super'));
      git(sup, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'libs/lib']);
      git(sup, ['commit', '-qm', 'add lib']);
      const made = await worktrees().create(join(sup, 'libs', 'lib'), { branch: 'x' });
      assert.equal(made.path, join(`${sup}.worktrees`, 'libs-lib', 'x'));
      assert.equal(git(sup, ['status', '--porcelain']), '', 'the superproject sees nothing new');
      assert.equal(readFileSync(join(made.path, 'a.txt'), 'utf8'), 'one\n');
    });

    it('a submodule of a submodule, and one that keeps its own .git folder: beside the outermost superproject', async () => {
      const lib = repoAt(join(dir.path, 'lib'));
      const mid = repoAt(join(dir.path, 'mid'));
      git(mid, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'deep lib']);
      git(mid, ['commit', '-qm', 'add lib']);
      const sup = repoAt(join(dir.path, 'super'));
      git(sup, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', mid, 'mid']);
      git(sup, ['-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init', '--recursive']);
      git(join(sup, 'mid', 'deep lib'), ['checkout', '-q', 'main']);
      git(sup, ['commit', '-qm', 'add mid']);
      const nested = await worktrees().create(join(sup, 'mid', 'deep lib'), { branch: 'x' });
      assert.equal(nested.path, join(`${sup}.worktrees`, 'mid-deep lib', 'x'));
      // A repository already in the superproject's tree, added as it is: its .git stays a folder.
      const kept = repoAt(join(sup, 'vendor', 'kept'));
      git(sup, ['submodule', 'add', '-q', './vendor/kept', 'vendor/kept']);
      git(sup, ['commit', '-qm', 'add kept']);
      assert.ok(lstatSync(join(kept, '.git')).isDirectory());
      const made = await worktrees().create(kept, { branch: 'y' });
      assert.equal(made.path, join(`${sup}.worktrees`, 'vendor-kept', 'y'));
      assert.equal(git(sup, ['status', '--porcelain']), '', 'the superproject sees nothing new');
    });

    it('a repository inside another one that is no submodule: its worktrees go beside it', async () => {
      const outer = repoAt(join(dir.path, 'archive'));
      const inner = repoAt(join(outer, 'apps', 'frontend'));
      const made = await worktrees().create(inner, { branch: 'x' });
      assert.equal(made.path, join(`${inner}.worktrees`, 'x'));
    });

    it('a path with spaces and non-ASCII letters, in folders, files and the branch', async () => {
      const wt = worktrees();
      const odd = repoAt(join(dir.path, 'mon projet été'), { 'dossier é/fichier ü.txt': 'un\n' });
      const made = await wt.create(odd, { branch: 'été/ça' });
      assert.equal(made.path, join(`${odd}.worktrees`, 'été', 'ça'));
      writeFiles(made.path, { 'dossier é/fichier ü.txt': 'deux\n', 'nouveau "x".txt': 'n\n' });
      const { mergeBase, files } = await wt.changes(made.path, 'main');
      assert.deepEqual(
        files.map((f) => f.path),
        ['dossier é/fichier ü.txt', 'nouveau "x".txt'],
      );
      assert.equal(await wt.show(made.path, mergeBase, 'dossier é/fichier ü.txt'), 'un\n');
      const info = await find(wt, odd, 'été/ça');
      assert.equal(info.path, made.path);
      assert.equal((await wt.merge(info, { mode: 'merge', commitMessage: 'été' })).kind, 'merged');
      assert.equal(readFileSync(join(odd, 'dossier é', 'fichier ü.txt'), 'utf8'), 'deux\n');
    });

    it('git missing, or too old: says which version is needed', async () => {
      await rejectsWith(
        worktrees(join(dir.path, 'no-such-git')).create(repo, { branch: 'x' }),
        'gitMissing',
        /Worktree sessions need git 2\.20 or newer, which was not found at .*no-such-git/,
      );
      if (process.platform === 'win32') return;
      const old = join(dir.path, 'old-git');
      writeFileSync(old, '#!/bin/sh\necho "git version 2.4.11"\n');
      chmodSync(old, 0o755);
      await rejectsWith(
        worktrees(old).create(repo, { branch: 'x' }),
        'gitTooOld',
        /need git 2\.20 or newer; .*old-git is git 2\.4\.11/,
      );
    });
  });
});
