/**
 * No agent outlives the extension host that started it. Agents and terminal commands run in
 * process groups of their own (so a stop reaches what they started), which also means nothing
 * ends them when the host is killed outright: a crash, a force quit, the out-of-memory killer.
 * An agent that ignores the end of its input then lives on, never reaped.
 *
 * So one small watcher runs beside each host, reading a pipe from the host, told of each group
 * (on Windows: each tree's root), mark (see marked.ts) and output pipe as they start and end.
 * When the pipe ends — the host is gone, however it went — it ends everything still listed.
 *
 * - POSIX: a shell (about a megabyte). It signals every listed group, then on Linux also what
 *   carries a mark, what holds one of the listed pipes, and everything these lead to (their
 *   descendants, and the sessions and groups they lead: what left with `setsid env -u …` holds
 *   the pipes or is found through its session); SIGTERM, then SIGKILL two seconds later. It runs
 *   in a group of its own, so whatever kills the host's group leaves it to do its work.
 * - Windows: a small Node program run by the host's own executable (`ELECTRON_RUN_AS_NODE=1`
 *   makes VS Code's Electron a Node), which ends each listed tree with `taskkill /T /F` and, when
 *   that fails, every member the process table shows.
 *
 * Started with the first agent; it does nothing but wait on its input.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { MARK_VARIABLE } from './marked';
import { POWERSHELL_QUERY } from './processTree';

const GRACE_SECONDS = 2;

/**
 * The POSIX watcher: `+g`/`-g <group>` list and forget a group, `+m`/`-m <mark>` a mark,
 * `+p`/`-p <inode>` a pipe.
 */
export const POSIX_WATCHER = `
groups=' '
marks=' '
pipes=' '
while read -r op id; do
  case "$op" in
    +g) groups="$groups$id " ;;
    -g) groups=$(printf '%s' "$groups" | sed "s/ $id / /g") ;;
    +m) marks="$marks$id " ;;
    -m) marks=$(printf '%s' "$marks" | sed "s/ $id / /g") ;;
    +p) pipes="$pipes$id " ;;
    -p) pipes=$(printf '%s' "$pipes" | sed "s/ $id / /g") ;;
  esac
done
seeds() {
  # One pass over /proc for all marks, one for all pipes.
  set --
  for m in $marks; do set -- "$@" -e "^${MARK_VARIABLE}=$m\\$"; done
  [ $# -gt 0 ] && grep -lsz "$@" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3
  set --
  for i in $pipes; do set -- "$@" -o -lname "pipe:?$i?" -o -lname "socket:?$i?"; done
  [ $# -gt 0 ] && shift && find /proc/[0-9]*/fd \\( "$@" \\) 2>/dev/null | cut -d/ -f3
}
traced() {
  [ -d /proc/self ] || return 0
  s=$(seeds | sort -u | tr '\\n' ' ')
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v seeds="$s" -v groups="$groups" -v self=$$ '
    { i = match($0, /\\)[^)]*$/); split(substr($0, i + 2), f, " ")
      if (f[1] == "Z") next
      n++; P[n] = $1; PP[n] = f[2]; PG[n] = f[3]; S[n] = f[4] }
    END {
      split(seeds, a, " "); for (k in a) F[a[k]] = 1
      split(groups, g, " "); for (k in g) G[g[k]] = 1
      for (i = 1; i <= n; i++) if (PG[i] in G) F[P[i]] = 1
      for (grew = 1; grew; ) {
        grew = 0
        for (i = 1; i <= n; i++) if ((P[i] in F) && (S[i] == P[i] || PG[i] == P[i])) L[P[i]] = 1
        for (i = 1; i <= n; i++)
          if (!(P[i] in F) && ((PP[i] in F) || (S[i] in L) || (PG[i] in L))) { F[P[i]] = 1; grew = 1 }
      }
      for (p in F) if (p != "" && p != self && p != 1) print p
    }'
}
stop() {
  for g in $groups; do kill -s "$1" -- "-$g" 2>/dev/null; done
  for p in $2; do kill -s "$1" "$p" 2>/dev/null; done
}
found=$(traced)
stop TERM "$found"
sleep ${GRACE_SECONDS}
stop KILL "$found $(traced)"
`;

