import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  MessageTooLargeError,
  type ClientCapabilities,
  type ClientConnection,
  type CompleteElicitationNotification,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type NewSessionRequest,
  type NewSessionResponse,
  type PromptRequest,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type ResumeSessionRequest,
  type ResumeSessionResponse,
} from '@agentclientprotocol/sdk';
import { Emitter } from '../base/event';
import { Disposable, toDisposable } from '../base/lifecycle';
import { readFeatures, type AgentFeatures } from './capabilities';
import { AgentExited, AgentTimedOut, AuthRequired, Cancelled, ErrorCodes, ProtocolError } from './errors';
import type { ClientFileSystem } from './fileSystem';
import type { Logger } from './log';
import { AgentProcess } from './process';
import { UpdateRouter } from './router';
import type { Terminals } from './terminals';
import type { AgentConfig, ListPage } from './types';
import {
  ShapeError,
  validateInitializeResult,
  validateListResult,
  validateNewSessionResult,
  validateSetupResult,
} from './validate';
import { tapStream, type TraceLevel, type WireStats } from './wireTap';

/** Our timeouts (the SDK has none). `0` means none: the user cancels. */
export interface Timeouts {
  initialize: number;
  list: number;
  newSession: number;
  /** For load and resume: the longest wait without any update for that session. */
  setupIdle: number;
  other: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  initialize: 30_000,
  list: 30_000,
  newSession: 60_000,
  setupIdle: 60_000,
  other: 30_000,
};

/** What the agent may ask of us. Absent parts are neither announced nor served. */
export interface ClientHandlers {
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  fs?: ClientFileSystem;
  terminals?: Terminals;
  /** A session's roots (cwd plus additional directories); terminals start only inside them. */
  rootsFor?: (sessionId: string) => readonly string[] | undefined;
  /** `elicitation/create` (forms and URLs); announced only when present. */
  elicit?(params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
  /** `elicitation/complete`: a URL elicitation finished. */
  completeElicitation?(params: CompleteElicitationNotification): void;
}

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
}

/**
 * One running agent and its ACP connection. Started by `AgentConnection.start`, which spawns
 * the process and completes `initialize`; every request after that goes through `call`, which
 * adds our timeouts, maps errors to the typed ones, and fails fast once the process is gone.
 */
export class AgentConnection extends Disposable {
  private readonly exitEmitter = this.register(new Emitter<AgentExited>());
  /** Fires once if the process ends while connected (not when we stop it). */
  readonly onDidExit = this.exitEmitter.event;
  private readonly authEmitter = this.register(new Emitter<boolean>());
  /** Fires when the agent starts or stops refusing requests for want of sign-in. */
  readonly onDidChangeAuth = this.authEmitter.event;
  private authNeeded = false;
  private readonly statsEmitter = this.register(new Emitter<WireStats>());
  /** Fires when the agent sent something the SDK dropped. */
  readonly onDidDropInput = this.statsEmitter.event;
  private stopping = false;
  private exitError: AgentExited | undefined;
  private readonly exitPromise: Promise<AgentExited>;
  readonly timeouts: Timeouts;

  private constructor(
    readonly router: UpdateRouter,
    readonly config: AgentConfig,
    private readonly process: AgentProcess,
    private readonly conn: ClientConnection,
    readonly stats: WireStats,
    readonly init: InitializeResponse,
    readonly features: AgentFeatures,
    private readonly logger: Logger,
    timeouts: Timeouts,
    private readonly redacted: string[],
  ) {
    super();
    this.register(router);
    this.timeouts = timeouts;
    this.exitPromise = process.exited.then((e) => {
      this.exitError = e;
      if (!this.stopping) this.exitEmitter.fire(e);
      return e;
    });
    this.register(toDisposable(() => void this.stop()));
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** More values the protocol trace must never show (secrets resolved into MCP servers). */
  redactAlso(values: readonly string[]): void {
    for (const v of values) if (!this.redacted.includes(v)) this.redacted.push(v);
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
    return !this.exitError && !this.process.hasExited;
  }

  static async start(opts: ConnectOptions): Promise<AgentConnection> {
    const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
    const { config, logger, handlers } = opts;
    logger.info(`starting ${config.command} ${config.args.join(' ')}`);
    const started = Date.now();
    const proc = new AgentProcess(config, logger, opts.cwd);
    const router = new UpdateRouter();
    const app = client({ name: opts.clientInfo.name });
    app.onNotification(methods.client.session.update, ({ params }) => router.dispatch(params));
    app.onRequest(methods.client.session.requestPermission, ({ params, signal }) => handlers.requestPermission(params, signal));
    // We can run the agent's own program in a VS Code terminal, so agents may offer terminal sign-in.
    // Announce only what renders: notices and config options show in the chat, elicitations
    // as cards (below); compaction does not, so it is not announced.
    const capabilities: ClientCapabilities = { terminal: false, auth: { terminal: true }, session: { notices: {}, configOptions: {} } };
    if (handlers.elicit) {
      const elicit = handlers.elicit;
      capabilities.elicitation = { form: {}, url: {} };
      app.onRequest(methods.client.elicitation.create, ({ params, signal }) => elicit(params, signal));
      app.onNotification(methods.client.elicitation.complete, ({ params }) => handlers.completeElicitation?.(params));
    }
    if (handlers.fs) {
      const fs = handlers.fs;
      capabilities.fs = { readTextFile: true, writeTextFile: config.allowFileWrites !== false };
      app.onRequest(methods.client.fs.readTextFile, ({ params }) => fs.readTextFile(params));
      app.onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
        await fs.writeTextFile(params);
        return {};
      });
    }
    if (handlers.terminals && config.allowTerminals !== false) {
      const t = handlers.terminals;
      capabilities.terminal = true;
      app.onRequest(methods.client.terminal.create, ({ params }) => {
        const roots = handlers.rootsFor?.(params.sessionId);
        if (!roots?.length) throw RequestError.invalidParams(undefined, `unknown session ${params.sessionId}`);
        return t.create(params, roots);
      });
      app.onRequest(methods.client.terminal.output, ({ params }) => t.output(params));
      app.onRequest(methods.client.terminal.waitForExit, ({ params }) => t.waitForExit(params));
      app.onRequest(methods.client.terminal.kill, async ({ params }) => {
        await t.kill(params);
        return {};
      });
      app.onRequest(methods.client.terminal.release, async ({ params }) => {
        await t.release(params);
        return {};
      });
    }

