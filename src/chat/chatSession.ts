import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
} from '@agentclientprotocol/sdk';
import type { WriteConfirmation } from '../agent/confirmWrites';
import type { AgentConnection } from '../agent/connection';
import { AgentExited, AuthRequired, Cancelled } from '../agent/errors';
import { withTimeout } from '../agent/timeouts';
import type { AgentHost } from '../agent/agentHost';
import type { PinnedRoot } from '../agent/roots';
import { Emitter, type Event } from '../base/event';
import { Disposable, toDisposable, type IDisposable } from '../base/lifecycle';
import type { ThreadEntry } from '../protocol/entries';
import type { ChatCapabilities, HistoryState } from '../protocol/messages';
import type { TerminalOutputDelta } from '../protocol/terminalOutput';
import type { AgentSource } from './agentSource';
import { SessionAttachment, type ChatDeps } from './attachment';
import { Elicitations } from './elicitations';
import { PermissionRequests } from './permissions';
import { PromptQueue } from './promptQueue';
import type { ChatTarget, OpenMode } from './target';
import { TerminalViews } from './terminalViews';
import { Thread } from './thread';

/** What a chat session needs besides what its attachment needs. */
export interface ChatSessionDeps extends ChatDeps {
  /**
   * Runs before each prompt goes to the agent, and the prompt waits for it: the checkpoints of
   * the session's folders are taken here, so they hold the tree from before the agent's first
   * write. It bounds its own wait; a failure is logged and the prompt goes anyway.
   */
  beforePrompt?: (sessionId: string, prompt: string, session: ChatSession) => Promise<void>;
  /** Whether files can be restored to before a message (checkpoints are on). */
  canRestore?: () => boolean;
}

/** A request this client sent about a session outside a turn (see {@link ChatSession.onDidSend}). */
export type SentRequest = 'session/set_mode' | 'session/set_config_option';

/** The longest a close waits for its {@link ChatSession.onWillClose} work: the agent hears the close regardless. */
export const WILL_CLOSE_MS = 3_000;

/**
 * One open session: the conversation on it — prompts, cancel, permission requests, modes, config
 * options, terminal output — over its {@link SessionAttachment}, which keeps it attached to the
 * agent. No vscode here: the panel translates the thread and the capabilities.
 */
export class ChatSession extends Disposable {
  readonly thread: Thread;
  /** What the agent asked the user (`elicitation/create`), answered from the thread's cards. */
  readonly elicitations: Elicitations;
  /** Follow-ups written during a turn, sent one per turn when it ends. */
  readonly queue: PromptQueue;
  private readonly attachment: SessionAttachment;
  private prompting: AbortController | undefined;
  /** A prompt the agent refused for want of sign-in; it goes again once the chat can send. */
  private failedPrompt: string | undefined;
  private readonly permissions: PermissionRequests;
  private readonly terminals: TerminalViews;
  private readonly capsEmitter = this.register(new Emitter<void>());
  /** Fires when what the panel may offer changed. */
  readonly onDidChangeCapabilities = this.capsEmitter.event;
  private readonly attachEmitter = this.register(new Emitter<'new' | 'load' | 'resume'>());
  /** Fires when the session attached: created, loaded (the whole history is in the thread) or resumed. */
  readonly onDidAttach = this.attachEmitter.event;
  private readonly turnEmitter = this.register(new Emitter<void>());
  /** Fires when a prompt turn is over, however it ended. */
  readonly onDidEndTurn = this.turnEmitter.event;
  /** How long the turn that ended last ran, from its prompt to its end (ms). */
  lastTurnMs = 0;
  /** How long its turns ran before this window (as kept), and in this window (ms). */
  private activeBefore = 0;
  private activeHere = 0;
  private readonly sentEmitter = this.register(new Emitter<SentRequest>());
  /**
   * Fires once the agent answered a request this client sent about the session outside a turn
   * (a mode, a config option): an agent may count it as activity and move the session's time.
   */
  readonly onDidSend = this.sentEmitter.event;
  private readonly closeEmitter = this.register(new Emitter<void>());
  /** Fires once the agent answered `session/close` (or the session closed without it). */
  readonly onDidClose = this.closeEmitter.event;
  /** Work that runs before `session/close` is sent, which waits for it (see {@link onWillClose}). */
  private readonly beforeClose = new Set<() => Promise<void>>();

