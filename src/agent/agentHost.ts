import { Emitter } from '../base/event';
import { Disposable, DisposableMap } from '../base/lifecycle';
import { sameLaunch } from './config';
import type { ClientHandlers } from './clientApp';
import { AgentConnection } from './connection';
import { AgentExited, CannotList, StartRefused } from './errors';
import { tagged, TraceHint, type Logger, type TraceLevel } from './log';
import type { Redactor } from './redact';
import type { Timeouts } from './timeouts';
import type { AgentConfig, ListPage } from './types';

/** Where one configured agent is in its life. */
export type AgentState =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'starting' }
  | { readonly kind: 'ready'; readonly connection: AgentConnection }
  /** `atStart`: it never got as far as answering `initialize` (a wrong command, a refused start). */
  | { readonly kind: 'failed'; readonly error: Error; readonly atStart?: boolean };

export interface AgentHostDeps {
  logger: Logger;
  clientInfo: { name: string; version: string };
  trace: () => TraceLevel;
  /** Builds the client-side handlers for this agent (permission bridge, fs, terminals). */
  handlers: (config: AgentConfig) => ClientHandlers;
  /** Asked before any process starts (workspace trust). False: the start fails with the reason. */
  mayStart?: (config: AgentConfig) => Promise<boolean>;
  /** Resolves `${secret:NAME}` in the launch at each start; the resolved values are redacted from the log. */
  prepare?: (config: AgentConfig) => Promise<{ config: AgentConfig; secrets: readonly string[] }>;
  timeouts?: Partial<Timeouts>;
  /** The window's values to hide, shared with its log; each connection adds its own. */
  redactor?: Redactor;
  /** First automatic restart delay (doubles per crash); tests shorten it. */
  restartBaseMs?: number;
}

const RESTART_BASE_MS = 1000;
const MAX_AUTO_RESTARTS = 3;
const CRASH_WINDOW_MS = 5 * 60_000;

/**
 * One configured agent: started on first need (`connect()`), shared by every folder and
 * panel of the window, stopped on dispose. It holds no work of its own; lists and chats ask
 * it for the connection and watch its state.
 */
export class AgentHost extends Disposable {
  private stateValue: AgentState = { kind: 'stopped' };
  private starting: Promise<AgentConnection> | undefined;
  private readonly stateEmitter = this.register(new Emitter<AgentState>());
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly logger: Logger;
  private generation = 0;
  private crashes: number[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last connection, kept after it failed: stopping the host still ends what is left of its process group. */
  private last: AgentConnection | undefined;

  constructor(
    readonly config: AgentConfig,
    private readonly deps: AgentHostDeps,
  ) {
    super();
    this.logger = tagged(deps.logger, config.id);
  }

  get state(): AgentState {
    return this.stateValue;
  }

  /** The agent refused a request for want of sign-in, and nothing has succeeded since. */
  get needsSignIn(): boolean {
    return this.connection?.needsSignIn === true;
  }

  /** The live connection, if there is one; never starts anything. */
  get connection(): AgentConnection | undefined {
    return this.stateValue.kind === 'ready' ? this.stateValue.connection : undefined;
  }

  private setState(s: AgentState): void {
    this.stateValue = s;
    this.stateEmitter.fire(s);
  }

  /** The running connection, starting the agent if it is not running. Concurrent calls share one start. */
  connect(): Promise<AgentConnection> {
    if (this.isDisposed) return Promise.reject(new StartRefused(`${this.config.name} was removed`));
    const live = this.connection;
    if (live?.isAlive) return Promise.resolve(live);
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /**
   * One page of `session/list`, starting the agent if needed. `CannotList`, before any request,
   * when the agent does not advertise listing.
   */
  async listSessions(params: { cwd: string; cursor?: string }, signal?: AbortSignal): Promise<ListPage> {
    const c = await this.connect();
    if (!c.features.list) throw new CannotList(this.config.name);
    return c.listSessions(params, signal);
  }

  private async start(): Promise<AgentConnection> {
    const generation = ++this.generation;
    this.setState({ kind: 'starting' });
    try {
      if (this.deps.mayStart && !(await this.deps.mayStart(this.config))) {
        throw new StartRefused(`${this.config.name} was not started: this workspace is not trusted.`);
      }
      const launch = this.deps.prepare ? await this.deps.prepare(this.config) : { config: this.config, secrets: [] };
      const connection = await AgentConnection.start({
        config: launch.config,
        secrets: launch.secrets,
        logger: this.logger,
        handlers: this.deps.handlers(this.config),
        clientInfo: this.deps.clientInfo,
        trace: this.deps.trace,
        timeouts: this.deps.timeouts,
        redactor: this.deps.redactor,
      });
      if (this.isDisposed || generation !== this.generation) {
        void connection.stop();
        throw new StartRefused(`${this.config.name} was stopped while starting`);
      }
      this.last = connection;
      // Heard even when the agent quit before this line ran (right after answering initialize).
      connection.onDidExit((e) => {
        if (this.connection === connection) {
          this.logger.error(`${e.message}${e.stderrTail ? `\nlast stderr lines:\n${e.stderrTail}` : ''}`);
          this.setState({ kind: 'failed', error: e });
          this.scheduleRestart();
        }
      });
      // Sign-in state is part of what the view shows: "needs sign-in" appears and clears here.
      connection.onDidChangeAuth(() => {
        if (this.connection === connection) this.stateEmitter.fire(this.stateValue);
      });
      this.setState({ kind: 'ready', connection });
      return connection;
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      if (generation === this.generation) {
        if (error instanceof AgentExited && error.stderrTail)
          this.logger.error(`last stderr lines:\n${error.stderrTail}`);
        this.setState({ kind: 'failed', error, atStart: true });
      }
      throw error;
    }
  }

  /**
   * An agent that died on its own is started again after 1, 2, then 4 s; after three crashes
   * within five minutes it stays stopped until the user restarts it (a Restart row and action).
   */
  private scheduleRestart(): void {
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < CRASH_WINDOW_MS);
    this.crashes.push(now);
    if (this.crashes.length > MAX_AUTO_RESTARTS) {
      this.logger.warn(
        `not restarting ${this.config.name} again: it stopped ${this.crashes.length} times in five minutes`,
      );
      return;
    }
    const delay = (this.deps.restartBaseMs ?? RESTART_BASE_MS) * 2 ** (this.crashes.length - 1);
    this.logger.info(`restarting ${this.config.name} in ${delay / 1000} s`);
    const generation = this.generation;
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (!this.isDisposed && generation === this.generation && this.stateValue.kind === 'failed')
        void this.connect().catch(() => {});
    }, delay);
  }

  /** Stops the process (if any) and forgets it; the next `connect()` starts a new one. */
  async stop(): Promise<void> {
    clearTimeout(this.restartTimer);
    this.generation++;
    const c = this.connection ?? this.last;
    this.last = undefined;
    this.starting = undefined;
    if (this.stateValue.kind !== 'stopped') this.setState({ kind: 'stopped' });
    await c?.stop();
  }

  async restart(): Promise<AgentConnection> {
    this.crashes = [];
    await this.stop();
    return this.connect();
  }

  override dispose(): void {
    clearTimeout(this.restartTimer);
    void this.stop();
    super.dispose();
  }
}