    const redacted = [...Object.values(config.env), ...(opts.secrets ?? [])];
    const tapped = tapStream(ndJsonStream(proc.input, proc.output), {
      logger,
      trace: opts.trace ?? (() => 'off'),
      secrets: redacted,
    });
    const conn = app.connect(tapped.stream);
    const failEarly = proc.exited.then((e) => {
      throw e;
    });
    failEarly.catch(() => {});
    let init: InitializeResponse;
    try {
      const request = conn.agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: capabilities,
        clientInfo: { name: opts.clientInfo.name, title: 'ACP Client for VS Code', version: opts.clientInfo.version },
      });
      init = validateInitializeResult(
        await withTimeout(Promise.race([request, failEarly]), timeouts.initialize, () => new AgentTimedOut(config.name, 'initialize', timeouts.initialize)),
      );
    } catch (e) {
      conn.close();
      router.dispose();
      await proc.stop(500);
      if (e instanceof AgentExited || e instanceof AgentTimedOut) throw e;
      if (e instanceof ShapeError) throw new ProtocolError(config.name, 'initialize', e.message);
      throw toTypedError(config.name, 'initialize', e);
    }
    const features = readFeatures(init);
    const connection = new AgentConnection(router, config, proc, conn, tapped.stats, init, features, logger, timeouts, redacted);
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
    conn.signal.addEventListener('abort', () => {
      const reason = conn.signal.reason;
      if (reason instanceof MessageTooLargeError) {
        logger.error(`the agent sent a message over ${reason.maxMessageBytes} bytes; the connection was closed`);
      }
    });
    logger.info(
      `initialized in ${Date.now() - started} ms: ${features.agentName ?? config.name} ${features.agentVersion ?? ''} (pid ${proc.pid}) — ` +
        `load ${features.load}, list ${features.list}, resume ${features.resume}, close ${features.close}, delete ${features.delete}`,
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
    if (this.exitError) throw this.exitError;
    if (this.process.hasExited) throw await this.exitPromise;
    if (opts.signal?.aborted) throw new Cancelled(method);
    const cancel = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (opts.timeoutMs <= 0) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        cancel.abort(new AgentTimedOut(this.config.name, method, opts.timeoutMs));
      }, opts.timeoutMs);
    };
    arm();
    const activity = opts.idleFor
      ? this.router.onActivity((id) => {
          if (id === opts.idleFor) arm();
        })
      : undefined;
    const onAbort = () => cancel.abort(new Cancelled(method));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const request = this.conn.agent.request<T>(method, params, { cancellationSignal: cancel.signal, stopWaitingOnCancel: true });
      const exited = this.exitPromise.then((e) => Promise.reject(e));
      const result = await Promise.race([request, exited]);
      if (method.startsWith('session/')) this.setAuthNeeded(false);
      return result;
    } catch (e) {
      if (timedOut) throw new AgentTimedOut(this.config.name, method, opts.timeoutMs);
      if (opts.signal?.aborted) throw new Cancelled(method);
      if (e instanceof AgentExited) throw e;
      if (this.process.hasExited) throw await this.exitPromise;
      if (this.conn.signal.aborted) {
        // The pipe closes a moment before the exit event: report the exit, with its stderr.
        const exit = await Promise.race([this.exitPromise, delay(2000)]);
        if (exit) throw exit;
      }
      const typed = toTypedError(this.config.name, method, e);
      if (typed instanceof AuthRequired) this.setAuthNeeded(true);
      throw typed;
    } finally {
      clearTimeout(timer);
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
    if (method && 'type' in method && method.type === 'terminal') {
      throw new ProtocolError(this.config.name, methods.agent.authenticate, 'A terminal sign-in method is run in a terminal, not through authenticate.');
    }
    await this.call(methods.agent.authenticate, { methodId }, { timeoutMs: 0, signal });
    this.setAuthNeeded(false);
  }

  /** `logout`, where the agent advertises `agentCapabilities.auth.logout`. */
  async logout(): Promise<void> {
    if (!this.features.logout) throw new ProtocolError(this.config.name, methods.agent.logout, 'This agent cannot sign out.');
    await this.call(methods.agent.logout, {}, { timeoutMs: this.timeouts.other });
  }

  /** One page of `session/list`, checked field by field. */
  async listSessions(params: { cwd?: string; cursor?: string }, signal?: AbortSignal): Promise<ListPage> {
    const result = await this.call<unknown>(methods.agent.session.list, params, { timeoutMs: this.timeouts.list, signal });
    try {
      const page = validateListResult(result);
      if (page.dropped > 0) this.logger.warn(`session/list: dropped ${page.dropped} entries of the wrong shape`);
      return page;
    } catch (e) {
      throw new ProtocolError(this.config.name, methods.agent.session.list, (e as Error).message);
    }
  }

  async newSession(params: NewSessionRequest, signal?: AbortSignal): Promise<NewSessionResponse> {
    const result = await this.call<unknown>(methods.agent.session.new, params, { timeoutMs: this.timeouts.newSession, signal });
    return this.checked(methods.agent.session.new, () => validateNewSessionResult(result));
  }

  /** Register the session with `router` before calling: updates may precede the response. */
  async loadSession(params: LoadSessionRequest, signal?: AbortSignal): Promise<LoadSessionResponse> {
    const result = await this.call<unknown>(methods.agent.session.load, params, {
      timeoutMs: this.timeouts.setupIdle,
      signal,
      idleFor: params.sessionId,
    });
    return this.checked(methods.agent.session.load, () => validateSetupResult<LoadSessionResponse>(methods.agent.session.load, result));
  }

  async resumeSession(params: ResumeSessionRequest, signal?: AbortSignal): Promise<ResumeSessionResponse> {
    const result = await this.call<unknown>(methods.agent.session.resume, params, {
      timeoutMs: this.timeouts.setupIdle,
      signal,
      idleFor: params.sessionId,
    });
    return this.checked(methods.agent.session.resume, () => validateSetupResult<ResumeSessionResponse>(methods.agent.session.resume, result));
  }

  /** No timeout: a turn can run for as long as the agent works; the user cancels. */
  async prompt(params: PromptRequest, signal?: AbortSignal): Promise<PromptResponse> {
    const result = await this.call<PromptResponse>(methods.agent.session.prompt, params, { timeoutMs: 0, signal });
    const stop = (result as { stopReason?: unknown } | null)?.stopReason;
    if (typeof stop !== 'string') throw new ProtocolError(this.config.name, methods.agent.session.prompt, 'session/prompt returned no stop reason');
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
    if (!this.features.delete) throw new ProtocolError(this.config.name, methods.agent.session.delete, 'This agent cannot delete sessions.');
    await this.call(methods.agent.session.delete, { sessionId }, { timeoutMs: this.timeouts.other });
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.call(methods.agent.session.setMode, { sessionId, modeId }, { timeoutMs: this.timeouts.other });
  }

  async setConfigOption(sessionId: string, configId: string, value: unknown): Promise<unknown> {
    // SetSessionConfigOptionRequest: a boolean value is tagged `type: "boolean"`; a select's value id is not.
    const params = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    return this.call(methods.agent.session.setConfigOption, params, { timeoutMs: this.timeouts.other });
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
    if (this.stopping) return this.process.exited.then(() => undefined);
    this.stopping = true;
    this.conn.close();
    await this.process.stop();
  }
}

const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(resolve, ms));

function withTimeout<T>(p: Promise<T>, ms: number, error: () => Error): Promise<T> {
  if (ms <= 0) return p;
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(error()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Maps what the SDK throws to our few typed errors. */
export function toTypedError(agentName: string, method: string, e: unknown): Error {
  if (e instanceof AgentExited || e instanceof AgentTimedOut || e instanceof Cancelled || e instanceof ProtocolError || e instanceof AuthRequired) return e;
  if (e instanceof RequestError) {
    if (e.code === ErrorCodes.AuthRequired) return new AuthRequired(agentName, e.message);
    if (e.code === ErrorCodes.RequestCancelled) return new Cancelled(method);
    return new ProtocolError(agentName, method, e.message || `${method} failed`, e.code, e.data);
  }
  if (e instanceof MessageTooLargeError) return new ProtocolError(agentName, method, `The agent sent a message over ${e.maxMessageBytes} bytes.`);
  return new ProtocolError(agentName, method, e instanceof Error ? e.message : String(e));
}