  constructor(
    agents: AgentSource | AgentHost,
    readonly target: ChatTarget,
    private readonly deps: ChatSessionDeps,
  ) {
    super();
    // What the thread logs quotes the agent: redacted with the connection's secrets (see `warn`).
    this.thread = this.register(new Thread({ log: (m) => this.attachment.warn(m) }));
    if (target.title) this.thread.updateMeta({ title: target.title });
    this.attachment = this.register(
      new SessionAttachment(agents, target, deps, this.thread, {
        turnRunning: () => this.prompting !== undefined,
        attached: (how) => {
          this.attachEmitter.fire(how);
          if (this.failedPrompt !== undefined) void this.resendFailedPrompt();
        },
        lost: () => {
          this.cancelRequests();
          if (this.prompting) this.thread.markInterrupted();
        },
        changed: () => this.capsEmitter.fire(),
      }),
    );
    this.permissions = new PermissionRequests(this.thread);
    this.terminals = this.register(new TerminalViews(this.thread));
    this.elicitations = this.register(new Elicitations(this.thread));
    this.queue = this.register(new PromptQueue());
  }

  /** Fires with the session id once a new session was created. */
  get onDidCreateSession(): Event<string> {
    return this.attachment.onDidCreateSession;
  }

  get sessionId(): string | undefined {
    return this.target.sessionId;
  }

  /** Whether the thread holds the history (loaded), was resumed without it, or is a new session. */
  get history(): HistoryState {
    return this.attachment.history;
  }

  /** The agent's host as configured now; undefined once the agent was removed from the settings. */
  get host(): AgentHost | undefined {
    return this.attachment.host;
  }

  /** The session's roots for the client's `fs/*` and terminals: the cwd and the directories sent. */
  get roots(): readonly string[] {
    return this.attachment.roots.all;
  }

  /** The roots the client's `fs/*` and terminals check against: pinned when the session attached. */
  get pinnedRoots(): readonly PinnedRoot[] {
    return this.attachment.roots.pinned;
  }

  /** The additional directories sent with the session (saved with the panel for a reload). */
  get sentDirectories(): string[] {
    return this.attachment.roots.directories;
  }

  private get connection(): AgentConnection | undefined {
    return this.attachment.connection;
  }

  get isPrompting(): boolean {
    return this.prompting !== undefined;
  }

  /** Permissions and elicitations waiting for the user. */
  get pendingRequests(): number {
    return this.permissions.size + this.elicitations.size;
  }

  /** Attaches the session (see {@link SessionAttachment.attach}). */
  attach(mode: OpenMode | 'new' = 'auto'): Promise<void> {
    return this.attachment.attach(mode);
  }

  /**
   * Shows a kept copy of the whole history (the session library's, known to be current) in the
   * empty thread, before the attach that resumes the session without a replay.
   */
  showKept(entries: readonly ThreadEntry[]): void {
    if (this.thread.entries.length > 0) return;
    this.thread.restore(entries);
    this.attachment.historyKept();
  }

  /**
   * Shows the kept copy of a session that nothing attaches (its agent no longer lists it, its
   * folder is gone): read-only, `why` said in the chat, nothing sent to the agent.
   */
  showReadOnly(entries: readonly ThreadEntry[], why: string): void {
    this.attachment.readOnly();
    if (this.thread.entries.length === 0) this.thread.restore(entries);
    this.thread.setStatus({ state: 'readOnly', message: why });
    this.capsEmitter.fire();
  }

  /** "Reload History from Agent": replays the whole history with `session/load`, unless a turn is running. */
  async reloadHistory(): Promise<void> {
    if (!this.prompting) await this.attachment.attach('load');
  }

  /** After a restart: attach again, with a divider at the seam. */
  reattach(): Promise<void> {
    return this.attachment.reattach();
  }

  /** The Restart Agent button: restarts this chat's agent and attaches again. */
  restartAgent(): Promise<void> {
    return this.attachment.restartAgent();
  }

  /** The status line's Cancel: stops the start, new, load or resume under way. */
  cancelLoad(): void {
    this.attachment.cancelLoad();
  }

