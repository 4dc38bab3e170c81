/**
 * The library's file is used by one process at a time: every window's worker holds this lock
 * for the length of each of its transactions. The lock is a directory, created whole with the
 * owner's name inside (made under a name of its own, then renamed into place: a rename either
 * takes the free name or fails, on POSIX file systems and on NTFS alike).
 *
 * A lock is broken only when its owner is gone: its process has ended, or its pid now names a
 * later process (Linux tells them apart by start time and boot), or it predates this boot. A
 * live owner keeps it however long it holds it (a window paused inside a transaction, a
 * starved worker, a laptop asleep): the others wait, and say who holds it. An owner on another
 * host cannot be checked and is never broken.
 *
 * Breaking renames the lock to a name only that owner's lock can take (its id), so that of
 * two processes breaking the same dead owner's lock at once, one moves it and the other's
 * rename finds that name taken, whatever holds the lock by then; the moved lock is then read
 * again, and put back should it not be the dead owner's after all.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../agent/processTree';

/** Who holds a lock. */
export interface LockOwner {
  host: string;
  pid: number;
  /** Tells this process from a later one given the same pid, where the system says (Linux). */
  start?: string;
  /** This hold's id: unique, so a lock is never taken for another. */
  id: string;
  /** When it was taken (milliseconds since the epoch). */
  at: number;
}

/** What a platform says of a process: whether it runs, and what tells it from a later one with its pid. */
export interface ProcessProbe {
  alive(pid: number): boolean;
  start(pid: number): string | undefined;
}

const OWNER = 'owner.json';
/** Leftovers of holds (moved-away locks, half-made ones) are removed once this old. */
const LEFTOVER_MS = 60 * 60_000;

export const systemProbe: ProcessProbe = {
  alive: processAlive,
  start(pid) {
    if (process.platform !== 'linux') return undefined;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The 22nd field, counted after the command name (which may hold spaces and parentheses).
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      return `${bootId()}:${ticks}`;
    } catch {
      return undefined;
    }
  },
};

