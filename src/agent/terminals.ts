import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { RequestError } from '@agentclientprotocol/sdk';
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  TerminalExitStatus,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import type { Event } from '../base/event';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import { ErrorCodes } from './errors';
import type { Logger } from './log';
import { processGuard } from './guard';
import { findProgram } from '../platform/programs';
import { spawnFailure, spawnPlanned } from './launch';
import { gated, MARK_VARIABLE, openGate, signalTraced, traceOf, type Trace } from './marked';
import { endWindowsTree, signalGroup, type TreeEnd } from './processTree';
import { resolveInRoots, type PinnedRoot } from './roots';
import { planCommand, type ShellSetting } from './shells';

/** Output kept per terminal when the agent gives no `outputByteLimit`, and the most it may ask for. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;
/** Commands running at once per agent process; each holds two pipes and a process. */
export const MAX_RUNNING_TERMINALS = 32;
/** Terminals kept per agent process, running or ended but not released (each keeps its output). */
export const MAX_KEPT_TERMINALS = 64;
/** How long past the grace period a kill waits for the command's end before it says it failed. */
const KILL_MARGIN_MS = 5000;

/** Names one terminal; every ACP `terminal/*` request has this shape. */
export interface TerminalRef {
  sessionId: string;
  terminalId: string;
}

/** A piece of a terminal's output, as it arrives (stdout and stderr interleaved). */
export interface TerminalOutputEvent extends TerminalRef {
  chunk: string;
}

/** A terminal's command ended. */
export interface TerminalExitEvent extends TerminalRef {
  exitStatus: TerminalExitStatus;
}

/** What {@link Terminals} needs from its owner. */
export interface TerminalsOptions {
  logger: Logger;
  /** Whether the agent may run commands in this session; allowed when absent. */
  allowTerminal?(sessionId: string): boolean;
  /** How long a command has to end after SIGTERM before SIGKILL; 2 s when absent. */
  killGraceMs?: number;
  /**
   * The most output kept per terminal, whatever `outputByteLimit` the agent asks for (it could
   * ask for a terabyte); {@link DEFAULT_OUTPUT_BYTE_LIMIT} when absent.
   */
  maxOutputBytes?: number;
  /** {@link MAX_RUNNING_TERMINALS} and {@link MAX_KEPT_TERMINALS} when absent; tests lower them. */
  maxRunning?: number;
  maxKept?: number;
  /** `acp.terminal.shell`: which shell runs shell lines on Windows; `auto` when absent. */
  shell?: () => ShellSetting;
  /** The system whose rules apply (tests of Windows' rules on another system only plan). */
  platform?: NodeJS.Platform;
}

interface Terminal extends TerminalRef {
  child: ChildProcess;
  /**
   * What finds its processes again (see marked.ts): its group, the mark in the environment of
   * everything it starts, its output pipes, which a child that left its group may still hold.
   */
  trace: Trace;
  /** The client ended it: on Windows, where no signal is seen, its exit still says it was killed. */
  killed: boolean;
  /** Output as decoded pieces, oldest first, with their UTF-8 sizes. */
  chunks: string[];
  sizes: number[];
  bytes: number;
  limit: number;
  truncated: boolean;
  exitStatus?: TerminalExitStatus;
  /** stdout and stderr are closed: nobody in the group holds them any more. */
  closed: boolean;
  exited: Promise<TerminalExitStatus>;
  killTimer?: NodeJS.Timeout;
  /** Windows: ending its tree. */
  ending?: Promise<TreeEnd | undefined>;
}

/**
 * The `terminal/*` methods an agent calls on the client. Each command runs in its own process
 * group, so a kill reaches what it started too; its output is kept up to a byte limit, the
 * oldest dropped first.
 */
export class Terminals extends Disposable {
  private readonly terminals = new Map<string, Terminal>();
  private readonly outputEmitter = this.register(new Emitter<TerminalOutputEvent>());
  private readonly exitEmitter = this.register(new Emitter<TerminalExitEvent>());
  private readonly graceMs: number;

  /** Live output, for a UI that shows the terminal as it runs. */
  readonly onOutput: Event<TerminalOutputEvent> = this.outputEmitter.event;
  /** A command ended (by itself or killed). */
  readonly onExit: Event<TerminalExitEvent> = this.exitEmitter.event;