  capabilities(): ChatCapabilities {
    const alive = this.connection?.isAlive === true;
    const attached =
      alive && this.sessionId !== undefined && !this.attachment.isLoading && this.thread.status.state !== 'error';
    return {
      canPrompt: attached && !this.prompting,
      canCancel: this.prompting !== undefined,
      canQueue: alive && this.prompting !== undefined,
      canSetMode: attached && (this.thread.meta.modes?.availableModes.length ?? 0) > 0,
      canSetConfig: attached && this.thread.meta.configOptions.length > 0,
      agentName: this.attachment.agentName,
      agentId: this.target.agentId,
      sessionId: this.sessionId ?? '',
      cwd: this.target.cwd,
      additionalDirectories: this.sentDirectories,
      history: this.attachment.history,
      canRestore: this.deps.canRestore?.() === true,
      ...(this.activeBefore + this.activeHere > 0 ? { activeMs: this.activeBefore + this.activeHere } : {}),
      canFork: this.connection?.features.fork === true,
      ...(this.thread.status.state === 'readOnly' ? { readOnly: this.thread.status.message } : {}),
    };
  }

  /** How long the session's turns ran before this window, as the library keeps it. */
  setActiveBefore(ms: number): void {
    if (!(ms >= 0) || ms === this.activeBefore) return;
    this.activeBefore = ms;
    this.capsEmitter.fire();
  }

  /** The banner's Retry (and what follows a sign-in): a prompt refused for want of sign-in goes again, else the attach. */
  retry(): Promise<void> {
    if (this.failedPrompt !== undefined && this.connection?.isAlive && !this.attachment.isAttaching)
      return this.resendFailedPrompt();
    return this.attachment.attachAgain();
  }

  /** "Open with history" on an open panel: replays the history into it, unless a turn is running. */
  async openWithHistory(): Promise<void> {
    if (!this.prompting) await this.attachment.openWithHistory();
  }

  /** Sends `text` now, or queues it while a turn runs (it goes when the turn ends). */
  async prompt(text: string): Promise<void> {
    if (this.prompting) {
      if (!this.queue.add(text)) throw new Error('Too many follow-ups are queued: send or remove some first.');
      return;
    }
    return this.send(text, true);
  }

  /** The user's "Send now" on a queued follow-up (no turn running): it goes, and the queue resumes. */
  async sendQueued(id: string): Promise<void> {
    if (this.prompting) return;
    const item = this.queue.take(id);
    if (item) await this.send(item.text, true);
  }

  /** After a turn that ended by itself, or an edit that held the queue: the next follow-up goes. */
  drainQueue(): void {
    if (
      this.prompting ||
      this.attachment.isAttaching ||
      this.attachment.closed ||
      !this.connection?.isAlive ||
      !this.sessionId
    )
      return;
    const next = this.queue.takeNext();
    if (next) void this.send(next.text, true).catch((e) => this.thread.addNotice('error', this.deps.describeError(e)));
  }

  private resendFailedPrompt(): Promise<void> {
    const text = this.failedPrompt;
    if (text === undefined || this.prompting) return Promise.resolve();
    this.thread.expectEcho();
    return this.send(text, false);
  }

