/**
 * No agent outlives the extension host that started it. Agents and terminal commands run in
 * process groups of their own (so a stop reaches what they started), which also means nothing
 * ends them when the host is killed outright: a crash, a force quit, the out-of-memory killer.
 * An agent that ignores the end of its input then lives on, never reaped.
 *
 * So one small watcher runs beside each host: a POSIX shell reading a pipe from the host, told
 * of each group (and mark, see marked.ts) as it starts and ends. When the pipe ends — the host is
 * gone, however it went — it signals every group still listed and every marked process: SIGTERM,
 * then SIGKILL two seconds later. It runs in a group of its own, so whatever kills the host's
 * group leaves it to do its work. It costs one `sh` process (about a megabyte), started with the
 * first agent; it does nothing but wait on its input.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { MARK_VARIABLE } from './marked';

const GRACE_SECONDS = 2;

/** The watcher's program: `+g`/`-g <group>` list and forget a group, `+m`/`-m <mark>` a mark. */
const SCRIPT = `
groups=' '
marks=' '
while read -r op id; do
  case "$op" in
    +g) groups="$groups$id " ;;
    -g) groups=$(printf '%s' "$groups" | sed "s/ $id / /g") ;;
    +m) marks="$marks$id " ;;
    -m) marks=$(printf '%s' "$marks" | sed "s/ $id / /g") ;;
  esac
done
marked() {
  for m in $marks; do
    grep -lsz "^${MARK_VARIABLE}=$m\\$" /proc/[0-9]*/environ 2>/dev/null | sed 's#^/proc/\\([0-9]*\\)/environ#\\1#'
  done
}
stop() {
  for g in $groups; do kill -s "$1" -- "-$g" 2>/dev/null; done
  for p in $(marked); do kill -s "$1" "$p" 2>/dev/null; done
}
stop TERM
sleep ${GRACE_SECONDS}
stop KILL
`;

export class ProcessGuard {
  private child: ChildProcess | undefined;
  private readonly groups = new Set<number>();
  private readonly marks = new Set<string>();

  /** The watcher's process id, once it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Lists a process group to be stopped if the host dies. */
  watchGroup(group: number): void {
    if (process.platform === 'win32' || this.groups.has(group)) return;
    this.groups.add(group);
    this.send(`+g ${group}`);
  }

  /** The group is gone (or stopped): its id may be another's soon, so it is no longer signalled. */
  forgetGroup(group: number): void {
    if (this.groups.delete(group)) this.send(`-g ${group}`);
  }

  /** Lists a mark (see marked.ts): what carries it is stopped if the host dies. */
  watchMark(mark: string): void {
    if (process.platform === 'win32' || !/^[\w-]+$/.test(mark) || this.marks.has(mark)) return;
    this.marks.add(mark);
    this.send(`+m ${mark}`);
  }

  forgetMark(mark: string): void {
    if (this.marks.delete(mark)) this.send(`-m ${mark}`);
  }

  private send(line: string): void {
    const child = this.child ?? this.start();
    child?.stdin?.write(`${line}\n`);
  }

  /** Started on first need; started again (told of everything listed) if it died. */
  private start(): ChildProcess | undefined {
    let child: ChildProcess;
    try {
      child = spawn('/bin/sh', ['-c', SCRIPT], {
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
    return child;
  }
}

/** The host's one guard. */
export const processGuard = new ProcessGuard();