  constructor(private readonly options: TerminalsOptions) {
    super();
    this.graceMs = options.killGraceMs ?? 2000;
  }

  /**
   * `terminal/create`: starts the command in `cwd` (which must be inside `roots`; the first
   * root when absent) and resolves once it is running. A command given without `args` that
   * reads as a shell line (pipes, quotes, spaces) runs through the shell.
   */
  async create(params: CreateTerminalRequest, roots: readonly PinnedRoot[]): Promise<CreateTerminalResponse> {
    if (this.isDisposed)
      throw new RequestError(ErrorCodes.InternalError, 'The client is shutting down; no terminal was created.');
    if (this.options.allowTerminal && !this.options.allowTerminal(params.sessionId)) {
      throw new RequestError(ErrorCodes.InvalidParams, 'Running commands is turned off for this session.');
    }
    if (typeof params.command !== 'string' || params.command.trim() === '') {
      throw new RequestError(ErrorCodes.InvalidParams, 'The command is empty.');
    }
    if (roots.length === 0)
      throw new RequestError(ErrorCodes.InvalidParams, 'The session has no root folder to run a command in.');
    this.checkRoom();
    // The first root's real path when none is given: a path resolveInRoots accepts as it is.
    const cwd = resolveInRoots(params.cwd ?? roots[0]!.real, roots);
    if (!statSync(cwd).isDirectory())
      throw new RequestError(ErrorCodes.InvalidParams, `The working directory "${params.cwd}" is not a folder.`);
    const asked = params.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT;
    if (!Number.isInteger(asked) || asked < 0) {
      throw new RequestError(
        ErrorCodes.InvalidParams,
        `"outputByteLimit" must be a whole number of bytes; got ${String(asked)}.`,
      );
    }
    // The agent's limit is a wish: memory is ours, so our own cap wins.
    const limit = Math.min(asked, this.options.maxOutputBytes ?? DEFAULT_OUTPUT_BYTE_LIMIT);

    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const v of params.env ?? []) env[v.name] = v.value;
    // Set last, so the agent cannot unset it: it finds what left the process group (see marked.ts).
    const mark = randomUUID();
    env[MARK_VARIABLE] = mark;
    const plan = planCommand(params.command, params.args ?? [], {
      env,
      cwd,
      platform: this.options.platform,
      shell: this.options.shell?.(),
    });
    // Linux: behind a gate until its pipes are read (see marked.ts). A program that cannot be
    // run is spawned as it is, so that the spawn's own error says why.
    const gate = process.platform === 'linux' && findProgram(plan.file, { env, cwd }) !== undefined;
    const started = spawnPlanned(gate ? { ...plan, ...gated(plan.file, plan.args) } : plan, {
      cwd,
      env,
      stdio: gate ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      // Its own process group on POSIX, so kill(-pid) reaches its children; on Windows
      // `detached` would open a console window instead.
      detached: process.platform !== 'win32',
    });
    if ('why' in started)
      throw new RequestError(ErrorCodes.InternalError, `Could not start "${params.command}": ${started.why}.`);
    const { child } = started;
    const shell = plan.shell;
    let resolveExit!: (status: TerminalExitStatus) => void;
    const terminal: Terminal = {
      sessionId: params.sessionId,
      terminalId: randomUUID(),
      trace: traceOf(child.pid, mark, [1, 2]),
      killed: false,
      child,
      chunks: [],
      sizes: [],
      bytes: 0,
      limit,
      truncated: false,
      closed: false,
      exited: new Promise((resolve) => (resolveExit = resolve)),
    };
    // Listening before the spawn settles, so not even a very short command's exit is missed.
    this.watch(terminal, resolveExit);
    // If the host dies outright, the guard stops the command's group and what carries its mark.
    if (child.pid !== undefined) processGuard.watchGroup(child.pid);
    processGuard.watchMark(mark);
    processGuard.watchPipes(terminal.trace.pipes);
    if (gate) openGate(child.stdio[3] as Writable | null);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          new RequestError(
            ErrorCodes.InternalError,
            `Could not start "${params.command}": ${spawnFailure(e, plan.found, cwd)}.`,
          ),
        ),
      );
    });
    const { terminalId } = terminal;
    if (this.isDisposed) {
      this.stop(terminal);
      throw new RequestError(ErrorCodes.InternalError, 'The client is shutting down; the command was stopped.');
    }
    this.terminals.set(terminalId, terminal);
    this.options.logger.debug(
      `terminal/create ${terminalId} pid=${child.pid} cwd=${cwd}${shell ? ` (${shell})` : ''}` +
        `${params.env?.length ? ` env: ${params.env.map((v) => v.name).join(', ')}` : ''}`,
    );
    return { terminalId };
  }

  /** `terminal/output`: what was kept of the output, and the exit status once it ended. */
  output(ref: TerminalRef): TerminalOutputResponse {
    const t = this.get(ref);
    const response: TerminalOutputResponse = { output: t.chunks.join(''), truncated: t.truncated };
    if (t.exitStatus) response.exitStatus = t.exitStatus;
    return response;
  }

  /** `terminal/wait_for_exit`: resolves when the command has ended. */
  async waitForExit(ref: TerminalRef): Promise<WaitForTerminalExitResponse> {
    const status = await this.get(ref).exited;
    return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
  }

  /**
   * `terminal/kill`: SIGTERM to the process group, SIGKILL after the grace period (on Windows:
   * the tree ended with taskkill, or member by member); resolves once it ended, and fails, rather
   * than waiting for ever or reporting success, when it could not be ended.
   */
  async kill(ref: TerminalRef): Promise<void> {
    const t = this.get(ref);
    this.options.logger.debug(`terminal/kill ${t.terminalId}`);
    const end = await this.stop(t);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.graceMs + KILL_MARGIN_MS);
    });
    const status = await Promise.race([t.exited, gaveUp]);
    clearTimeout(timer);
    if (!status)
      throw new RequestError(
        ErrorCodes.InternalError,
        `The command could not be stopped${end && !end.ok ? ` (${end.how})` : ''}; it may still be running.`,
      );
  }

  /** `terminal/release`: kills the command if it still runs and forgets the terminal. */
  release(ref: TerminalRef): void {
    const t = this.get(ref);
    this.options.logger.debug(`terminal/release ${t.terminalId}`);
    this.terminals.delete(t.terminalId);
    this.stop(t);
  }

  /** Releases every terminal of a session (the session closed). */
  releaseSession(sessionId: string): void {
    for (const t of [...this.terminals.values()]) {
      if (t.sessionId === sessionId) this.release(t);
    }
  }

  /** The ids of a session's terminals. */
  terminalsOf(sessionId: string): string[] {
    return [...this.terminals.values()].filter((t) => t.sessionId === sessionId).map((t) => t.terminalId);
  }

  /** Kills every command. */
  override dispose(): void {
    for (const t of this.terminals.values()) this.stop(t);
    this.terminals.clear();
    super.dispose();
  }

  /** A clear refusal when the agent already has as many terminals as it may. */
  private checkRoom(): void {
    const maxRunning = this.options.maxRunning ?? MAX_RUNNING_TERMINALS;
    const maxKept = this.options.maxKept ?? MAX_KEPT_TERMINALS;
    const running = [...this.terminals.values()].filter((t) => !t.exitStatus).length;
    if (running >= maxRunning)
      throw new RequestError(
        ErrorCodes.InvalidParams,
        `Too many terminals: ${running} commands are running, the most this client runs at once; kill or release one first.`,
      );
    if (this.terminals.size >= maxKept)
      throw new RequestError(
        ErrorCodes.InvalidParams,
        `Too many terminals: ${this.terminals.size} are kept (their output too), the most this client keeps; release the ones that ended first.`,
      );
  }

  private get(ref: TerminalRef): Terminal {
    const t = this.terminals.get(ref.terminalId);
    // A terminal belongs to the session that made it: another session's id is unknown here.
    if (!t || t.sessionId !== ref.sessionId) {
      throw new RequestError(
        ErrorCodes.ResourceNotFound,
        `Unknown terminal "${ref.terminalId}" in session "${ref.sessionId}" (never created, or already released).`,
        { terminalId: ref.terminalId },
      );
    }
    return t;
  }

  private watch(t: Terminal, resolve: (status: TerminalExitStatus) => void): void {
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')];
    const take = (i: number) => (data: Buffer) => this.append(t, decoders[i].write(data));
    t.child.stdout?.on('data', take(0));
    t.child.stderr?.on('data', take(1));
    // A ChildProcess without an 'error' listener throws; a failed spawn is reported by create().
    t.child.on('error', (e) => this.options.logger.debug(`terminal ${t.terminalId}: ${e.message}`));
    let settle: NodeJS.Timeout | undefined;
    const finish = () => {
      if (!t.exitStatus) return;
      clearTimeout(settle);
      resolve(t.exitStatus);
    };
    t.child.once('exit', (code, signal) => {
      // Windows ends a process with an exit code (taskkill /F: 1) and no signal: it was still killed.
      t.exitStatus =
        t.killed && signal === null && process.platform === 'win32'
          ? { exitCode: null, signal: 'SIGKILL' }
          : { exitCode: code, signal };
      this.exitEmitter.fire({ sessionId: t.sessionId, terminalId: t.terminalId, exitStatus: t.exitStatus });
      // Output still in the pipes arrives before 'close'; but a background child that keeps
      // them open must not hold the agent's wait forever.
      settle = setTimeout(finish, 200);
    });
    t.child.once('close', () => {
      t.closed = true;
      // Ended and its pipes closed: its group is gone, and its id may soon be another's.
      if (t.child.pid !== undefined) processGuard.forgetGroup(t.child.pid);
      processGuard.forgetPipes(t.trace.pipes);
      for (const d of decoders) this.append(t, d.end());
      finish();
    });
  }

  private append(t: Terminal, chunk: string): void {
    if (!chunk) return;
    const size = Buffer.byteLength(chunk, 'utf8');
    t.chunks.push(chunk);
    t.sizes.push(size);
    t.bytes += size;
    if (t.bytes > t.limit) dropOldest(t);
    this.outputEmitter.fire({ sessionId: t.sessionId, terminalId: t.terminalId, chunk });
  }

  /** Ends a command; on Windows resolves with how ending its tree went. */
  private stop(t: Terminal): Promise<TreeEnd | undefined> {
    if (t.killTimer) return t.ending ?? Promise.resolve(undefined);
    if (!t.exitStatus) t.killed = true;
    // Once the command ended and nobody holds its output pipes, its group is gone and its id
    // may belong to someone else: only what carries its mark or holds its pipes is signalled
    // (a child that left the group with setsid).
    const group = !(t.exitStatus && t.closed);
    const trace: Trace = group ? t.trace : { ...t.trace, group: undefined };
    if (process.platform === 'win32') {
      t.ending = group && t.child.pid !== undefined ? endWindowsTree(t.child.pid) : Promise.resolve(undefined);
      void t.ending.then((end) => {
        if (end && !end.ok) this.options.logger.warn(`terminal ${t.terminalId}: ${end.how}`);
      });
    } else {
      if (group) signalGroup(t.child, 'SIGTERM');
      void signalTraced(trace, 'SIGTERM');
    }
    t.killTimer = setTimeout(() => {
      if (group) signalGroup(t.child, 'SIGKILL');
      void signalTraced(trace, 'SIGKILL').then(() => processGuard.forgetMark(t.trace.mark));
    }, this.graceMs);
    // Not cleared when the leader ends: members of its group that ignore SIGTERM still get
    // SIGKILL. Harmless when the group is gone (ESRCH).
    t.killTimer.unref();
    return t.ending ?? Promise.resolve(undefined);
  }
}

/** Drops output from the start until it fits, cutting only at a character boundary. */
function dropOldest(t: Terminal): void {
  t.truncated = true;
  while (t.chunks.length && t.bytes - t.sizes[0] >= t.limit) {
    t.bytes -= t.sizes.shift()!;
    t.chunks.shift();
  }
  const excess = t.bytes - t.limit;
  if (excess <= 0 || !t.chunks.length) return;
  const first = Buffer.from(t.chunks[0], 'utf8');
  let cut = excess;
  // Continuation bytes are 0b10xxxxxx: step past them to the start of the next character.
  while (cut < first.length && (first[cut] & 0xc0) === 0x80) cut++;
  t.chunks[0] = first.toString('utf8', cut);
  t.sizes[0] = first.length - cut;
  t.bytes -= cut;
}