/** The hosts of every configured agent, kept in step with the settings. */
export class AgentRegistry extends Disposable {
  private readonly hosts = this.register(new DisposableMap<string, AgentHost>());
  private readonly changeEmitter = this.register(new Emitter<void>());
  /** Fires when agents are added, removed or replaced. */
  readonly onDidChangeAgents = this.changeEmitter.event;
  private readonly stateEmitter = this.register(new Emitter<AgentHost>());
  /** Fires when any agent's state changes. */
  readonly onDidChangeState = this.stateEmitter.event;
  private order: string[] = [];
  private defaultId = '';
  private readonly traceHint = new TraceHint();

  constructor(private readonly deps: AgentHostDeps) {
    super();
  }

  get all(): AgentHost[] {
    return this.order.map((id) => this.hosts.get(id)!).filter(Boolean);
  }

  get(id: string): AgentHost | undefined {
    return this.hosts.get(id);
  }

  /** `acp.defaultAgent` when it names a configured agent, else the first. */
  get default(): AgentHost | undefined {
    return this.hosts.get(this.defaultId) ?? this.all[0];
  }

  /**
   * Applies new settings: an agent whose launch changed restarts (only that one), a removed
   * one stops, a new one waits for its first use.
   */
  update(configs: readonly AgentConfig[], defaultId: string): void {
    this.defaultId = defaultId;
    // Settings changed: if acp.trace was just turned on, say how to make the channel show it.
    this.traceHint.check(this.deps.trace(), this.deps.logger);
    let changed = false;
    const next = new Set(configs.map((c) => c.id));
    for (const id of [...this.hosts.keys()]) {
      if (!next.has(id)) {
        this.hosts.deleteAndDispose(id);
        changed = true;
      }
    }
    for (const config of configs) {
      const old = this.hosts.get(config.id);
      if (old && sameLaunch(old.config, config)) continue;
      const wasRunning = old !== undefined && old.state.kind !== 'stopped';
      const host = new AgentHost(config, this.deps);
      host.onDidChangeState(() => this.stateEmitter.fire(host));
      this.hosts.set(config.id, host);
      if (wasRunning) void host.connect().catch(() => {});
      changed = true;
    }
    const order = configs.map((c) => c.id);
    if (order.join('\0') !== this.order.join('\0')) changed = true;
    this.order = order;
    if (changed) this.changeEmitter.fire();
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.all.map((h) => h.stop()));
  }
}