/** The Windows watcher: `+g`/`-g <pid>` list and forget the root of a tree. */
export const WINDOWS_WATCHER = `
const { spawnSync } = require('child_process');
const roots = new Set();
let buf = '';
const text = (b) => {
  b = b || Buffer.alloc(0);
  const s = b.subarray(0, 200).filter((x) => x === 0).length > 20 ? b.toString('utf16le') : b.toString('utf8');
  return s.replace(/^\\uFEFF/, '');
};
const run = (file, args) => spawnSync(file, args, { windowsHide: true, timeout: 30000, stdio: ['ignore', 'pipe', 'ignore'] });
const pairs = (r) => text(r.stdout).split(/\\r?\\n/).map((l) => l.trim().split(/\\s+/))
  .filter((n) => n.length === 2 && n.every((x) => /^\\d+$/.test(x))).map((n) => n.map(Number));
function table() {
  const w = pairs(run('wmic', ['process', 'get', 'ParentProcessId,ProcessId']));
  if (w.length) return w.map(([ppid, pid]) => ({ pid, ppid }));
  const p = run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', ${JSON.stringify(POWERSHELL_QUERY)}]);
  return pairs(p).map(([pid, ppid]) => ({ pid, ppid }));
}
function end() {
  let rows;
  for (const root of roots) {
    const tk = run('taskkill', ['/T', '/F', '/PID', String(root)]);
    if (tk.status === 0) continue;
    // A member still names its parent once the parent ended: the table read now finds the tree.
    rows = rows || table();
    const tree = new Set([root]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of rows) if (!tree.has(r.pid) && tree.has(r.ppid)) { tree.add(r.pid); grew = true; }
    }
    for (const pid of tree) { try { process.kill(pid); } catch {} }
  }
  process.exit(0);
}
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) {
    const [op, id] = buf.slice(0, i).trim().split(' ');
    const pid = Number(id);
    if (op === '+g') roots.add(pid);
    else if (op === '-g') roots.delete(pid);
  }
});
process.stdin.on('end', end);
process.stdin.on('error', end);
`;

export class ProcessGuard {
  private child: ChildProcess | undefined;
  private readonly groups = new Set<number>();
  private readonly marks = new Set<string>();
  private readonly pipes = new Set<number>();

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /** The watcher's process id, once it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Lists a process group (on Windows: the root of a process tree) to be ended if the host dies. */
  watchGroup(group: number): void {
    if (this.groups.has(group)) return;
    this.groups.add(group);
    this.send(`+g ${group}`);
  }

  /** The group is gone (or stopped): its id may be another's soon, so it is no longer signalled. */
  forgetGroup(group: number): void {
    if (this.groups.delete(group)) this.send(`-g ${group}`);
  }

  /** Lists a mark (see marked.ts): what carries it is stopped if the host dies (Linux). */
  watchMark(mark: string): void {
    if (this.platform === 'win32' || !/^[\w-]+$/.test(mark) || this.marks.has(mark)) return;
    this.marks.add(mark);
    this.send(`+m ${mark}`);
  }

  forgetMark(mark: string): void {
    if (this.marks.delete(mark)) this.send(`-m ${mark}`);
  }

  /** Lists pipes (by inode, see marked.ts): what still holds one is stopped if the host dies (Linux). */
  watchPipes(inodes: readonly number[]): void {
    if (this.platform !== 'linux') return;
    for (const i of inodes) {
      if (this.pipes.has(i)) continue;
      this.pipes.add(i);
      this.send(`+p ${i}`);
    }
  }

  forgetPipes(inodes: readonly number[]): void {
    for (const i of inodes) if (this.pipes.delete(i)) this.send(`-p ${i}`);
  }

  private send(line: string): void {
    const child = this.child ?? this.start();
    child?.stdin?.write(`${line}\n`);
  }

  /** Started on first need; started again (told of everything listed) if it died. */
  private start(): ChildProcess | undefined {
    let child: ChildProcess;
    try {
      child =
        this.platform === 'win32'
          ? spawn(process.execPath, ['-e', WINDOWS_WATCHER], {
              stdio: ['pipe', 'ignore', 'ignore'],
              detached: true,
              windowsHide: true,
              env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
            })
          : spawn('/bin/sh', ['-c', POSIX_WATCHER], {
              stdio: ['pipe', 'ignore', 'ignore'],
              detached: true,
              env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
            });
    } catch {
      return undefined;
    }
    // Neither the watcher nor its pipe keeps the host alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    child.stdin?.on('error', () => {});
    child.on('error', () => {});
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    this.child = child;
    for (const g of this.groups) child.stdin?.write(`+g ${g}\n`);
    for (const m of this.marks) child.stdin?.write(`+m ${m}\n`);
    for (const p of this.pipes) child.stdin?.write(`+p ${p}\n`);
    return child;
  }
}

/** The host's one guard. */
export const processGuard = new ProcessGuard();
