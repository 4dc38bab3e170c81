import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../agent/clientApp';
import type { WriteConfirmation } from '../agent/confirmWrites';
import type { PinnedRoot } from '../agent/roots';
import { sessionKey, type SessionKey } from '../agent/sessionKey';
import { Emitter } from '../base/event';
import { Disposable, type IDisposable } from '../base/lifecycle';
import type { TerminalOutputDelta } from '../protocol/terminalOutput';
import type { ChatSession } from './chatSession';

/** What the agent's client handlers ask of the open sessions of that agent. */
export type SessionHandlers = Pick<ClientHandlers, 'requestPermission' | 'elicit' | 'completeElicitation' | 'rootsFor'>;

/**
 * The chat sessions open in this window, keyed by (agent, session id), and the one place the
 * agent's requests about a session reach it: permissions, elicitations, roots and terminal
 * output. A request for a session no chat holds is answered "cancelled" (there is no one to
 * ask). A new session joins under its id once the agent created it. No vscode here: the UI
 * shows what this holds.
 */
export class OpenSessions extends Disposable {
  private readonly named = new Map<string, ChatSession>();
  /** Sessions the agent has not created yet (or whose creation was abandoned). */
  private readonly unnamed = new Set<ChatSession>();
  private readonly held = new Map<ChatSession, IDisposable>();
  private readonly openEmitter = this.register(new Emitter<SessionKey>());
  /** A session was opened or closed (its row's icon says so). */
  readonly onDidChangeOpen = this.openEmitter.event;
  private readonly createdEmitter = this.register(new Emitter<ChatSession>());
  /** A session was created in this window (its list shows it at once). */
  readonly onDidCreateSession = this.createdEmitter.event;
  private readonly closedEmitter = this.register(new Emitter<SessionKey>());
  /** A chat closed and its session was let go: what it held on this side (terminals) can go. */
  readonly onDidCloseSession = this.closedEmitter.event;

  /** Every session held, named or not yet. */
  get all(): ChatSession[] {
    return [...this.named.values(), ...this.unnamed];
  }

  get(agentId: string, sessionId: string): ChatSession | undefined {
    return this.named.get(sessionKey(agentId, sessionId));
  }

  isOpen(agentId: string, sessionId: string): boolean {
    return this.named.has(sessionKey(agentId, sessionId));
  }

  /** Holds a session until {@link close}; one without an id yet joins under it when the agent created it. */
  add(session: ChatSession): void {
    if (this.held.has(session)) return;
    this.held.set(
      session,
      session.onDidCreateSession(() => {
        this.name(session);
        this.createdEmitter.fire(session);
      }),
    );
    if (session.sessionId) this.name(session);
    else this.unnamed.add(session);
  }

  /** Lets a session go: the agent's requests about it are answered "cancelled" from now on. */
  remove(session: ChatSession): void {
    this.held.get(session)?.dispose();
    this.held.delete(session);
    this.unnamed.delete(session);
    const agentId = session.target.agentId;
    const id = session.sessionId;
    if (id && this.named.get(sessionKey(agentId, id)) === session) {
      this.named.delete(sessionKey(agentId, id));
      this.openEmitter.fire({ agentId, sessionId: id });
    }
  }

  /** The chat closed: the session leaves at once, then closes; `onDidCloseSession` fires once it has. */
  async close(session: ChatSession): Promise<void> {
    const id = session.sessionId;
    this.remove(session);
    try {
      await session.close();
    } finally {
      if (id) this.closedEmitter.fire({ agentId: session.target.agentId, sessionId: id });
    }
  }

  /** The handlers an agent's connection serves from this registry. */
  handlersFor(agentId: string): SessionHandlers {
    return {
      requestPermission: (params, signal) => this.requestPermission(agentId, params, signal),
      elicit: (params, signal) => this.elicit(agentId, params, signal),
      completeElicitation: ({ elicitationId }) => this.completeElicitation(agentId, elicitationId),
      rootsFor: (sessionId) => this.rootsFor(agentId, sessionId),
    };
  }

  /** The agent asks for permission: the session's chat shows a card; no chat, no permission. */
  requestPermission(
    agentId: string,
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const session = this.find(agentId, params.sessionId);
    if (!session) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    return session.requestPermission(params, signal);
  }

  /**
   * The agent asks the user for input: the session's chat shows a card. Without a chat, or for
   * a request tied to no session (before any session exists), there is no one to ask.
   */
  elicit(agentId: string, params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    const sessionId = (params as { sessionId?: unknown }).sessionId;
    const session = typeof sessionId === 'string' ? this.find(agentId, sessionId) : undefined;
    if (!session) return Promise.resolve({ action: 'cancel' });
    return session.elicitations.request(params, signal);
  }

  /** A URL elicitation finished (`elicitation/complete` names no session: ask each chat of the agent). */
  completeElicitation(agentId: string, elicitationId: string): void {
    for (const session of this.all) {
      if (session.target.agentId === agentId && session.elicitations.complete(elicitationId)) return;
    }
  }

  /**
   * A session's roots: its cwd and the additional directories sent with it, pinned when it
   * attached. None for a session no chat holds.
   */
  rootsFor(agentId: string, sessionId: string): readonly PinnedRoot[] | undefined {
    return this.find(agentId, sessionId)?.pinnedRoots;
  }

  /** A write to a file that makes tools run code: the session's chat asks; no chat, no write. */
  confirmWrite(agentId: string, request: WriteConfirmation, signal: AbortSignal): Promise<boolean> {
    const session = this.find(agentId, request.sessionId);
    return session ? session.confirmWrite(request, signal) : Promise.resolve(false);
  }

  /** What a client-side terminal printed since the last call, for the chat of the session that created it. */
  terminalOutput(agentId: string, sessionId: string, terminalId: string, delta: TerminalOutputDelta): void {
    this.find(agentId, sessionId)?.showTerminalOutput(terminalId, delta);
  }

  /** The agent released a terminal: its chat forgets what it kept for it. */
  terminalReleased(agentId: string, sessionId: string, terminalId: string): void {
    this.find(agentId, sessionId)?.releaseTerminal(terminalId);
  }

  /** After signing in, chats of that agent that failed (the banner's "Sign in to …") or lost their agent try again. */
  retryAfterSignIn(agentId: string): void {
    for (const session of this.all) {
      const state = session.thread.status.state;
      if (session.target.agentId === agentId && (state === 'error' || state === 'disconnected')) void session.retry();
    }
  }

  override dispose(): void {
    for (const subscription of this.held.values()) subscription.dispose();
    this.held.clear();
    super.dispose();
  }

  private name(session: ChatSession): void {
    const id = session.sessionId;
    if (!id) return;
    this.unnamed.delete(session);
    this.named.set(sessionKey(session.target.agentId, id), session);
    this.openEmitter.fire({ agentId: session.target.agentId, sessionId: id });
  }

  /** A named session, or one whose id arrived a moment before it was named. */
  private find(agentId: string, sessionId: string): ChatSession | undefined {
    return (
      this.get(agentId, sessionId) ??
      [...this.unnamed].find((s) => s.sessionId === sessionId && s.target.agentId === agentId)
    );
  }
}
