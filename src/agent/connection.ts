import {
  methods,
  type ClientConnection,
  type InitializeResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type NewSessionRequest,
  type NewSessionResponse,
  type PromptRequest,
  type PromptResponse,
  type ResumeSessionRequest,
  type ResumeSessionResponse,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk';
import { Emitter, type Event } from '../base/event';
import { Disposable, toDisposable } from '../base/lifecycle';
import { QuietTimer } from '../base/quietTimer';
import { signInMethods } from './auth';
import { readFeatures, type AgentFeatures } from './capabilities';
import { buildClientApp, type ClientHandlers } from './clientApp';
import { AgentExited, AgentTimedOut, AuthRequired, Cancelled, ProtocolError, toTypedError } from './errors';
import type { Logger, TraceLevel } from './log';
import { ExitWatch } from './exitWatch';
import { initialize } from './handshake';
import { AgentProcess } from './process';
import { Redactor, redactingLogger } from './redact';
import { DEFAULT_TIMEOUTS, delay, type Timeouts } from './timeouts';
import { UpdateRouter } from './router';
import type { AgentConfig, ListPage, ListParams } from './types';
import {
  validateConfigOptionResult,
  validateListResult,
  validateNewSessionResult,
  validateSetupResult,
  type Note,
} from './validate';
import { WireCounter, wireStream, type WireStats } from './wireTap';

/** What an agent's connection is started with (see `AgentConnection.start`). */
export interface ConnectOptions {
  config: AgentConfig;
  logger: Logger;
  handlers: ClientHandlers;
  clientInfo: { name: string; version: string };
  trace?: () => TraceLevel;
  timeouts?: Partial<Timeouts>;
  /** Where the process starts (the agent's cwd per session comes in each request). */
  cwd?: string;
  /** Values resolved from secret storage: the wire tap redacts them like `env` values. */
  secrets?: readonly string[];
  /**
   * Where the values to hide are kept: the window's, shared with the log channel, so the
   * connection's secrets are masked on every route to the log. A new one when absent.
   */
  redactor?: Redactor;
  /** Limits of the buffer for updates of sessions nobody opened yet (1,000 for 5 s); tests shorten them. */
  updateBuffer?: { max?: number; maxAgeMs?: number };
  /** Limits of the wire (bytes waiting for the agent, its requests answered at once); tests lower them. */
  wire?: { maxQueuedBytes?: number; maxRequestsInFlight?: number };
}

/** What `AgentConnection.start` has made by the time the agent answered `initialize`. */
interface ConnectionParts {
  router: UpdateRouter;
  config: AgentConfig;
  process: AgentProcess;
  conn: ClientConnection;
  counter: WireCounter;
  drops: Emitter<WireStats>;
  init: InitializeResponse;
  features: AgentFeatures;
  logger: Logger;
  timeouts: Timeouts;
  redactor: Redactor;
}

/**
 * One running agent and its ACP connection. Started by `AgentConnection.start`, which spawns
 * the process and completes `initialize`; every request after that goes through `call`, which
 * adds our timeouts, maps errors to the typed ones, and fails fast once the process is gone.
 */
export class AgentConnection extends Disposable {
  private readonly exit: ExitWatch;
  /** Fires once if the process ends while connected (not when we stop it), even for a late listener. */
  readonly onDidExit: Event<AgentExited>;
  private readonly authEmitter = this.register(new Emitter<boolean>());
  /** Fires when the agent starts or stops refusing requests for want of sign-in. */
  readonly onDidChangeAuth = this.authEmitter.event;
  private authNeeded = false;
  /** Fires when the agent sent something that was dropped (see {@link WireStats}). */
  readonly onDidDropInput: Event<WireStats>;
  private stopping = false;
  readonly timeouts: Timeouts;

  readonly router: UpdateRouter;
  readonly config: AgentConfig;
  readonly init: InitializeResponse;
  readonly features: AgentFeatures;
  private readonly process: AgentProcess;
  private readonly conn: ClientConnection;
  private readonly counter: WireCounter;
  private readonly logger: Logger;
  private readonly redactor: Redactor;

  private constructor(parts: ConnectionParts) {
    super();
    const { process, conn, config, logger } = parts;
    this.config = config;
    this.init = parts.init;
    this.features = parts.features;
    this.process = process;
    this.conn = conn;
    this.counter = parts.counter;
    this.logger = logger;
    this.timeouts = parts.timeouts;
    this.redactor = parts.redactor;
    this.router = this.register(parts.router);
    this.onDidDropInput = this.register(parts.drops).event;
    this.exit = this.register(new ExitWatch(process.exited, conn, config.name, logger, () => this.stopping));
    this.onDidExit = this.exit.onDidExit;
    this.register(toDisposable(() => void this.stop()));
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** What the agent sent that was dropped, by kind. */
  get stats(): WireStats {
    return this.counter.stats;
  }

  /** More values the log must never show (secrets resolved into MCP servers). */
  redactAlso(values: readonly string[]): void {
    this.redactor.add(values);
  }

  /** `s` with this connection's secrets masked, cut to `max` characters after that. */
  redact(s: string, max = Number.MAX_SAFE_INTEGER): string {
    return this.redactor.cut(s, max);
  }

  /** Every value the log hides: the agent's env, resolved secrets, MCP env and header values. */
  get secretValues(): readonly string[] {
    return this.redactor.secrets;
  }

  /** The last request failed with `AuthRequired` and nothing has succeeded since. */
  get needsSignIn(): boolean {
    return this.authNeeded;
  }

  private setAuthNeeded(v: boolean): void {
    if (this.authNeeded === v) return;
    this.authNeeded = v;
    this.authEmitter.fire(v);
  }

  get isAlive(): boolean {
    return !this.exit.ended && !this.process.hasExited;
  }

  static async start(opts: ConnectOptions): Promise<AgentConnection> {
    const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
    const { config, handlers } = opts;
    // Every env value is treated as a secret: none may reach the log, whatever its name.
    const redactor = opts.redactor ?? new Redactor();
    redactor.add([...Object.values(config.env), ...(opts.secrets ?? [])]);
    // Every line of this connection passes through the redactor, whatever wrote it.
    const logger = redactingLogger(opts.logger, redactor);
    logger.info(`starting ${config.command} ${config.args.join(' ')}`);
    const started = Date.now();
    const proc = new AgentProcess(config, logger, opts.cwd, redactor);
    const drops = new Emitter<WireStats>();
    const counter = new WireCounter(logger, (stats) => drops.fire({ ...stats }));
    const router = new UpdateRouter({
      onDrop: (n, line) => counter.count('droppedUpdates', line, n),
      bufferMax: opts.updateBuffer?.max,
      bufferMs: opts.updateBuffer?.maxAgeMs,
    });
    const { app, capabilities } = buildClientApp(opts.clientInfo.name, config, handlers, router);
    const stream = wireStream(proc.input, proc.output, {
      logger,
      trace: opts.trace ?? (() => 'off'),
      redactor,
      counter,
      ...opts.wire,
    });
    const conn = app.connect(stream);
    let init: InitializeResponse;
    try {
      init = await initialize(conn, proc, {
        agentName: config.name,
        capabilities,
        clientInfo: opts.clientInfo,
        timeoutMs: timeouts.initialize,
        redactor,
      });
    } catch (e) {
      router.dispose();
      drops.dispose();
      throw e;
    }
    const features = readFeatures(init);
    const connection = new AgentConnection({
      router,
      config,
      process: proc,
      conn,
      counter,
      drops,
      init,
      features,
      logger,
      timeouts,
      redactor,
    });
    // Terminals live as long as the agent process: its commands end with it.
    if (handlers.terminals) {
      const terminals = handlers.terminals;
      void proc.exited.then(() => terminals.dispose());
    }
    void conn.closed.then(() => {
      if (!connection.stopping && !proc.hasExited) {
        logger.error('the connection to the agent closed; stopping the process');
        void proc.stop();
      }
    });
    logger.info(
      `initialized in ${Date.now() - started} ms: ${features.agentName ?? config.name} ${features.agentVersion ?? ''} (pid ${proc.pid}) — ` +
        `load ${features.load}, list ${features.list}, resume ${features.resume}, close ${features.close}, delete ${features.delete}, ` +
        `title ${features.title}, archive ${features.archive}, fork ${features.fork}`,
    );
    return connection;
  }

  /**
   * Sends a request with our timeout. `idleFor` names a session whose updates reset the timer
   * (load and resume may stream for a long time; only silence is an error).
   */
  async call<T>(
    method: string,
    params: unknown,
    opts: { timeoutMs: number; signal?: AbortSignal; idleFor?: string },
  ): Promise<T> {
    if (this.exit.ended) throw this.exit.ended;
    if (this.process.hasExited) throw await this.exit.exited;
    if (opts.signal?.aborted) throw new Cancelled(method);
    const cancel = new AbortController();
    let timedOut = false;
    const quiet =
      opts.timeoutMs > 0
        ? new QuietTimer(opts.timeoutMs, () => {
            timedOut = true;
            cancel.abort(new AgentTimedOut(this.config.name, method, opts.timeoutMs));
          })
        : undefined;
    quiet?.touch();
    const activity = opts.idleFor
      ? this.router.onActivity((id) => {
          if (id === opts.idleFor) quiet?.touch();
        })
      : undefined;
    const onAbort = () => cancel.abort(new Cancelled(method));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const { rejected: exited, leave } = this.exit.wait();
    try {
      const request = this.conn.agent.request<T>(method, params, {
        cancellationSignal: cancel.signal,
        stopWaitingOnCancel: true,
      });
      const result = await Promise.race([request, exited]);
      if (method.startsWith('session/')) this.setAuthNeeded(false);
      return result;
    } catch (e) {
      if (timedOut) throw new AgentTimedOut(this.config.name, method, opts.timeoutMs);
      if (opts.signal?.aborted) throw new Cancelled(method);
      if (e instanceof AgentExited) throw e;
      if (this.process.hasExited) throw await this.exit.exited;
      if (this.conn.signal.aborted) {
        // The pipe closes a moment before the exit event: report the exit, with its stderr.
        const exit = await Promise.race([this.exit.exited, delay(2000)]);
        if (exit) throw exit;
      }
      const typed = toTypedError(this.config.name, method, e, this.redactor);
      if (typed instanceof AuthRequired) this.setAuthNeeded(true);
      throw typed;
    } finally {
      leave();
      quiet?.dispose();
      activity?.dispose();
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * `authenticate` with an agent-handled method. No timeout: the agent may open a browser and
   * wait for the user; the caller cancels. Terminal methods never come here (a protocol rule).
   */
  async authenticate(methodId: string, signal?: AbortSignal): Promise<void> {
    const method = this.features.authMethods.find((m) => m.id === methodId);
    // Also a method that names its terminal command in `_meta["terminal-auth"]`.
    if (method && signInMethods([method])[0]?.kind === 'terminal') {
      throw new ProtocolError(
        this.config.name,
        methods.agent.authenticate,
        'A terminal sign-in method is run in a terminal, not through authenticate.',
      );
    }
    await this.call(methods.agent.authenticate, { methodId }, { timeoutMs: 0, signal });
    this.setAuthNeeded(false);
  }

  /** `logout`, where the agent advertises `agentCapabilities.auth.logout`. */
  async logout(): Promise<void> {
    if (!this.features.logout)
      throw new ProtocolError(this.config.name, methods.agent.logout, 'This agent cannot sign out.');
    await this.call(methods.agent.logout, {}, { timeoutMs: this.timeouts.other });
  }

  /**
   * One page of `session/list`, checked field by field. `archived` goes out only to an agent
   * that advertises it ("Only send this when the Agent advertises" it); asking any other for
   * archived sessions is refused here.
   */
  async listSessions(params: ListParams, signal?: AbortSignal): Promise<ListPage> {
    const { archived, ...rest } = params;
    if (archived !== undefined && archived !== 'exclude' && !this.features.archive)
      throw new ProtocolError(
        this.config.name,
        methods.agent.session.list,
        'This agent cannot list archived sessions.',
      );
    const sent = archived !== undefined && this.features.archive ? params : rest;
    const result = await this.call<unknown>(methods.agent.session.list, sent, {
      timeoutMs: this.timeouts.list,
      signal,
    });
    const page = this.checked(methods.agent.session.list, () => validateListResult(result));
    if (page.dropped > 0) this.logger.warn(`session/list: dropped ${page.dropped} entries of the wrong shape`);
    if (page.pagingStopped) this.logger.warn(`session/list: ${page.pagingStopped}`);
    return page;
  }

  async newSession(params: NewSessionRequest, signal?: AbortSignal): Promise<NewSessionResponse> {
    const result = await this.call<unknown>(methods.agent.session.new, params, {
      timeoutMs: this.timeouts.newSession,
      signal,
    });
    return this.validated(methods.agent.session.new, (note) => validateNewSessionResult(result, note));
  }

  /** Register the session with `router` before calling: updates may precede the response. */
  async loadSession(params: LoadSessionRequest, signal?: AbortSignal): Promise<LoadSessionResponse> {
    const result = await this.call<unknown>(methods.agent.session.load, params, {
      timeoutMs: this.timeouts.setupIdle,
      signal,
      idleFor: params.sessionId,
    });
    const method = methods.agent.session.load;
    return this.validated(method, (note) => validateSetupResult<LoadSessionResponse>(method, result, note));
  }

  async resumeSession(params: ResumeSessionRequest, signal?: AbortSignal): Promise<ResumeSessionResponse> {
    const result = await this.call<unknown>(methods.agent.session.resume, params, {
      timeoutMs: this.timeouts.setupIdle,
      signal,
      idleFor: params.sessionId,
    });
    const method = methods.agent.session.resume;
    return this.validated(method, (note) => validateSetupResult<ResumeSessionResponse>(method, result, note));
  }

  /** No timeout: a turn can run for as long as the agent works; the user cancels. */
  async prompt(params: PromptRequest, signal?: AbortSignal): Promise<PromptResponse> {
    const result = await this.call<PromptResponse>(methods.agent.session.prompt, params, { timeoutMs: 0, signal });
    const stop = (result as { stopReason?: unknown } | null)?.stopReason;
    if (typeof stop !== 'string')
      throw new ProtocolError(this.config.name, methods.agent.session.prompt, 'session/prompt returned no stop reason');
    return result;
  }

  /** `session/cancel` is a notification: the prompt's response then says "cancelled". */
  async cancel(sessionId: string): Promise<void> {
    if (!this.isAlive) return;
    await this.conn.agent.notify(methods.agent.session.cancel, { sessionId });
  }

  async closeSession(sessionId: string): Promise<void> {
    if (!this.features.close) return;
    await this.call(methods.agent.session.close, { sessionId }, { timeoutMs: this.timeouts.other });
  }

  async deleteSession(sessionId: string): Promise<void> {
    if (!this.features.delete)
      throw new ProtocolError(this.config.name, methods.agent.session.delete, 'This agent cannot delete sessions.');
    await this.call(methods.agent.session.delete, { sessionId }, { timeoutMs: this.timeouts.other });
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.call(methods.agent.session.setMode, { sessionId, modeId }, { timeoutMs: this.timeouts.other });
  }

  /** A boolean goes as `{ type: "boolean", value }`: the schema's rule, which SDK-based agents enforce. */
  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<SetSessionConfigOptionResponse> {
    const method = methods.agent.session.setConfigOption;
    const params: SetSessionConfigOptionRequest =
      typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    const result = await this.call<unknown>(method, params, { timeoutMs: this.timeouts.other });
    return this.validated(method, (note) => validateConfigOptionResult(result, note));
  }

  /** Checks a result as the calls here do: a wrong shape is a `ProtocolError`, notes go to the log. */
  validated<T>(method: string, check: (note: Note) => T): T {
    return this.checked(method, () => check(this.note(method)));
  }

  /** Where the checks say what they dropped from a result. */
  private note(method: string): (line: string) => void {
    return (line) => this.logger.warn(`${method}: ${line}`);
  }

  private checked<T>(method: string, check: () => T): T {
    try {
      return check();
    } catch (e) {
      throw new ProtocolError(this.config.name, method, (e as Error).message);
    }
  }

  /** Stops the process (its whole group). Pending requests fail with `AgentExited`. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.conn.close();
    await this.process.stop();
  }
}
