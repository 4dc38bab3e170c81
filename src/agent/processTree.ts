/**
 * The processes a command started, found from the system's process table, and how a whole tree
 * is ended on Windows. There a stop that ends only the launcher (`cmd.exe`, a shim) leaves the
 * real agent running: like VS Code's `terminateProcess` and vscode-languageclient, the tree is
 * ended with `taskkill /T /F /PID` while its root still lives, the exit code is checked, and
 * when taskkill fails (it is missing, refused, or cannot walk the tree) the tree is read from
 * the process table (`wmic`, else PowerShell's CIM) and each member ended one by one.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** One row of the process table; `pgid`, `sid` and `start` where the system tells them. */
export interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid?: number;
  readonly sid?: number;
  /** When it started (Linux: clock ticks since boot). */
  readonly start?: number;
}

/** Runs a program and gives its exit code and output (tests pass a fake). */
export type Runner = (
  file: string,
  args: readonly string[],
  timeoutMs: number,
) => Promise<{ code: number | null; out: string }>;

/** Output of Windows tools: `wmic` writes UTF-16 when its output is a pipe. */
export function decodeOutput(buf: Buffer): string {
  const zeros = buf.subarray(0, 200).filter((b) => b === 0).length;
  const text = zeros > 20 ? buf.toString('utf16le') : buf.toString('utf8');
  return text.replace(/^\uFEFF/, '');
}

export const runProgram: Runner = (file, args, timeoutMs) =>
  new Promise((resolve) => {
    let child;
    try {
      child = execFile(
        file,
        [...args],
        { encoding: 'buffer', timeout: timeoutMs, windowsHide: true, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout) => {
          const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
          resolve({ code, out: decodeOutput(Buffer.concat([stdout ?? Buffer.alloc(0)])) });
        },
      );
    } catch {
      resolve({ code: null, out: '' });
      return;
    }
    child.stdin?.end();
  });

/** Linux's `/proc/<pid>/stat`: the name may hold spaces and parentheses, so fields are read after the last `)`. */
export function parseProcStat(pid: number, text: string): ProcessRow | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // state ppid pgrp session … (the 22nd field of the line, starttime, is the 20th here); a zombie is gone already.
  if (fields.length < 20 || fields[0] === 'Z') return undefined;
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]), start: Number(fields[19]) };
}

/** One process's row from `/proc` (Linux), or undefined when it is gone. */
export function procRow(pid: number): ProcessRow | undefined {
  try {
    return parseProcStat(pid, readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/**
 * Calls `fn` for each item, synchronously in slices, yielding to the event loop between them:
 * a small synchronous read of `/proc` costs a fraction of what one promise per file does, and
 * slices keep a machine of thousands of processes from stalling the host.
 */
export async function inSlices<T>(items: readonly T[], fn: (item: T) => void, size = 256): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const item of items.slice(i, i + size)) fn(item);
  }
}

/** The ids in `/proc` (Linux), or undefined where there is none. */
export function procPids(): number[] | undefined {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return undefined;
  }
}

/** `ps -A -o pid=,ppid=,pgid=` (macOS, whose `ps` has no session id). */
export function parsePs(text: string): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const line of text.split('\n')) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (Number.isInteger(pid) && Number.isInteger(ppid)) rows.push({ pid: pid!, ppid: ppid!, pgid });
  }
  return rows;
}

/**
 * `wmic process get ParentProcessId,ProcessId` (columns in that order, alphabetical) or the
 * PowerShell query's `<pid> <ppid>` lines, told apart by `header`.
 */
export function parseWindowsTable(text: string, order: 'ppid-pid' | 'pid-ppid'): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const line of text.split(/\r?\n/)) {
    const nums = line.trim().split(/\s+/);
    if (nums.length !== 2 || !nums.every((n) => /^\d+$/.test(n))) continue;
    const [a, b] = nums.map(Number) as [number, number];
    rows.push(order === 'ppid-pid' ? { pid: b, ppid: a } : { pid: a, ppid: b });
  }
  return rows;
}

/** The process table from PowerShell's CIM, `<pid> <ppid>` per line (where `wmic` is missing). */
export const POWERSHELL_QUERY =
  'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId)" }';

