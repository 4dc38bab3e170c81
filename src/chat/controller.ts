import type {
  McpServer,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  SessionModeState,
} from '@agentclientprotocol/sdk';
import { Emitter } from '../base/event';
import { Disposable, MutableDisposable, type IDisposable } from '../base/lifecycle';
import type { AgentConnection } from '../agent/connection';
import { AgentExited, Cancelled } from '../agent/errors';
import type { AgentHost } from '../agent/agentHost';
import type { Logger } from '../agent/log';
import type { ChatCapabilities, HistoryState } from '../protocol/messages';
import type { TerminalOutputDelta } from '../protocol/terminalOutput';
import { Elicitations } from './elicitations';
import { TerminalViews } from './terminalViews';
import { Thread } from './thread';

/** How a chosen session is opened (`acp.openMode`). */
export type OpenMode = 'auto' | 'load' | 'resume';

/** What a chat is about: an existing session, or a new one in a folder. */
export interface ChatTarget {
  readonly agentId: string;
  /** Absent for a session not created yet. */
  sessionId?: string;
  readonly cwd: string;
  /** Further roots: the other folders of a multi-root window, or what the session reported. */
  additionalDirectories?: readonly string[];
  title?: string;
}

export interface ChatDeps {
  logger: Logger;
  /** MCP servers for every new, load and resume (they may need secrets read first). */
  mcpServers: (connection: AgentConnection) => McpServer[] | Promise<McpServer[]>;
  /** Turns an error into one sentence for the user (the UI's single message mapper). */
  describeError: (e: unknown) => string;
}

const LOAD_PROGRESS_EVERY = 500;

/**
 * One open session: attaches it (new, load or resume, gated by the agent's capabilities),
 * feeds its updates into the thread, runs prompts and permission requests, and survives the
 * agent dying. No vscode here: the panel translates the thread and the capabilities.
 */
export class ChatSession extends Disposable {
  readonly thread: Thread;
  /** What the agent asked the user (`elicitation/create`), answered from the thread's cards. */
  readonly elicitations: Elicitations;
  private historyState: HistoryState;
  private readonly route = this.register(new MutableDisposable<IDisposable>());
  private connection: AgentConnection | undefined;
  private prompting: AbortController | undefined;
  private loading: AbortController | undefined;
  private lastAttach: OpenMode | 'new' = 'auto';
  private readonly permissions = new Map<string, (r: RequestPermissionResponse) => void>();
  private permissionSeq = 0;
  private readonly capsEmitter = this.register(new Emitter<void>());
  /** Fires when what the panel may offer changed. */
  readonly onDidChangeCapabilities = this.capsEmitter.event;
  private readonly sessionEmitter = this.register(new Emitter<string>());
  /** Fires with the session id once a new session was created. */
  readonly onDidCreateSession = this.sessionEmitter.event;

  constructor(
    readonly host: AgentHost,
    readonly target: ChatTarget,
    private readonly deps: ChatDeps,
  ) {
    super();
    this.thread = this.register(new Thread({ log: (m) => deps.logger.warn(`[${target.sessionId ?? 'new'}] ${m}`) }));
    this.terminals = this.register(new TerminalViews(this.thread));
    this.elicitations = this.register(new Elicitations(this.thread));
    this.historyState = target.sessionId ? 'resumed' : 'new';
    if (target.title) this.thread.updateMeta({ title: target.title });
    this.register(
      host.onDidChangeState((s) => {
        if (s.kind === 'failed' && this.connection && !this.connection.isAlive) this.onAgentLost(s.error);
        if (s.kind === 'stopped' && this.connection) this.onAgentLost(new Error(`${host.config.name} was stopped.`));
        this.capsEmitter.fire();
      }),
    );
  }

  get sessionId(): string | undefined {
    return this.target.sessionId;
  }

  get history(): HistoryState {
    return this.historyState;
  }

  get isPrompting(): boolean {
    return this.prompting !== undefined;
  }

  capabilities(): ChatCapabilities {
    const c = this.connection;
    const alive = c?.isAlive === true;
    const attached = alive && this.sessionId !== undefined && !this.loading && this.thread.status.state !== 'error';
    return {
      canPrompt: attached && !this.prompting,
      canCancel: this.prompting !== undefined,
      canSetMode: attached && (this.thread.meta.modes?.availableModes.length ?? 0) > 0,
      canSetConfig: attached && this.thread.meta.configOptions.length > 0,
      agentName: this.host.config.name,
      agentId: this.target.agentId,
      sessionId: this.sessionId ?? '',
      cwd: this.target.cwd,
      history: this.historyState,
    };
  }