let boot: string | undefined;
function bootId(): string {
  boot ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  return boot;
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

export class FileLock {
  private held: LockOwner | undefined;
  private readonly host = hostname();

  constructor(
    readonly path: string,
    private readonly probe: ProcessProbe = systemProbe,
    private readonly log: (message: string) => void = () => {},
  ) {}

  get isHeld(): boolean {
    return this.held !== undefined;
  }

  /** Takes the lock if it is free: true when this process holds it now. */
  tryTake(): boolean {
    const owner: LockOwner = {
      host: this.host,
      pid: process.pid,
      id: `${process.pid}-${randomBytes(6).toString('hex')}`,
      at: Date.now(),
    };
    const start = this.probe.start(process.pid);
    if (start !== undefined) owner.start = start;
    const made = `${this.path}.${owner.id}.new`;
    mkdirSync(made);
    try {
      writeFileSync(join(made, OWNER), JSON.stringify(owner));
      renameSync(made, this.path);
      this.held = owner;
      return true;
    } catch (e) {
      rmSync(made, { recursive: true, force: true });
      // Taken: the name holds a lock (which may be gone again by now).
      if (['EEXIST', 'ENOTEMPTY'].includes(code(e) ?? '')) return false;
      // Windows will not rename onto a folder (EPERM, EACCES), nor while a file in it is open.
      if (['EPERM', 'EACCES', 'EBUSY'].includes(code(e) ?? '') && this.exists()) return false;
      throw e;
    }
  }

  /** Who holds the lock now; undefined when it is free or was let go while reading. */
  holder(): LockOwner | undefined {
    return readOwner(this.path);
  }

  /**
   * Breaks the lock when its owner is gone. `free`: nobody holds it (now); `held`: a live
   * owner (or one that cannot be checked) holds it; `broken`: it was a dead owner's, now free.
   */
  breakIfGone(): 'free' | 'held' | 'broken' {
    const owner = this.holder();
    if (!owner) return this.exists() ? this.breakUnreadable() : 'free';
    if (!this.gone(owner)) return 'held';
    const grave = `${this.path}.${owner.id}.gone`;
    try {
      renameSync(this.path, grave);
    } catch {
      return 'free';
    }
    if (readOwner(grave)?.id !== owner.id) return this.putBack(grave);
    this.log(`The session library's lock was held by process ${owner.pid}, which is gone: it was removed.`);
    return 'broken';
  }

  /**
   * A lock whose owner cannot be read: one being made or let go at this moment, or (only a crash
   * of the whole system leaves one) a lock from before this boot, which is broken.
   */
  private breakUnreadable(): 'held' | 'broken' | 'free' {
    if (!this.predatesBoot(this.path)) return 'held';
    const grave = `${this.path}.${randomBytes(6).toString('hex')}.gone`;
    try {
      renameSync(this.path, grave);
    } catch {
      return 'free';
    }
    // Let go and taken again between the look and the rename: a live lock, put back.
    if (readOwner(grave) || !this.predatesBoot(grave)) return this.putBack(grave);
    this.log("The session library's lock from before the system started was removed.");
    return 'broken';
  }

  /** Puts back a lock moved away by mistake (it was let go and taken again meanwhile). */
  private putBack(grave: string): 'held' {
    try {
      renameSync(grave, this.path);
    } catch (e) {
      this.log(`The session library's lock could not be put back (${String(e)}).`);
    }
    return 'held';
  }

  /** Lets the lock go (it is moved away first, so its name is free at once and whole). */
  release(): void {
    const owner = this.held;
    if (!owner) return;
    this.held = undefined;
    if (this.holder()?.id !== owner.id) {
      this.log("The session library's lock was no longer this window's when it was let go.");
      return;
    }
    const old = `${this.path}.${owner.id}.old`;
    // Windows refuses to rename a folder while another process reads a file in it: a moment later it will not.
    for (let attempt = 0; ; attempt++) {
      try {
        renameSync(this.path, old);
        break;
      } catch (e) {
        if (attempt >= 50 || !['EPERM', 'EACCES', 'EBUSY'].includes(code(e) ?? '')) throw e;
        pause(Math.min(2 ** attempt, 20));
      }
    }
    rmSync(old, { recursive: true, force: true });
  }

  /** Removes what holds and breaks left behind (moved-away and half-made locks) an hour old or more. */
  removeLeftovers(now = Date.now()): void {
    const prefix = `${basename(this.path)}.`;
    for (const name of readdirSync(dirname(this.path))) {
      if (!name.startsWith(prefix) || !/\.(new|old|gone)$/.test(name)) continue;
      const path = join(dirname(this.path), name);
      try {
        if (now - statSync(path).mtimeMs >= LEFTOVER_MS) rmSync(path, { recursive: true, force: true });
      } catch {
        // Removed by another window meanwhile.
      }
    }
  }

  /** Whether the owner is gone: only one of this host can be checked. */
  private gone(owner: LockOwner): boolean {
    if (owner.host !== this.host) return false;
    if (owner.pid === process.pid) return false;
    if (!this.probe.alive(owner.pid)) return true;
    const start = owner.start === undefined ? undefined : this.probe.start(owner.pid);
    return start !== undefined && start !== owner.start;
  }

  private predatesBoot(path: string): boolean {
    try {
      return statSync(path).mtimeMs < Date.now() - uptime() * 1000 - 60_000;
    } catch {
      return false;
    }
  }

  private exists(): boolean {
    try {
      statSync(this.path);
      return true;
    } catch {
      return false;
    }
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(join(path, OWNER), 'utf8')) as LockOwner;
    return typeof o?.id === 'string' && typeof o.pid === 'number' && typeof o.host === 'string' ? o : undefined;
  } catch {
    return undefined;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread (the library's worker) for `ms`. */
export function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
