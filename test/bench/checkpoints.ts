// Benchmark 7: checkpoints of a 50,000-file, 200 MB folder (plain Node, the machine's git).
// Each figure beside raw git doing the same work in the same run: the first checkpoint
// (`git add -A` and `write-tree` into an empty repository), a checkpoint after 20 files changed
// (the same on an index in step with the folder), and a turn's diff of 20 files (that, then
// `diff-tree --numstat`). The folder is watched, as in the extension on Linux: a checkpoint
// after the first starts from the last one held in memory; the same checkpoint by a full look
// (where no watch can vouch for every change: Windows, macOS) is printed beside it. The folder is
// generated once into the test cache.
// Usage: node out/test/bench/checkpoints.js
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Checkpoints, WORKING } from '../../src/checkpoints/checkpoints';
import { repoRoot, tempDir } from '../support/refAgent';
import { benchFolder, FILES, fileContent, filePath } from './checkpointsRepo';
import { bytes, median, ms, percentile, ratio, summary, table } from './lib';

const run = promisify(execFile);
const B = 'checkpoints';
const ROUNDS = Number(process.env.ACP_BENCH_CHECKPOINT_ROUNDS ?? 15);
const CHANGED = 20;

/** Raw git on a repository of its own beside the folder, as a person would run it. */
function rawGit(gitDir: string, folder: string) {
  const env = { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: folder, GIT_CONFIG_NOSYSTEM: '1' };
  return async (...args: string[]) =>
    (await run('git', args, { env, cwd: folder, maxBuffer: 1 << 28, encoding: 'utf8' })).stdout.trim();
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

async function du(dir: string): Promise<number> {
  const { stdout } = await run('du', ['-sk', dir]);
  return Number(stdout.split('\t')[0]) * 1024;
}

async function main(): Promise<void> {
  const folder = benchFolder((l) => console.log(l));
  const scratch = tempDir('acp-bench-checkpoints-');
  const touched = new Set<number>();
  let round = 0;
  const picks = (r: number) => Array.from({ length: CHANGED }, (_, k) => (r * 7919 + k * 2503) % FILES);
  /** Changes 20 files the way an agent's turn does: a line added to each. */
  const change = () => {
    const picked = picks(round);
    round++;
    for (const i of picked) {
      appendFileSync(join(folder, filePath(i)), `export const changed${round} = ${round};\n`);
      touched.add(i);
    }
  };
  // A run stopped half-way left its changes: the files this run changes start as generated.
  for (let r = 0; r < 2 * ROUNDS + 2; r++)
    for (const i of picks(r)) writeFileSync(join(folder, filePath(i)), fileContent(i));
  try {
    const { stdout: version } = await run('git', ['--version']);
    console.log(
      `${version.trim()}; ${FILES.toLocaleString('en-US')} files; ${ROUNDS} rounds of ${CHANGED} changed files`,
    );
    const git = rawGit(join(scratch.path, 'raw.git'), folder);
    const cps = new Checkpoints({
      storage: join(scratch.path, 'storage'),
      watchWorker: join(repoRoot, 'dist/checkpointsWatch.js'),
    });
    await cps.available();
    /** The same without a watch: every checkpoint a full look. */
    const full = new Checkpoints({ storage: join(scratch.path, 'full') });
    // Both start with the folder in the page cache: a walk over it first.
    mkdirSync(join(scratch.path, 'warm'));
    await rawGit(join(scratch.path, 'warm', 'g'), folder)('init', '-q');
    await rawGit(join(scratch.path, 'warm', 'g'), folder)('status', '--porcelain', '-uall');

    const [rawFirst] = await timed(async () => {
      await git('init', '-q');
      await git('add', '-A');
      return git('write-tree');
    });
    const [ourFirst, first] = await timed(() => cps.checkpoint(folder, 'first'));
    const rawSize = await du(join(scratch.path, 'raw.git'));
    const looseSize = await du(join(scratch.path, 'storage'));
    const [packMs] = await timed(() => cps.settled());
    // The folder's watch, started by the first checkpoint, is in place (the second snapshot
    // still looks at every file: the first began before the watch was whole).
    await cps.watchReady(folder);
    const ourSize = await du(join(scratch.path, 'storage'));

    await full.checkpoint(folder, 'first');
    await full.settled();
    const inc = { raw: [] as number[], ours: [] as number[], full: [] as number[] };
    const turn = { raw: [] as number[], ours: [] as number[] };
    const diffOnly = { raw: [] as number[], ours: [] as number[] };
    let rawBefore = await git('write-tree');
    let ourBefore = first.id;
    let lastTurnBefore = first.id;
    for (let r = 0; r < ROUNDS; r++) {
      // A prompt's checkpoint: 20 files changed since the last one. Alternate who goes first.
      change();
      const rawInc = async () => {
        const [t, tree] = await timed(async () => {
          await git('add', '-A');
          return git('write-tree');
        });
        inc.raw.push(t);
        rawBefore = tree;
      };
      const ourInc = async () => {
        const [t, cp] = await timed(() => cps.checkpoint(folder, `before ${r}`));
        inc.ours.push(t);
        ourBefore = cp.id;
      };
      for (const f of r % 2 ? [ourInc, rawInc] : [rawInc, ourInc]) await f();
      inc.full.push((await timed(() => full.checkpoint(folder, `before ${r}`)))[0]);
      // The turn writes 20 files; its end: a checkpoint, then the diff with line counts.
      change();
      const rawTurn = async () => {
        const [t, [after]] = await timed(async () => {
          await git('add', '-A');
          const tree = await git('write-tree');
          return [tree, await git('diff-tree', '-r', '--numstat', rawBefore, tree)];
        });
        turn.raw.push(t);
        const [d] = await timed(() => git('diff-tree', '-r', '-z', '--raw', '--numstat', rawBefore, after!));
        diffOnly.raw.push(d);
        rawBefore = after!;
      };
      const ourTurn = async () => {
        const [t, after] = await timed(async () => {
          const cp = await cps.checkpoint(folder, `after ${r}`);
          const files = await cps.diff(folder, ourBefore, cp.id);
          if (files.length !== CHANGED) throw new Error(`the turn's diff has ${files.length} files, not ${CHANGED}`);
          return cp.id;
        });
        turn.ours.push(t);
        const [d] = await timed(() => cps.diff(folder, ourBefore, after));
        diffOnly.ours.push(d);
        lastTurnBefore = ourBefore;
        ourBefore = after;
      };
      for (const f of r % 2 ? [rawTurn, ourTurn] : [ourTurn, rawTurn]) await f();
    }
    // A restore of the last turn's 20 files (its undo checkpoint included), and its undo.
    const [restoreMs, restored] = await timed(() => cps.restore(folder, lastTurnBefore));
    if (restored.written.length !== CHANGED) throw new Error(`the restore wrote ${restored.written.length} files`);
    const [undoMs] = await timed(() => cps.restore(folder, restored.undo.id));
    const [workingMs] = await timed(() => cps.diff(folder, first.id, WORKING, { counts: false }));

    const row = (what: string, ours: number[], raw: number[], aim: string) => [
      what,
      ms(median(ours)),
      ms(percentile(ours, 90)),
      ms(median(raw)),
      ms(percentile(raw, 90)),
      ratio(median(ours), median(raw)),
      aim,
    ];
    table(
      `Checkpoints of ${FILES.toLocaleString('en-US')} files (${ROUNDS} rounds)`,
      ['', 'ours p50', 'ours p90', 'raw git p50', 'raw git p90', 'ours / raw', 'aim'],
      [
        ['first checkpoint', ms(ourFirst), '', ms(rawFirst), '', ratio(ourFirst, rawFirst), '≤ 10 s'],
        row(`checkpoint, ${CHANGED} files changed`, inc.ours, inc.raw, '≤ 150 ms'),
        row(`  the same by a full look (no watch)`, inc.full, inc.raw, ''),
        row(`turn's end: checkpoint + diff of ${CHANGED}`, turn.ours, turn.raw, '≤ 300 ms'),
        row(`diff of ${CHANGED} files alone`, diffOnly.ours, diffOnly.raw, ''),
      ],
    );
    table(
      'Restore and storage',
      ['', 'value', 'note'],
      [
        [
          `restore of ${CHANGED} files`,
          ms(restoreMs),
          `${restored.written.length} written; its undo checkpoint included`,
        ],
        ['undo of the restore', ms(undoMs), ''],
        ['diff to the working tree (no counts)', ms(workingMs), `${touched.size} files changed since the first`],
        ['storage after the first checkpoint', bytes(looseSize), `raw git: ${bytes(rawSize)}`],
        ['then packed in the background', bytes(ourSize), `${ms(packMs)} after the checkpoint returned`],
      ],
    );
    summary(B, 'first checkpoint, 50,000 files', ms(ourFirst), `raw git ${ms(rawFirst)}; aim ≤ 10 s`);
    summary(B, 'checkpoint, 20 changed, p50', ms(median(inc.ours)), `raw git ${ms(median(inc.raw))}; aim ≤ 150 ms`);
    cps.dispose();
    summary(B, "turn's diff of 20, p50", ms(median(turn.ours)), `raw git ${ms(median(turn.raw))}; aim ≤ 300 ms`);
  } finally {
    // The folder goes back to what the generator wrote, for the next run.
    for (const i of touched) writeFileSync(join(folder, filePath(i)), fileContent(i));
    scratch.cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