  /**
   * Attaches the session. `auto` loads when the panel has no history and resumes when it has
   * (and the agent can resume); each mode falls back to the other when the agent lacks it.
   */
  async attach(mode: OpenMode | 'new' = 'auto'): Promise<void> {
    this.lastAttach = mode;
    this.thread.setStatus({ state: 'loading', received: 0 });
    this.capsEmitter.fire();
    try {
      const connection = await this.host.connect();
      this.connection = connection;
      if (!this.sessionId || mode === 'new') {
        await this.createSession(connection);
      } else {
        const method = this.chooseMethod(connection, mode);
        if (method === 'load') await this.load(connection);
        else await this.resume(connection);
      }
      this.thread.setStatus({ state: 'idle' });
    } catch (e) {
      if (e instanceof Cancelled && this.thread.entries.length > 0) {
        // The session stays routed: the agent may have loaded it anyway, and a prompt's updates
        // must reach this thread.
        this.thread.addDivider('History is partial: the load was cancelled');
        this.thread.setStatus({ state: 'idle' });
      } else {
        this.route.value = undefined;
        this.thread.setStatus({ state: 'error', message: this.deps.describeError(e), canRetry: true });
      }
    } finally {
      this.loading = undefined;
      this.capsEmitter.fire();
    }
  }

  /** Attaches again the way the last attach was asked for (the error banner's Retry). */
  retry(): Promise<void> {
    return this.attach(this.sessionId ? this.lastAttach === 'new' ? 'auto' : this.lastAttach : 'new');
  }

  private chooseMethod(c: AgentConnection, mode: OpenMode): 'load' | 'resume' {
    const { load, resume } = c.features;
    if (!load && !resume) throw new Error(`${this.host.config.name} can neither load nor resume sessions.`);
    if (mode === 'load') return load ? 'load' : 'resume';
    if (mode === 'resume') return resume ? 'resume' : 'load';
    const hasHistory = this.thread.entries.length > 0;
    if (hasHistory && resume) return 'resume';
    return load ? 'load' : 'resume';
  }

  private roots(c: AgentConnection): { additionalDirectories?: string[] } {
    const dirs = this.target.additionalDirectories ?? [];
    return c.features.additionalDirectories && dirs.length ? { additionalDirectories: [...dirs] } : {};
  }

  /** Agents may send updates before the response: the route is registered before the request. */
  private routeUpdates(c: AgentConnection, sessionId: string, onUpdate?: () => void): void {
    this.route.value = undefined;
    this.route.value = c.router.register(sessionId, (n) => {
      this.thread.apply(n.update);
      onUpdate?.();
    });
  }

  private async load(c: AgentConnection): Promise<void> {
    const sessionId = this.sessionId!;
    this.thread.reset();
    this.loading = new AbortController();
    let received = 0;
    this.routeUpdates(c, sessionId, () => {
      if (++received % LOAD_PROGRESS_EVERY === 0 && this.loading) this.thread.setStatus({ state: 'loading', received });
    });
    const result = await c.loadSession(
      { sessionId, cwd: this.target.cwd, mcpServers: await this.deps.mcpServers(c), ...this.roots(c) },
      this.loading.signal,
    );
    this.applySetup(result);
    this.thread.markTurnEnded();
    this.historyState = 'loaded';
  }

  private async resume(c: AgentConnection): Promise<void> {
    const sessionId = this.sessionId!;
    this.loading = new AbortController();
    this.routeUpdates(c, sessionId);
    const result = await c.resumeSession(
      { sessionId, cwd: this.target.cwd, mcpServers: await this.deps.mcpServers(c), ...this.roots(c) },
      this.loading.signal,
    );
    this.applySetup(result);
    if (this.historyState === 'new') this.historyState = 'resumed';
  }

  private async createSession(c: AgentConnection): Promise<void> {
    const result = await c.newSession({ cwd: this.target.cwd, mcpServers: await this.deps.mcpServers(c), ...this.roots(c) });
    this.target.sessionId = result.sessionId;
    // Updates sent before the response wait in the router's buffer and arrive here now.
    this.routeUpdates(c, result.sessionId);
    this.applySetup(result);
    this.historyState = 'new';
    this.sessionEmitter.fire(result.sessionId);
  }

  private applySetup(result: { modes?: SessionModeState | null; configOptions?: SessionConfigOption[] | null }): void {
    const patch: { modes?: SessionModeState; configOptions?: SessionConfigOption[] } = {};
    if (result.modes) patch.modes = result.modes;
    if (result.configOptions) patch.configOptions = result.configOptions;
    if (Object.keys(patch).length) this.thread.updateMeta(patch);
  }

  /** Stops a load in progress; what arrived stays, marked partial. */
  cancelLoad(): void {
    this.loading?.abort();
  }

