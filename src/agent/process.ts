import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { Emitter } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import { AgentExited } from './errors';
import { processGuard } from './guard';
import type { Logger } from './log';
import { MARK_VARIABLE, signalMarked } from './marked';
import type { AgentConfig } from './types';

const STDERR_TAIL_LINES = 40;
/** The longest stderr line kept and logged; the rest of a longer line is dropped. */
const STDERR_LINE_MAX = 2000;
/** Text read past {@link STDERR_LINE_MAX} before a long line is logged: room for a secret to end. */
const STDERR_MARGIN = 4096;
const STOP_GRACE_MS = 2000;

/** Masks known secrets in a line cut to a length (see `Redactor.cut`). */
export interface LineRedactor {
  cut(s: string, max: number): string;
  readonly longest: number;
}

const asIs: LineRedactor = {
  cut: (s, max) => (s.length > max ? `${s.slice(0, max)}…` : s),
  longest: 0,
};

/**
 * One agent program, started in its own process group: launchers such as `npx` run the real
 * agent as a child, and stopping only the launcher would leave the agent behind.
 */
export class AgentProcess implements IDisposable {
  private readonly child: ChildProcess;
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  /** The head of a long line was logged; the rest of it, up to its line break, is dropped. */
  private stderrSkipping = false;
  private exitInfo: AgentExited | undefined;
  private readonly exitEmitter = new Emitter<AgentExited>();
  /** Fires once when the process is gone (or could not start). */
  readonly onDidExit = this.exitEmitter.event;
  readonly exited: Promise<AgentExited>;
  private stopping = false;
  /** Ending what is left of the group after the leader exited on its own. */
  private groupEnding: Promise<void> | undefined;
  private readonly mark = randomUUID();

  constructor(
    readonly config: AgentConfig,
    private readonly logger: Logger,
    cwd?: string,
    /** Masks known secrets in stderr lines before they are logged or kept. */
    private readonly redact: LineRedactor = asIs,
  ) {
    this.child = spawn(config.command, [...config.args], {
      cwd,
      // Marked, so what it starts outside its group is found again (see marked.ts).
      env: { ...process.env, ...config.env, [MARK_VARIABLE]: this.mark },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group (POSIX), so stop() can signal the whole tree.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null, spawnError?: string) => {
        if (this.exitInfo) return;
        this.flushStderr();
        this.exitInfo = new AgentExited(config.name, code, signal, this.stderrTail(), spawnError);
        resolve(this.exitInfo);
        this.exitEmitter.fire(this.exitInfo);
      };
      this.child.once('error', (err: NodeJS.ErrnoException) =>
        done(null, null, spawnFailure(err, config.command, cwd)),
      );
      this.child.once('exit', (code, signal) => {
        if (!this.stopping) {
          logger.warn(`agent process exited (code ${code ?? '-'}, signal ${signal ?? '-'})`);
          // A launcher (npx, a shell script) that dies leaves the real agent running in its group.
          this.groupEnding = this.endGroup(STOP_GRACE_MS);
          void this.groupEnding.then(() => this.unguard());
        }
        done(code, signal);
      });
    });
    // If the host dies outright, the guard stops the group and what carries the mark.
    if (this.child.pid !== undefined) {
      processGuard.watchGroup(this.child.pid);
      processGuard.watchMark(this.mark);
    }
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => this.onStderr(chunk));
    // A closed pipe on write raises EPIPE on the stream: the exit handler reports it.
    this.child.stdin?.on('error', () => {});
    this.child.stdout?.on('error', () => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** How it ended, once it has. */
  get exit(): AgentExited | undefined {
    return this.exitInfo;
  }

  /** The agent's stdout as a web stream of bytes (what the SDK reads). */
  get output(): ReadableStream<Uint8Array> {
    return Readable.toWeb(this.child.stdout!) as unknown as ReadableStream<Uint8Array>;
  }

  /** The agent's stdin as a web stream of bytes (what the SDK writes). */
  get input(): WritableStream<Uint8Array> {
    return Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>;
  }

  stderrTail(): string {
    return this.stderrLines.join('\n');
  }

  /**
   * Lines are logged whole or by their head: a line longer than what is shown is logged once its
   * head and enough text after it to finish any secret have arrived (so a secret split across
   * reads is still masked), and the rest of it is dropped.
   */
  private onStderr(chunk: string): void {
    const lines = (this.stderrPartial + chunk).split(/\r?\n/);
    this.stderrPartial = lines.pop() ?? '';
    if (this.stderrSkipping && lines.length > 0) {
      lines.shift();
      this.stderrSkipping = false;
    }
    for (const line of lines) this.pushStderr(line);
    if (this.stderrSkipping) this.stderrPartial = '';
    else if (this.stderrPartial.length > STDERR_LINE_MAX + Math.max(STDERR_MARGIN, this.redact.longest)) {
      this.pushStderr(this.stderrPartial);
      this.stderrPartial = '';
      this.stderrSkipping = true;
    }
  }

  private flushStderr(): void {
    if (this.stderrPartial) this.pushStderr(this.stderrPartial);
    this.stderrPartial = '';
  }

  private pushStderr(raw: string): void {
    const capped = this.redact.cut(raw, STDERR_LINE_MAX);
    this.stderrLines.push(capped);
    if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
    this.logger.info(`stderr: ${capped}`);
  }

  /**
   * SIGTERM to the process group, SIGKILL after a grace period; resolves when it is gone. The
   * group is signalled even when the leader has already exited: a launcher's child lives on.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopping = true;
    if (this.exitInfo) {
      await (this.groupEnding ??= this.endGroup(graceMs));
      return;
    }
    this.child.stdin?.end();
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
    // The leader is gone; make sure nothing of its group outlives it.
    this.signal('SIGKILL');
    this.unguard();
  }

  /** Nothing of it is left: the guard need not stop it. */
  private unguard(): void {
    const pid = this.child.pid;
    if (pid !== undefined) processGuard.forgetGroup(pid);
    processGuard.forgetMark(this.mark);
  }

  /** The leader is gone: SIGTERM to the rest of its group, SIGKILL to what is left after the grace period. */
  private async endGroup(graceMs: number): Promise<void> {
    if (!this.groupExists()) return;
    this.signal('SIGTERM');
    const end = Date.now() + graceMs;
    while (this.groupExists() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    this.signal('SIGKILL');
  }

  private groupExists(): boolean {
    const pid = this.child.pid;
    if (pid === undefined || process.platform === 'win32') return false;
    try {
      process.kill(-pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    // What the agent started outside its group (setsid) carries its mark.
    void signalMarked(this.mark, sig);
    try {
      if (process.platform === 'win32') this.child.kill(sig);
      else process.kill(-pid, sig);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  dispose(): void {
    void this.stop();
    this.exitEmitter.dispose();
  }
}

/** Why a command could not be spawned, in words (Node says only `spawn x ENOENT`). */
function spawnFailure(err: NodeJS.ErrnoException, command: string, cwd: string | undefined): string {
  // A missing working folder fails with ENOENT too, naming the command.
  if (cwd && !existsSync(cwd)) return `the folder "${cwd}" it is started in does not exist`;
  if (err.code === 'ENOENT') return `the command "${command}" was not found`;
  if (err.code === 'EACCES') return `the command "${command}" cannot be run (permission denied: is it executable?)`;
  return `the command "${command}" failed to start (${err.message})`;
}
