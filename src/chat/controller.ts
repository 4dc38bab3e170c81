import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
} from '@agentclientprotocol/sdk';
import { AgentExited, AuthRequired, Cancelled } from '../agent/errors';
import type { AgentHost } from '../agent/agentHost';
import type { ChatCapabilities } from '../protocol/messages';
import type { AgentSource } from './agentSource';
import { SessionAttachment, type ChatDeps, type ChatTarget } from './attachment';
import type { TerminalOutputDelta } from '../protocol/terminalOutput';
import { Elicitations } from './elicitations';
import { PermissionRequests } from './permissions';
import { PromptQueue } from './promptQueue';
import { TerminalViews } from './terminalViews';

export type { ChatDeps, ChatTarget, OpenMode } from './attachment';

/**
 * One open session: its attachment (see {@link SessionAttachment}) and the conversation on it —
 * prompts, cancel, permission requests, modes, config options, terminal output. No vscode
 * here: the panel translates the thread and the capabilities.
 */
export class ChatSession extends SessionAttachment {
  /** What the agent asked the user (`elicitation/create`), answered from the thread's cards. */
  readonly elicitations: Elicitations;
  /** Follow-ups written during a turn, sent one per turn when it ends. */
  readonly queue: PromptQueue;
  private prompting: AbortController | undefined;
  /** A prompt the agent refused for want of sign-in; it goes again once the chat can send. */
  private failedPrompt: string | undefined;
  private readonly permissions: PermissionRequests;
  private readonly terminals: TerminalViews;

  constructor(agents: AgentSource | AgentHost, target: ChatTarget, deps: ChatDeps) {
    super(agents, target, deps);
    this.permissions = new PermissionRequests(this.thread);
    this.terminals = this.register(new TerminalViews(this.thread));
    this.elicitations = this.register(new Elicitations(this.thread));
    this.queue = this.register(new PromptQueue());
  }

  get isPrompting(): boolean {
    return this.prompting !== undefined;
  }

  protected get turnRunning(): boolean {
    return this.prompting !== undefined;
  }

  capabilities(): ChatCapabilities {
    const alive = this.connection?.isAlive === true;
    const attached = alive && this.sessionId !== undefined && !this.loading && this.thread.status.state !== 'error';
    return {
      canPrompt: attached && !this.prompting,
      canCancel: this.prompting !== undefined,
      canQueue: alive && this.prompting !== undefined,
      canSetMode: attached && (this.thread.meta.modes?.availableModes.length ?? 0) > 0,
      canSetConfig: attached && this.thread.meta.configOptions.length > 0,
      agentName: this.agentName,
      agentId: this.target.agentId,
      sessionId: this.sessionId ?? '',
      cwd: this.target.cwd,
      additionalDirectories: this.sentDirectories,
      history: this.historyState,
    };
  }

  /** The banner's Retry (and what follows a sign-in): a prompt refused for want of sign-in goes again, else the attach. */
  retry(): Promise<void> {
    if (this.failedPrompt !== undefined && this.connection?.isAlive && !this.attaching)
      return this.resendFailedPrompt();
    return this.attachAgain();
  }

  override async openWithHistory(): Promise<void> {
    if (!this.prompting) await super.openWithHistory();
  }

  protected afterAttach(): void {
    if (this.failedPrompt !== undefined) void this.resendFailedPrompt();
  }

  protected agentLost(): void {
    this.cancelRequests();
    if (this.prompting) this.thread.markInterrupted();
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
    if (this.prompting || this.attaching || this.closed || !this.connection?.isAlive || !this.sessionId) return;
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
    this.failedPrompt = undefined;
    let ended = false;
    if (show) this.thread.addUserPrompt(text);
    this.thread.setStatus({ state: 'prompting' });
    this.capsEmitter.fire();
    try {
      const response = await c.prompt({ sessionId, prompt: [{ type: 'text', text }] }, abort.signal);
      if (response.stopReason === 'cancelled') this.thread.markInterrupted();
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
      // Stop, a failure or a lost agent keeps what is queued without sending it.
      if (!ended) this.queue.pause();
      this.capsEmitter.fire();
    }
    if (ended) this.drainQueue();
  }

  /** `session/cancel`; the agent ends the turn with "cancelled" and answers pending permissions. */
  async cancel(): Promise<void> {
    if (!this.prompting || !this.sessionId) return;
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
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    if (!this.connection || !this.sessionId) return;
    const result = (await this.connection.setConfigOption(this.sessionId, configId, value)) as {
      configOptions?: SessionConfigOption[];
    } | null;
    if (result && Array.isArray(result.configOptions)) this.thread.updateMeta({ configOptions: result.configOptions });
  }

  /**
   * The panel closed: pending permissions are answered "cancelled" and a running turn gets
   * `session/cancel`, both before `session/close` (see {@link SessionAttachment.detach}).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelRequests();
    if (this.prompting && this.connection?.isAlive) await this.cancel();
    await this.detach();
  }
}