  async prompt(text: string): Promise<void> {
    const c = this.connection;
    const sessionId = this.sessionId;
    if (!c?.isAlive || !sessionId) throw new Error('This chat is not connected to its agent.');
    if (this.prompting) throw new Error('A turn is already running.');
    const abort = (this.prompting = new AbortController());
    this.thread.addUserPrompt(text);
    this.thread.setStatus({ state: 'prompting' });
    this.capsEmitter.fire();
    try {
      const response = await c.prompt({ sessionId, prompt: [{ type: 'text', text }] }, abort.signal);
      if (response.stopReason === 'cancelled') this.thread.markInterrupted();
      else this.thread.markTurnEnded();
      if (response.stopReason === 'max_tokens' || response.stopReason === 'max_turn_requests' || response.stopReason === 'refusal') {
        this.thread.addNotice('warning', `The agent stopped: ${response.stopReason.replace(/_/g, ' ')}`);
      }
      this.thread.setStatus({ state: 'idle' });
    } catch (e) {
      this.cancelPermissions();
      this.thread.markInterrupted();
      if (e instanceof AgentExited || !c.isAlive) {
        this.thread.setStatus({ state: 'disconnected', message: this.deps.describeError(e) });
      } else if (e instanceof Cancelled) {
        this.thread.setStatus({ state: 'idle' });
      } else {
        this.thread.addNotice('error', this.deps.describeError(e));
        this.thread.setStatus({ state: 'idle' });
      }
    } finally {
      this.prompting = undefined;
      this.capsEmitter.fire();
    }
  }

  /** `session/cancel`; the agent ends the turn with "cancelled" and answers pending permissions. */
  async cancel(): Promise<void> {
    if (!this.prompting || !this.sessionId) return;
    this.cancelPermissions();
    await this.connection?.cancel(this.sessionId).catch((e) => this.deps.logger.warn(`session/cancel failed: ${String(e)}`));
  }

  private readonly terminals: TerminalViews;

  /**
   * Output of a client-side terminal the agent created for this session (what it printed since
   * the last call), shown under the tool call that embeds it.
   */
  showTerminalOutput(terminalId: string, delta: TerminalOutputDelta): void {
    this.terminals.show(terminalId, delta);
  }

  /** The agent released a terminal of this session: forget what was kept for it. */
  releaseTerminal(terminalId: string): void {
    this.terminals.release(terminalId);
  }

  /** Called by the permission bridge for this session's requests. */
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const requestId = `perm-${++this.permissionSeq}`;
    const title = params.toolCall.title ?? 'The agent asks for permission';
    this.thread.addPermission({ requestId, toolCallId: params.toolCall.toolCallId, title, options: params.options });
    return new Promise((resolve) => {
      const finish = (r: RequestPermissionResponse) => {
        this.permissions.delete(requestId);
        this.thread.resolvePermission(requestId, r.outcome.outcome === 'selected' ? { optionId: r.outcome.optionId } : 'cancelled');
        resolve(r);
      };
      this.permissions.set(requestId, finish);
      signal.addEventListener('abort', () => finish({ outcome: { outcome: 'cancelled' } }), { once: true });
    });
  }

  answerPermission(requestId: string, optionId: string | null): void {
    const finish = this.permissions.get(requestId);
    if (!finish) return;
    finish(optionId === null ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } });
  }

  /** Answers every pending request of the agent (permissions and elicitations) with "cancelled". */
  private cancelPermissions(): void {
    for (const finish of [...this.permissions.values()]) finish({ outcome: { outcome: 'cancelled' } });
    this.elicitations.cancelAll();
  }

  async setMode(modeId: string): Promise<void> {
    if (!this.connection || !this.sessionId) return;
    await this.connection.setMode(this.sessionId, modeId);
    const modes = this.thread.meta.modes;
    if (modes) this.thread.updateMeta({ modes: { ...modes, currentModeId: modeId } });
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    if (!this.connection || !this.sessionId) return;
    const result = (await this.connection.setConfigOption(this.sessionId, configId, value)) as { configOptions?: SessionConfigOption[] } | null;
    if (result && Array.isArray(result.configOptions)) this.thread.updateMeta({ configOptions: result.configOptions });
  }

  private onAgentLost(error: Error): void {
    const wasPrompting = this.prompting !== undefined;
    this.connection = undefined;
    this.route.value = undefined;
    this.cancelPermissions();
    if (wasPrompting) this.thread.markInterrupted();
    this.thread.setStatus({ state: 'disconnected', message: this.deps.describeError(error) });
  }

  /**
   * After a restart: attach again. Resume keeps what the panel shows; a load replaces it
   * (reset first, so nothing is duplicated). A divider marks the seam either way.
   */
  async reattach(): Promise<void> {
    if (!this.sessionId) return this.attach('new');
    await this.attach('auto');
    if (this.thread.status.state !== 'error') this.thread.addDivider('Reconnected');
  }

  /** The panel closed: cancel a running turn, then `session/close` where the agent has it. */
  async close(): Promise<void> {
    this.cancelPermissions();
    this.loading?.abort();
    const c = this.connection;
    const id = this.sessionId;
    if (c?.isAlive && id) {
      if (this.prompting) await this.cancel();
      await c.closeSession(id).catch((e) => this.deps.logger.warn(`session/close failed: ${String(e)}`));
    }
    this.dispose();
  }
}
