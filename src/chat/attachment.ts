import type { McpServer, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { AgentConnection } from '../agent/connection';
import { AgentExited, AuthRequired, Cancelled, StartRefused } from '../agent/errors';
import type { AgentHost } from '../agent/agentHost';
import type { Logger } from '../agent/log';
import type { LoadingPhase } from '../protocol/entries';
import type { HistoryState } from '../protocol/messages';
import { agentSource, type AgentSource } from './agentSource';
import { SessionRoots } from './roots';
import type { ChatTarget, OpenMode } from './target';
import type { Thread } from './thread';
import { ThreadRoute } from './threadRoute';

export interface ChatDeps {
  logger: Logger;
  /** MCP servers for every new, load and resume (they may need secrets read first). */
  mcpServers: (connection: AgentConnection) => McpServer[] | Promise<McpServer[]>;
  /** Turns an error into one sentence for the user (the UI's single message mapper). */
  describeError: (e: unknown) => string;
  /** The window's workspace folders; additional directories outside them are never sent. None when absent. */
  workspaceFolders?: () => readonly string[];
}

const LOAD_PROGRESS_EVERY = 500;
/** The longest log line about a session (what it quotes from the agent is cut after redaction). */
const LOG_LINE_MAX = 400;

/** What a chat says when the user cancelled its attach, by the phase it was in. */
const CANCELLED_TEXT: Record<LoadingPhase, string> = {
  connect: 'Cancelled while the agent was starting.',
  new: 'Starting the session was cancelled.',
  load: 'Loading the history was cancelled.',
  resume: 'Resuming the session was cancelled.',
};

/** The conversation on a session, as its attachment sees it. */
export interface AttachmentOwner {
  /** A prompt turn is running: its end, not a quiet spell, closes its messages. */
  turnRunning(): boolean;
  /** The session attached (`how`: created, loaded or resumed): the conversation may carry on what was refused before. */
  attached(how: 'new' | 'load' | 'resume'): void;
  /** The agent went away: a turn under way is over. */
  lost(): void;
  /** What the panel may offer changed. */
  changed(): void;
}

/**
 * A chat's hold on its session: attaches it (new, load or resume, gated by the agent's
 * capabilities), routes its updates into the thread, and survives the agent dying, restarting
 * or being replaced by new settings. The agent is looked up by id each time. One attach runs at
 * a time. A `ChatSession` holds one and carries the conversation.
 */
export class SessionAttachment extends Disposable {
  private readonly agents: AgentSource;
  private name: string;
  private historyState: HistoryState;
  private readonly route: ThreadRoute;
  private live: AgentConnection | undefined;
  /** The host `connection` came from: its crash or stop is this chat's loss. */
  private connectionHost: AgentHost | undefined;
  /** A connection a new, load or resume went out on: on close the agent hears the session is done. */
  private opened: AgentConnection | undefined;
  private loading: AbortController | undefined;
  private attaching: Promise<void> | undefined;
  private reattachWhenDone = false;
  /**
   * The last load did not finish (the agent died or failed in the middle of the replay): what the
   * thread holds is part of the history, so the next attach loads again rather than resuming.
   */
  private loadUnfinished = false;
  private lastAttach: OpenMode | 'new' = 'auto';
  private isClosed = false;
  /** Shows a kept copy only (see {@link readOnly}): nothing attaches. */
  private keptOnly = false;
  /** The roots the client's `fs/*` and terminals check against: set as a new, load or resume goes out. */
  readonly roots: SessionRoots;
  private readonly sessionEmitter = this.register(new Emitter<string>());
  /** Fires with the session id once a new session was created. */
  readonly onDidCreateSession = this.sessionEmitter.event;

  constructor(
    agents: AgentSource | AgentHost,
    readonly target: ChatTarget,
    private readonly deps: ChatDeps,
    private readonly thread: Thread,
    private readonly owner: AttachmentOwner,
  ) {
    super();
    this.agents = agentSource(agents);
    this.name = this.agents.get(target.agentId)?.config.name ?? target.agentId;
    this.historyState = target.sessionId ? 'resumed' : 'new';
    this.roots = new SessionRoots(target);
    this.register(this.agents.onDidChangeState((host) => this.onAgentState(host)));
    this.route = this.register(new ThreadRoute(thread, () => this.loading !== undefined || owner.turnRunning()));
  }

  /** The connection the session is attached on, while there is one. */
  get connection(): AgentConnection | undefined {
    return this.live;
  }

  /** The agent's name as configured when the chat last heard of it. */
  get agentName(): string {
    return this.name;
  }

  /** A start, new, load or resume is under way. */
  get isLoading(): boolean {
    return this.loading !== undefined;
  }

  /** An attach is under way (a second one would join it). */
  get isAttaching(): boolean {
    return this.attaching !== undefined;
  }

  /** The chat closed: nothing attaches any more. */
  get closed(): boolean {
    return this.isClosed;
  }

  get sessionId(): string | undefined {
    return this.target.sessionId;
  }

  get history(): HistoryState {
    return this.historyState;
  }

  /** The agent's host as configured now; undefined once the agent was removed from the settings. */
  get host(): AgentHost | undefined {
    return this.agents.get(this.target.agentId);
  }

  /**
   * Attaches the session. `auto` loads when the panel has no history and resumes when it has
   * (and the agent can resume); each mode falls back to the other when the agent lacks it.
   */
  attach(mode: OpenMode | 'new' = 'auto'): Promise<void> {
    return this.once(() => this.attachNow(mode));
  }

  /** Attaches again the way the last attach was asked for. */
  attachAgain(): Promise<void> {
    return this.attach(this.sessionId ? (this.lastAttach === 'new' ? 'auto' : this.lastAttach) : 'new');
  }

  /**
   * After a restart: attach again. Resume keeps what the panel shows; a load replaces it
   * (reset first, so nothing is duplicated). A divider marks the seam either way.
   */
  reattach(): Promise<void> {
    return this.once(async () => {
      const hadSession = this.sessionId !== undefined;
      await this.attachNow(hadSession ? 'auto' : 'new');
      if (hadSession && this.thread.status.state === 'idle' && !this.isClosed) this.thread.addDivider('Reconnected');
    });
  }

  /** The Restart Agent button: restarts this chat's agent and attaches again (joining the automatic reattach). */
  async restartAgent(): Promise<void> {
    const host = this.host;
    if (!host) return this.attach(this.lastAttach);
    await host.restart().catch(() => {});
    await this.reattach();
  }

  /** The thread shows a kept copy that nothing attaches: no start, new, load nor resume goes out. */
  readOnly(): void {
    this.keptOnly = true;
    this.historyState = 'loaded';
  }

  /** The thread shows a kept copy of the whole history (the session library's instant reopen). */
  historyKept(): void {
    this.historyState = 'loaded';
  }

  /** "Open with history" on an open panel: replays the history into it unless it holds it already. */
  async openWithHistory(): Promise<void> {
    if (this.historyState === 'loaded' || this.attaching || !this.sessionId) return;
    const c = this.live?.isAlive ? this.live : await this.host?.connect().catch(() => undefined);
    if (c?.features.load) await this.attach('load');
  }

  /** The status line's Cancel: stops the start, new, load or resume under way; a load keeps what arrived, marked partial. */
  cancelLoad(): void {
    this.loading?.abort();
  }

  // One attach at a time: the Restart button and the automatic reattach when the agent is ready
  // would otherwise load the history twice. A second caller joins the attach under way.
  private once(run: () => Promise<void>): Promise<void> {
    this.attaching ??= run().finally(() => {
      this.attaching = undefined;
      if (this.reattachWhenDone) {
        this.reattachWhenDone = false;
        if (this.thread.status.state === 'disconnected' && this.host?.state.kind === 'ready') void this.reattach();
      }
    });
    return this.attaching;
  }

  private async attachNow(mode: OpenMode | 'new'): Promise<void> {
    if (this.isClosed || this.keptOnly) return;
    this.lastAttach = mode;
    const abort = (this.loading = new AbortController());
    let phase: LoadingPhase = 'connect';
    let host: AgentHost | undefined;
    this.thread.setStatus({ state: 'loading', received: 0, phase });
    this.owner.changed();
    try {
      host = this.host;
      if (!host) throw this.removed();
      const connection = await host.connect();
      if (abort.signal.aborted) throw new Cancelled('start');
      this.live = connection;
      this.connectionHost = host;
      phase = !this.sessionId || mode === 'new' ? 'new' : this.chooseMethod(connection, mode);
      this.thread.setStatus({ state: 'loading', received: 0, phase });
      if (phase === 'new') await this.createSession(connection, abort.signal);
      else if (phase === 'load') await this.load(connection, abort.signal);
      else await this.resume(connection, abort.signal);
      this.thread.setStatus({ state: 'idle' });
      this.owner.attached(phase);
    } catch (e) {
      this.attachFailed(e, phase, host, abort.signal.aborted);
    } finally {
      if (this.loading === abort) this.loading = undefined;
      this.owner.changed();
    }
  }

  private attachFailed(e: unknown, phase: LoadingPhase, host: AgentHost | undefined, cancelled: boolean): void {
    if (this.isClosed) return;
    const current = this.host;
    if (!current) return this.onAgentLost(this.removed(), true);
    if (cancelled || e instanceof Cancelled) {
      // Only a load leaves something partial behind; the session stays routed, as the agent may
      // have loaded it anyway and a prompt's updates must reach this thread.
      if (phase === 'load' && this.thread.entries.length > 0) {
        this.loadUnfinished = false;
        this.thread.addDivider('History is partial: the load was cancelled');
        this.thread.setStatus({ state: 'idle' });
        return;
      }
      this.route.close();
      this.thread.setStatus({ state: 'error', message: CANCELLED_TEXT[phase], canRetry: true });
      return;
    }
    this.route.close();
    // A replay cut short: said where it stops, and loaded again at the next attach.
    if (phase === 'load' && this.loadUnfinished && this.thread.entries.length > 0)
      this.thread.addDivider(`History is partial: ${this.deps.describeError(e)}`, { retry: true });
    const dead = this.live;
    if ((e instanceof AgentExited && !e.spawnError) || (dead !== undefined && !dead.isAlive) || host !== current) {
      // The agent died (or new settings replaced it) under the attach: the chat attaches again
      // by itself once the agent is back, as after a crash in a turn.
      this.onAgentLost(e);
      const live = current.connection;
      if (live?.isAlive && live !== dead) this.reattachWhenDone = true;
      return;
    }
    const signIn = e instanceof AuthRequired;
    this.thread.setStatus({
      state: 'error',
      message: this.deps.describeError(e),
      canRetry: true,
      ...(signIn ? { signIn } : {}),
    });
  }

  private removed(): StartRefused {
    return new StartRefused(`${this.agentName} is no longer configured in "acp.agents": this chat cannot reach it.`);
  }

  private chooseMethod(c: AgentConnection, mode: OpenMode): 'load' | 'resume' {
    const { load, resume } = c.features;
    if (!load && !resume) throw new Error(`${this.agentName} can neither load nor resume sessions.`);
    if (mode === 'load') return load ? 'load' : 'resume';
    if (mode === 'resume') return resume ? 'resume' : 'load';
    // Part of a history is not the history: an unfinished load is made again, replacing it.
    const hasHistory = this.thread.entries.length > 0 && !this.loadUnfinished;
    if (hasHistory && resume) return 'resume';
    return load ? 'load' : 'resume';
  }

  /** The directories this request sends; they become the roots as it goes out. */
  private directories(c: AgentConnection): { additionalDirectories?: string[] } {
    this.opened = c;
    return this.roots.send(c.features.additionalDirectories, this.deps.workspaceFolders?.() ?? [], (line) =>
      this.warn(line),
    );
  }

  /**
   * A log line about this session. The session id and what the line quotes came from the agent:
   * they are redacted with the connection's secrets before anything cuts them.
   */
  warn(line: string): void {
    const text = `[${this.sessionId ?? 'new'}] ${line}`;
    this.deps.logger.warn(this.live ? this.live.redact(text, LOG_LINE_MAX) : text);
  }

  private async load(c: AgentConnection, signal: AbortSignal): Promise<void> {
    const sessionId = this.sessionId!;
    const mcpServers = await this.deps.mcpServers(c);
    if (signal.aborted) throw new Cancelled('session/load');
    this.thread.reset();
    this.loadUnfinished = true;
    let received = 0;
    this.route.open(c, sessionId, () => {
      if (++received % LOAD_PROGRESS_EVERY === 0 && this.loading)
        this.thread.setStatus({ state: 'loading', received, phase: 'load' });
    });
    const result = await c.loadSession({ sessionId, cwd: this.target.cwd, mcpServers, ...this.directories(c) }, signal);
    this.applySetup(result);
    this.thread.markTurnEnded();
    this.loadUnfinished = false;
    this.historyState = 'loaded';
  }

  private async resume(c: AgentConnection, signal: AbortSignal): Promise<void> {
    const sessionId = this.sessionId!;
    const mcpServers = await this.deps.mcpServers(c);
    if (signal.aborted) throw new Cancelled('session/resume');
    this.route.open(c, sessionId);
    const result = await c.resumeSession(
      { sessionId, cwd: this.target.cwd, mcpServers, ...this.directories(c) },
      signal,
    );
    this.applySetup(result);
    if (this.historyState === 'new') this.historyState = 'resumed';
  }

  private async createSession(c: AgentConnection, signal: AbortSignal): Promise<void> {
    const mcpServers = await this.deps.mcpServers(c);
    if (signal.aborted || this.isClosed) throw new Cancelled('session/new');
    const result = await c.newSession({ cwd: this.target.cwd, mcpServers, ...this.directories(c) }, signal);
    this.target.sessionId = result.sessionId;
    // Closed while the agent created it: `close()` waits for this and closes the session.
    if (this.isClosed) throw new Cancelled('session/new');
    // Updates sent before the response wait in the router's buffer and arrive here now.
    this.route.open(c, result.sessionId);
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

  private onAgentState(host: AgentHost): void {
    if (host.config.id !== this.target.agentId || this.isClosed) return;
    const state = host.state;
    if (host === this.connectionHost && this.live) {
      if (state.kind === 'failed' && !this.live.isAlive) this.onAgentLost(state.error);
      else if (state.kind === 'stopped') this.onAgentLost(this.stopReason(host), !this.host);
    }
    if (state.kind === 'ready' && host === this.host) {
      this.name = host.config.name;
      // After a restart (automatic or by the user) or new settings, a chat the agent dropped
      // attaches again; an attach under way finishes first.
      if (this.attaching) this.reattachWhenDone = true;
      else if (this.thread.status.state === 'disconnected') void this.reattach();
    }
    this.owner.changed();
  }

  private stopReason(host: AgentHost): Error {
    const current = this.host;
    if (!current) return this.removed();
    if (current !== host) return new Error(`${this.agentName}'s settings changed: reconnecting…`);
    return new Error(`${this.agentName} was stopped.`);
  }

  /** The agent went away: a removed agent is an error (nothing to restart), anything else waits for the agent to come back. */
  private onAgentLost(error: unknown, removed = false): void {
    this.live = undefined;
    this.connectionHost = undefined;
    this.route.close();
    this.owner.lost();
    if (removed) this.thread.setStatus({ state: 'error', message: this.deps.describeError(error), canRetry: true });
    else this.thread.setStatus({ state: 'disconnected', message: this.deps.describeError(error) });
  }

  /**
   * The panel closed: nothing attaches any more. First what the conversation settles (`settle`:
   * its pending requests answered, a running turn cancelled); then an attach under way stops (a
   * `session/new` already sent is waited for, to learn its id), and `session/close` goes out,
   * where the agent has it, for a session that was opened.
   */
  async detach(settle?: () => Promise<void>): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    // Closing waits for the agent; the user may open the session again in the meantime.
    this.route.giveWay();
    await settle?.();
    const status = this.thread.status;
    if (status.state !== 'loading' || status.phase !== 'new') this.loading?.abort();
    await this.attaching?.catch(() => {});
    const c = this.opened;
    const id = this.sessionId;
    if (c?.isAlive && id)
      await c.closeSession(id).catch((e) => this.deps.logger.warn(`session/close failed: ${String(e)}`));
    this.dispose();
  }
}