/** The process table, or undefined when it cannot be read here. */
export async function processTable(
  platform: NodeJS.Platform = process.platform,
  run: Runner = runProgram,
): Promise<ProcessRow[] | undefined> {
  if (platform === 'linux') {
    const pids = procPids();
    if (!pids) return undefined;
    const rows: ProcessRow[] = [];
    await inSlices(pids, (pid) => {
      const row = procRow(pid);
      if (row) rows.push(row);
    });
    return rows;
  }
  if (platform === 'win32') {
    const wmic = await run('wmic', ['process', 'get', 'ParentProcessId,ProcessId'], 15_000);
    if (wmic.code === 0) {
      const rows = parseWindowsTable(wmic.out, 'ppid-pid');
      if (rows.length > 0) return rows;
    }
    // wmic is gone from recent Windows 11 unless installed.
    const ps = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', POWERSHELL_QUERY], 30_000);
    const rows = ps.code === 0 ? parseWindowsTable(ps.out, 'pid-ppid') : [];
    return rows.length > 0 ? rows : undefined;
  }
  const ps = await run('ps', ['-A', '-o', 'pid=,ppid=,pgid='], 15_000);
  return ps.code === 0 ? parsePs(ps.out) : undefined;
}

/**
 * Everything `roots` (process ids) and the members of `groups` (process group ids) lead to: their
 * descendants, and the members of any process group or session that one of them leads. A process
 * that left with `setsid` leads a session of its own, so what it starts is found through it even
 * once its parent is gone; the session of a root that does not lead it (the host's) is not taken.
 */
export function relatives(
  table: readonly ProcessRow[],
  roots: Iterable<number>,
  groups: Iterable<number> = [],
): Set<number> {
  const found = new Set(roots);
  const groupSet = new Set(groups);
  for (const r of table) if (r.pgid !== undefined && groupSet.has(r.pgid)) found.add(r.pid);
  for (let grew = true; grew;) {
    grew = false;
    const leads = new Set<number>();
    for (const r of table) {
      if (!found.has(r.pid)) continue;
      if (r.sid === r.pid || r.pgid === r.pid) leads.add(r.pid);
    }
    for (const r of table) {
      if (found.has(r.pid)) continue;
      const led = (r.sid !== undefined && leads.has(r.sid)) || (r.pgid !== undefined && leads.has(r.pgid));
      if (found.has(r.ppid) || led) {
        found.add(r.pid);
        grew = true;
      }
    }
  }
  return found;
}

/** How ending a tree went: `taskkill`, the table fallback, or why neither worked. */
export interface TreeEnd {
  readonly ok: boolean;
  readonly how: string;
}

/** Whether a process is alive (one that cannot be signalled by us still counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Ends the Windows process tree rooted at `pid`: `taskkill /T /F` first (it walks the tree while
 * the root lives); only when it fails is the process table read (`wmic` takes a fraction of a
 * second, PowerShell seconds) and every member ended. A member still names its parent after the
 * parent ended (Windows does not re-parent), so what taskkill ended before failing does not cut
 * the tree. `ok` only when nothing of the tree is left that could be seen.
 */
export async function endWindowsTree(
  pid: number,
  opts: {
    run?: Runner;
    table?: () => Promise<ProcessRow[] | undefined>;
    kill?: (pid: number) => void;
    alive?: (pid: number) => boolean;
  } = {},
): Promise<TreeEnd> {
  const run = opts.run ?? runProgram;
  const tk = await run('taskkill', ['/T', '/F', '/PID', String(pid)], 15_000);
  if (tk.code === 0) return { ok: true, how: 'taskkill /T /F' };
  const failed = `taskkill failed (exit ${tk.code ?? 'none'})`;
  const table = await (opts.table ?? (() => processTable('win32', run)))();
  const kill =
    opts.kill ??
    ((p: number) => {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // Gone already.
      }
    });
  const isAlive = opts.alive ?? processAlive;
  if (!table) {
    kill(pid);
    return { ok: !isAlive(pid), how: `${failed} and the process table cannot be read` };
  }
  const tree = relatives(table, [pid]);
  for (const p of tree) kill(p);
  const left = [...tree].filter(isAlive);
  return left.length === 0
    ? { ok: true, how: `${failed}; ended ${tree.size} process(es) one by one` }
    : { ok: false, how: `${failed}; still running: ${left.join(', ')}` };
}

/**
 * A signal to a child's process group (POSIX). Windows has no groups: there the tree is ended
 * with {@link endWindowsTree}, and this ends the child itself as a last resort.
 */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
