/**
 * The installed versions under `agents/<id>/<version>/`, and when one may go. A version folder
 * is removed only when no `acp.agents` entry starts a program in it and nothing runs it: each
 * window that starts an agent from a version folder leaves a lease there, a file named by the
 * agent's process id, and a lease counts while that process lives (any window's, so a second
 * window still running the old version keeps it). The window that installed a folder holds a
 * lease of its own until it has written the entry. Leftovers of an install that died (partial
 * folders, downloads) go once they are a day old. Nothing else in the folder is touched.
 */
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { AGENT_ID, SAFE_VERSION } from './format';
import { LEASES } from './install';

/** A partial folder or download this old belongs to an install that died. */
const STALE_MS = 24 * 60 * 60_000;

export interface InstalledAt {
  readonly id: string;
  readonly version: string;
  /** The version folder. */
  readonly dir: string;
}

/** The install a command runs from, when it is a program inside `agents/<id>/<version>/`. */
export function installOf(agentsDir: string, command: string): InstalledAt | undefined {
  if (!nodePath.isAbsolute(command)) return undefined;
  const rel = nodePath.relative(agentsDir, command);
  if (!rel || rel.startsWith('..') || nodePath.isAbsolute(rel)) return undefined;
  const [id, version, ...rest] = rel.split(/[\\/]/);
  if (!id || !version || rest.length === 0 || !AGENT_ID.test(id) || !SAFE_VERSION.test(version)) return undefined;
  return { id, version, dir: nodePath.join(agentsDir, id, version) };
}

/** Leaves a lease for a process started from an install. */
export async function leaseRun(install: InstalledAt, pid: number): Promise<void> {
  const dir = nodePath.join(install.dir, LEASES);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(nodePath.join(dir, String(pid)), String(Date.now()));
}

/** Gives up a lease (the installing window's, once the entry is written). */
export async function releaseLease(install: InstalledAt, pid: number): Promise<void> {
  await fs.rm(nodePath.join(install.dir, LEASES, String(pid)), { force: true });
}

export interface SweepDeps {
  /** Whether an `acp.agents` entry starts a program in this version folder. */
  readonly used: (dir: string) => boolean;
  /** Whether a process is running (`process.kill(pid, 0)`). */
  readonly alive: (pid: number) => boolean;
  readonly now?: () => number;
}

async function runBy(dir: string, alive: (pid: number) => boolean): Promise<boolean> {
  let names: string[];
  try {
    names = await fs.readdir(nodePath.join(dir, LEASES));
  } catch {
    return false;
  }
  for (const name of names) {
    if (/^\d+$/.test(name) && alive(Number(name))) return true;
    // The process ended: its lease is stale.
    await fs.rm(nodePath.join(dir, LEASES, name), { force: true }).catch(() => {});
  }
  return false;
}

async function age(path: string, now: number): Promise<number> {
  try {
    return now - (await fs.stat(path)).mtimeMs;
  } catch {
    return Infinity;
  }
}

/**
 * Removes the version folders of `ids` (every id when not given) that nothing uses, and the
 * id's folder once it is empty. Returns the folders removed. A folder that cannot be removed yet
 * (Windows keeps a running program's files) stays for the next sweep.
 */
export async function sweepInstalls(agentsDir: string, deps: SweepDeps, ids?: readonly string[]): Promise<string[]> {
  const now = (deps.now ?? Date.now)();
  const removed: string[] = [];
  let all: string[];
  try {
    all = ids ? [...ids] : await fs.readdir(agentsDir);
  } catch {
    return removed;
  }
  for (const id of all) {
    if (!AGENT_ID.test(id)) continue;
    const idDir = nodePath.join(agentsDir, id);
    let children: string[];
    try {
      children = await fs.readdir(idDir);
    } catch {
      continue;
    }
    for (const name of children) {
      const path = nodePath.join(idDir, name);
      if (/^\.(partial|download)-/.test(name)) {
        if ((await age(path, now)) > STALE_MS) await fs.rm(path, { recursive: true, force: true }).catch(() => {});
        continue;
      }
      if (!SAFE_VERSION.test(name)) continue;
      if (deps.used(path) || (await runBy(path, deps.alive))) continue;
      try {
        await fs.rm(path, { recursive: true, maxRetries: 2 });
        removed.push(path);
      } catch {
        // In use after all (Windows): the next sweep tries again.
      }
    }
    await fs.rmdir(idDir).catch(() => {});
  }
  return removed;
}

/** Compares two versions of the form 1.2.3 (a pre-release after `-` sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split(/-(.*)/s, 2);
    return {
      nums: core
        .split('+')[0]!
        .split('.')
        .map((n) => Number.parseInt(n, 10) || 0),
      pre,
    };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
