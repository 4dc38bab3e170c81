// Helpers for checkpoint tests: folders to snapshot, their state byte for byte, and the
// fingerprint of a user's .git that proves nothing in it was touched.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Checkpoints, type CheckpointsOptions } from '../../src/checkpoints/checkpoints';
import { repoRoot } from './refAgent';

/** The bundled watch thread, as the extension starts it (built by `node esbuild.mjs`). */
export const watchWorker = join(repoRoot, 'dist/checkpointsWatch.js');

/** Runs the machine's git in `cwd` with a fixed identity, returning stdout. */
export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Writes files (relative path → content), creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, ...rel.split('/'));
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

/**
 * Every file and link under `root` (not `.git`, not `skip`): its bytes' digest, its kind and
 * mode; links by their target. Two equal states are equal byte for byte.
 */
export function treeState(root: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const rel = relative(root, p).split('\\').join('/');
      if (e.name === '.git' || skip.some((s) => rel === s || rel.startsWith(`${s}/`))) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p);
      else
        out[rel] = `file ${st.mode & 0o111 ? 'x' : '-'} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(root);
  return out;
}

/** Every file under a `.git` with its size, times and content digest: any write shows. */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    const st = lstatSync(d);
    out[relative(dir, d) || '.'] = `${st.mode} ${st.mtimeMs} ${st.ctimeMs}`;
    if (!st.isDirectory()) {
      out[relative(dir, d)] += ` ${st.size} ${createHash('sha256').update(readFileSync(d)).digest('hex')}`;
      return;
    }
    for (const n of readdirSync(d).sort()) walk(join(d, n));
  };
  walk(dir);
  return out;
}

/** Checkpoints over a storage folder, with the options tests usually want. */
export function checkpointsIn(storage: string, options: Partial<CheckpointsOptions> = {}): Checkpoints {
  return new Checkpoints({ storage, ...options });
}