  private async send(text: string, show: boolean): Promise<void> {
    const c = this.connection;
    const sessionId = this.sessionId;
    if (!c?.isAlive || !sessionId) throw new Error('This chat is not connected to its agent.');
    if (this.prompting) throw new Error('A turn is already running.');
    const abort = (this.prompting = new AbortController());
    const started = performance.now();
    this.failedPrompt = undefined;
    let ended = false;
    if (show) this.thread.addUserPrompt(text);
    this.thread.setStatus({ state: 'prompting' });
    this.capsEmitter.fire();
    try {
      await this.deps
        .beforePrompt?.(sessionId, text, this)
        .catch((e) => this.deps.logger.warn(`before the prompt: ${e instanceof Error ? e.message : String(e)}`));
      // Stop while it waited: the prompt never goes.
      if (this.stopped.has(abort)) throw new Cancelled('prompt');
      const response = await c.prompt({ sessionId, prompt: [{ type: 'text', text }] }, abort.signal);
      if (response.stopReason === 'cancelled') this.thread.markInterrupted(this.interruption(abort));
      else this.thread.markTurnEnded();
      ended = response.stopReason !== 'cancelled';
      if (
        response.stopReason === 'max_tokens' ||
        response.stopReason === 'max_turn_requests' ||
        response.stopReason === 'refusal'
      ) {
        this.thread.addNotice('warning', `The agent stopped: ${response.stopReason.replace(/_/g, ' ')}`);
      }
      this.thread.setStatus({ state: 'idle' });
    } catch (e) {
      this.cancelRequests();
      if (e instanceof AuthRequired) {
        // The turn never started: the prompt stays shown and goes again after signing in.
        this.failedPrompt = text;
        this.thread.markTurnEnded();
        this.thread.setStatus({ state: 'error', message: this.deps.describeError(e), canRetry: true, signIn: true });
        return;
      }
      this.thread.markInterrupted(this.interruption(abort));
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
      this.lastTurnMs = performance.now() - started;
      this.activeHere += this.lastTurnMs;
      // Stop, a failure or a lost agent keeps what is queued without sending it.
      if (!ended) this.queue.pause();
      this.capsEmitter.fire();
      this.turnEmitter.fire();
    }
    if (ended) this.drainQueue();
  }

  /** The turns the user stopped: their end reads "Stopped", not "Turn interrupted". */
  private readonly stopped = new WeakSet<AbortController>();

  private interruption(turn: AbortController): string {
    return this.stopped.has(turn) ? 'Stopped' : 'Turn interrupted';
  }

  /** `session/cancel`; the agent ends the turn with "cancelled" and answers pending permissions. */
  async cancel(): Promise<void> {
    if (!this.prompting || !this.sessionId) return;
    this.stopped.add(this.prompting);
    this.cancelRequests();
    await this.connection
      ?.cancel(this.sessionId)
      .catch((e) => this.deps.logger.warn(`session/cancel failed: ${String(e)}`));
  }

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
    return this.permissions.request(params, signal);
  }

  /** The client's own question before a write to a file that makes tools run code (see `confirmWrites.ts`). */
  confirmWrite(request: WriteConfirmation, signal: AbortSignal): Promise<boolean> {
    return this.permissions.confirmWrite(request, signal);
  }

  answerPermission(requestId: string, optionId: string | null): void {
    this.permissions.answer(requestId, optionId);
  }

  /** Answers every pending request of the agent (permissions and elicitations) with "cancelled". */
  private cancelRequests(): void {
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
  }

  async setMode(modeId: string): Promise<void> {
    if (!this.connection || !this.sessionId) return;
    await this.connection.setMode(this.sessionId, modeId);
    const modes = this.thread.meta.modes;
    if (modes) this.thread.updateMeta({ modes: { ...modes, currentModeId: modeId } });
    this.sentEmitter.fire('session/set_mode');
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    if (!this.connection || !this.sessionId) return;
    const result = (await this.connection.setConfigOption(this.sessionId, configId, value)) as {
      configOptions?: SessionConfigOption[];
    } | null;
    if (result && Array.isArray(result.configOptions)) this.thread.updateMeta({ configOptions: result.configOptions });
    this.sentEmitter.fire('session/set_config_option');
  }

  /**
   * Runs `fn` before `session/close` is sent (after a running turn was cancelled); the close
   * waits for it, at most {@link WILL_CLOSE_MS}. What the agent says of the session then is what
   * this client left it as.
   */
  onWillClose(fn: () => Promise<void>): IDisposable {
    this.beforeClose.add(fn);
    return toDisposable(() => this.beforeClose.delete(fn));
  }

  /**
   * The panel closed: pending permissions are answered "cancelled" and a running turn gets
   * `session/cancel`, both before `session/close` (see {@link SessionAttachment.detach}).
   */
  async close(): Promise<void> {
    if (this.attachment.closed) return;
    await this.attachment.detach(async () => {
      this.cancelRequests();
      if (this.prompting && this.connection?.isAlive) await this.cancel();
      const work = Promise.all([...this.beforeClose].map((fn) => fn().catch(() => {})));
      await withTimeout(work, WILL_CLOSE_MS, () => new Error('late')).catch(() => {});
    });
    this.closeEmitter.fire();
    this.dispose();
  }
}
