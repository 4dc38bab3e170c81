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
 *
 * A stop reads the process table once; the environment and descriptors only of the few
 * processes that may have left: started since the command, in a session made since (leaving a
 * group's session takes `setsid`, which makes one), and not reached through the group.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { inSlices, processTable, procRow, relatives, type ProcessRow } from './processTree';

/** The variable that marks the processes of the client's terminals and agents. */
export const MARK_VARIABLE = 'ACP_CLIENT_PROCESS';

/** How a command's processes are found again. */
export interface Trace {
  /** Its process group (the leader's pid), while the group may still exist. */
  readonly group?: number;
  readonly mark: string;
  /** Inodes of the command's stdio pipes (Linux). */
  readonly pipes: readonly number[];
  /** When the command started (Linux, clock ticks since boot): what it started is not older. */
  readonly since?: number;
}

/**
 * A command's trace, read right after its spawn (which returns once the child runs its program):
 * on Linux the inodes of its stdio pipes `fds` as the child holds them, and its start time.
 */
export function traceOf(pid: number | undefined, mark: string, fds: readonly number[]): Trace {
  if (process.platform !== 'linux' || pid === undefined) return { group: pid, mark, pipes: [] };
  return { group: pid, mark, pipes: stdioPipes(pid, fds), since: procRow(pid)?.start };
}

/**
 * Linux: a command that ends at once (`setsid env -u … cmd &`) may be gone before its pipes are
 * read, and what it left running is then found by nothing. So it starts behind a gate: a shell
 * that waits for a line on descriptor 3 (sent once the trace is read, see {@link openGate}),
 * closes it and runs the command in its own place; an end of input instead (the client died
 * first) runs nothing.
 */
export const GATE_SCRIPT = 'IFS= read -r _ <&3 || exit 1; exec 3<&-; exec "$0" "$@"';

/** The command `file args…` behind the gate (Linux): spawn it with a pipe as descriptor 3. */
export function gated(file: string, args: readonly string[]): { file: string; args: string[] } {
  return { file: '/bin/sh', args: ['-c', GATE_SCRIPT, file, ...args] };
}

/** Lets a gated command run: its trace is read. */
export function openGate(gate: Writable | null | undefined): void {
  gate?.on('error', () => {});
  gate?.end('\n');
}

/**
 * The inode of a pipe, from what `/proc` shows for a descriptor: `pipe:[123]`, or `socket:[123]`
 * (Node's stdio pipes on Linux are socket pairs, whose two ends have inodes of their own).
 */
export function pipeInode(link: string): number | undefined {
  const m = /^(?:pipe|socket):\[(\d+)\]$/.exec(link);
  return m ? Number(m[1]) : undefined;
}

function stdioPipes(pid: number, fds: readonly number[]): number[] {
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

/** Whether a process's environment holds `entry` (`NAME=value\0`); false when it cannot be read. */
function carriesMark(pid: number, entry: Buffer): boolean {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`);
    const at = environ.indexOf(entry);
    return at === 0 || (at > 0 && environ[at - 1] === 0);
  } catch {
    // Gone, or another user's: not ours either way.
    return false;
  }
}

/** Whether a process holds one of `links` (`pipe:[n]`, `socket:[n]`) open. */
function holdsPipe(pid: number, links: ReadonlySet<string>): boolean {
  if (links.size === 0) return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return links.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * The processes that may have left the command's group and session (see the file's comment):
 * not in `reached`, started since the command, and in a session whose leader did too (or is gone).
 */
export function mayHaveLeft(
  table: readonly ProcessRow[],
  reached: ReadonlySet<number>,
  since: number | undefined,
): number[] {
  const recent = (r: ProcessRow | undefined) => since === undefined || r?.start === undefined || r.start >= since;
  const byPid = new Map(table.map((r) => [r.pid, r]));
  return table
    .filter((r) => !reached.has(r.pid) && r.pid !== process.pid && recent(r))
    .filter((r) => r.sid === undefined || !byPid.has(r.sid) || recent(byPid.get(r.sid)))
    .map((r) => r.pid);
}

/** Every live process a trace leads to (see the file's comment), this process excepted. */
export async function tracedProcesses(trace: Trace, platform: NodeJS.Platform = process.platform): Promise<number[]> {
  if (platform === 'win32') return [];
  const table = await processTable(platform);
  if (!table) return [];
  const groups = trace.group === undefined ? [] : [trace.group];
  const seeds: number[] = [];
  if (platform === 'linux') {
    const entry = Buffer.from(`${MARK_VARIABLE}=${trace.mark}\0`);
    const links = new Set(trace.pipes.flatMap((i) => [`pipe:[${i}]`, `socket:[${i}]`]));
    await inSlices(mayHaveLeft(table, relatives(table, [], groups), trace.since), (pid) => {
      if (carriesMark(pid, entry) || holdsPipe(pid, links)) seeds.push(pid);
    });
  }
  const found = relatives(table, seeds, groups);
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
