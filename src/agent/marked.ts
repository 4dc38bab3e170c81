/**
 * Processes marked by an environment variable. A process group reaches what a command started,
 * unless a child left the group (`setsid`, a daemon's double fork); such a child still carries
 * the environment it was started with, so a mark set in it finds it again. Linux only: there the
 * environment of the user's own processes is readable in /proc.
 */
import { promises as fs } from 'node:fs';

/** The variable that marks the processes of the client's terminals and agents. */
export const MARK_VARIABLE = 'ACP_CLIENT_PROCESS';

/**
 * The ids of live processes whose environment holds `MARK_VARIABLE=mark` (none where that cannot
 * be read). Read without blocking: a machine may run thousands of processes.
 */
export async function markedProcesses(mark: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const entry = Buffer.from(`${MARK_VARIABLE}=${mark}\0`);
  let names: string[];
  try {
    names = await fs.readdir('/proc');
  } catch {
    return [];
  }
  const pids = names.filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid);
  const marked = await Promise.all(
    pids.map(async (pid) => {
      // Gone, or another user's: not ours either way.
      const environ = await fs.readFile(`/proc/${pid}/environ`).catch(() => undefined);
      const at = environ?.indexOf(entry) ?? -1;
      return at === 0 || (at > 0 && environ![at - 1] === 0) ? Number(pid) : undefined;
    }),
  );
  return marked.filter((pid): pid is number => pid !== undefined);
}

/** Sends `signal` to every marked process; resolves with how many there were. */
export async function signalMarked(mark: string, signal: NodeJS.Signals): Promise<number> {
  const pids = await markedProcesses(mark);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
  return pids.length;
}
