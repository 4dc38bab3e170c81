import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { PassThrough, Readable, Writable } from 'node:stream';
import { Emitter } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import { AgentExited } from './errors';
import { processGuard } from './guard';
import { describeLaunch, planLaunch, spawnFailure, spawnPlanned, type LaunchPlan } from './launch';
import type { Logger } from './log';
import { MARK_VARIABLE, signalTraced, traceOf, type Trace } from './marked';
import { endWindowsTree, signalGroup } from './processTree';
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
 * One agent program, started in its own process group (on Windows: its own tree, ended with
 * taskkill): launchers such as `npx` run the real agent as a child, and stopping only the
 * launcher would leave the agent behind. How it is started is decided by `planLaunch` (on
 * Windows: found on PATH × PATHEXT, a `.cmd` shim made startable); a command that cannot start
 * fails through `exited` with the reason in words, never with a throw.
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
  private readonly trace: Trace;
  private readonly platform = process.platform;

  constructor(
    readonly config: AgentConfig,
    private readonly logger: Logger,
    cwd?: string,
    /** Masks known secrets in stderr lines before they are logged or kept. */
    private readonly redact: LineRedactor = asIs,
  ) {
    // Marked, so what it starts outside its group is found again (see marked.ts).
    const env = { ...process.env, ...config.env, [MARK_VARIABLE]: this.mark };
    const plan = planLaunch(config.command, config.args, { env, cwd });
    this.child = plan.ok ? startChild(plan, env, cwd) : notStarted(plan.why);
    if (plan.ok && plan.via !== 'direct') logger.info(`starts ${describeLaunch(plan)}`);
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null, spawnError?: string) => {
        if (this.exitInfo) return;
        this.flushStderr();
        this.exitInfo = new AgentExited(config.name, code, signal, this.stderrTail(), spawnError);
        resolve(this.exitInfo);
        this.exitEmitter.fire(this.exitInfo);
      };
      this.child.once('error', (err: NodeJS.ErrnoException) =>
        done(
          null,
          null,
          err instanceof NotStartedError ? err.message : spawnFailure(err, plan.ok ? plan.found : config.command, cwd),
        ),
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
    // If the host dies outright, the guard stops the group, what carries the mark or holds its pipes.
    this.trace = traceOf(this.child.pid, this.mark, [0, 1, 2]);
    if (this.child.pid !== undefined) {
      processGuard.watchGroup(this.child.pid);
      processGuard.watchMark(this.mark);
      processGuard.watchPipes(this.trace.pipes);
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
    if (this.platform === 'win32') {
      await this.endTree();
    } else {
      this.signal('SIGTERM');
    }
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

  /** Windows: taskkill /T /F while the root still lives (it walks the tree from it), else the table. */
  private async endTree(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) return;
    const end = await endWindowsTree(pid);
    if (end.ok) this.logger.info(`stopped the agent's process tree (${end.how})`);
    else this.logger.error(`could not stop the agent's whole process tree: ${end.how}`);
  }

  /** Nothing of it is left: the guard need not stop it. */
  private unguard(): void {
    const pid = this.child.pid;
    if (pid !== undefined) processGuard.forgetGroup(pid);
    processGuard.forgetMark(this.mark);
    processGuard.forgetPipes(this.trace.pipes);
  }

  /** The leader is gone: SIGTERM to the rest of its group, SIGKILL to what is left after the grace period. */
  private async endGroup(graceMs: number): Promise<void> {
    // On Windows the launcher's children still name it as their parent: the table finds them.
    if (this.platform === 'win32') return this.endTree();
    if (!this.groupExists()) return;
    this.signal('SIGTERM');
    const end = Date.now() + graceMs;
    while (this.groupExists() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    this.signal('SIGKILL');
  }

  private groupExists(): boolean {
    const pid = this.child.pid;
    if (pid === undefined || this.platform === 'win32') return false;
    try {
      process.kill(-pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  private signal(sig: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    // What the agent started outside its group (setsid) carries its mark or holds its pipes.
    void signalTraced(this.trace, sig);
    signalGroup(this.child, sig);
  }

  dispose(): void {
    void this.stop();
    this.exitEmitter.dispose();
  }
}

/** A command that could not be started, told as the process's 'error' (see {@link notStarted}). */
class NotStartedError extends Error {}

/**
 * Stands in for a child that could not be started (refused before spawning, or `spawn` threw):
 * its output ends at once and its 'error' says why, so every caller sees the failure the way it
 * sees a program that exits, and nothing throws out of the constructor.
 */
function notStarted(why: string): ChildProcess {
  const child = new EventEmitter() as EventEmitter & Partial<ChildProcess>;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  Object.assign(child, { stdin: new PassThrough(), stdout, stderr, pid: undefined, kill: () => false });
  setImmediate(() => {
    child.emit('error', new NotStartedError(why));
    stdout.end();
    stderr.end();
  });
  return child as ChildProcess;
}

function startChild(plan: LaunchPlan, env: NodeJS.ProcessEnv, cwd: string | undefined): ChildProcess {
  const started = spawnPlanned(plan, {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Own process group (POSIX), so stop() can signal the whole tree.
    detached: process.platform !== 'win32',
  });
  return 'child' in started ? started.child : notStarted(started.why);
}
