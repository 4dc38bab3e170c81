/**
 * What a command started, found again when it left the command's process group. A process group
 * reaches what a command started, unless a child left it (`setsid`, a daemon's double fork). Such
 * a child is found (Linux) by what it still carries:
 * - a mark: an environment variable set in the command's environment (gone if it was started
 *   with `env -u` or `env -i`);
 * - a pipe: the command's output pipes, which a background child keeps unless it closes them;
 * and then by what these lead to: their descendants and the sessions and groups they lead (what
 * the child started after `setsid` is in its session, even once its parent is gone).
 * Elsewhere the group and what its members lead to are all that is found.
 */
import { readlinkSync, promises as fs } from 'node:fs';
import { processTable, relatives } from './processTree';

/** The variable that marks the processes of the client's terminals and agents. */
export const MARK_VARIABLE = 'ACP_CLIENT_PROCESS';

/** How a command's processes are found again: its group (the leader's pid), mark and pipes. */
export interface Trace {
  readonly group?: number;
  readonly mark: string;
  /** Inodes of the command's stdio pipes (Linux). */
  readonly pipes: readonly number[];
}

/**
 * The ids of live processes whose environment holds `MARK_VARIABLE=mark` (none where that cannot
 * be read). Read without blocking: a machine may run thousands of processes.
 */
export async function markedProcesses(mark: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const entry = Buffer.from(`${MARK_VARIABLE}=${mark}\0`);
  const pids = await ownPids();
  const marked = await Promise.all(
    pids.map(async (pid) => {
      // Gone, or another user's: not ours either way.
      const environ = await fs.readFile(`/proc/${pid}/environ`).catch(() => undefined);
      const at = environ?.indexOf(entry) ?? -1;
      return at === 0 || (at > 0 && environ![at - 1] === 0) ? pid : undefined;
    }),
  );
  return marked.filter((pid): pid is number => pid !== undefined);
}

async function ownPids(): Promise<number[]> {
  const names = await fs.readdir('/proc').catch(() => [] as string[]);
  return names.filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid).map(Number);
}

/**
 * The inode of a pipe, from what `/proc` shows for a descriptor: `pipe:[123]`, or `socket:[123]`
 * (Node's stdio pipes on Linux are socket pairs).
 */
export function pipeInode(link: string): number | undefined {
  const m = /^(?:pipe|socket):\[(\d+)\]$/.exec(link);
  return m ? Number(m[1]) : undefined;
}

/**
 * The inodes of a child's stdio pipes as the child holds them (Linux; empty elsewhere). Read
 * right after the spawn, which returns once the child runs its program: Node's stdio pipes are
 * socket pairs, whose two ends have inodes of their own, so the child's end is read from it.
 */
export function stdioPipes(pid: number | undefined, fds: readonly number[]): number[] {
  if (process.platform !== 'linux' || pid === undefined) return [];
  const out: number[] = [];
  for (const fd of fds) {
    try {
      const inode = pipeInode(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (inode !== undefined) out.push(inode);
    } catch {
      // Ended already.
    }
  }
  return out;
}

/** Processes (other than this one) that hold one of the pipes open. */
export async function pipeHolders(inodes: readonly number[]): Promise<number[]> {
  if (process.platform !== 'linux' || inodes.length === 0) return [];
  const wanted = new Set(inodes.flatMap((i) => [`pipe:[${i}]`, `socket:[${i}]`]));
  const held = await Promise.all(
    (await ownPids()).map(async (pid) => {
      const fds = await fs.readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
      for (const fd of fds) {
        const link = await fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
        if (wanted.has(link)) return pid;
      }
      return undefined;
    }),
  );
  return held.filter((pid): pid is number => pid !== undefined);
}

/** Every live process a trace leads to (see the file's comment), this process excepted. */
export async function tracedProcesses(trace: Trace, platform: NodeJS.Platform = process.platform): Promise<number[]> {
  if (platform === 'win32') return [];
  const [table, marked, holders] = await Promise.all([
    processTable(platform),
    markedProcesses(trace.mark),
    pipeHolders(trace.pipes),
  ]);
  const seeds = [...marked, ...holders];
  if (!table) return seeds;
  const found = relatives(table, seeds, trace.group === undefined ? [] : [trace.group]);
  found.delete(process.pid);
  found.delete(1);
  return [...found];
}

/** Sends `signal` to every process the trace leads to; resolves with how many there were. */
export async function signalTraced(trace: Trace, signal: NodeJS.Signals): Promise<number> {
  const pids = await tracedProcesses(trace);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
  return pids.length;
}

/** Sends `signal` to every marked process; resolves with how many there were. */
export async function signalMarked(mark: string, signal: NodeJS.Signals): Promise<number> {
  return signalTraced({ mark, pipes: [] }, signal);
}
