import * as vscode from 'vscode';
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { Disposable, DisposableMap } from '../base/lifecycle';
import type { AgentRegistry } from '../agent/agentHost';
import type { WriteConfirmation } from '../agent/confirmWrites';
import type { Logger } from '../agent/log';
import type { PinnedRoot } from '../agent/roots';
import { ChatSession, type ChatDeps, type ChatTarget, type OpenMode } from '../chat/controller';
import type { TerminalOutputDelta } from '../protocol/terminalOutput';
import { readPanelTarget } from '../protocol/panelTarget';
import { normalizePath } from '../sessions/paths';
import { CHAT_VIEW_TYPE, ChatPanel } from './chatPanel';
import { DiffContents } from './diffContents';
import { describeError } from './errorText';
import type { OpenChats } from './sessionsTree';

const LAST_OPENED_KEY = 'acp.lastOpened';

/**
 * Every open chat panel, one per session: opening an open session reveals it. Also the bridge
 * for what the agent asks of a session (permissions, its roots) and the window's memory of
 * which session was opened last in each folder.
 */
export class ChatPanels extends Disposable implements OpenChats {
  private readonly panels = this.register(new DisposableMap<string, ChatPanel>());
  private readonly unnamed = new Set<ChatPanel>();
  private readonly openEmitter = this.register(new vscode.EventEmitter<{ agentId: string; sessionId: string }>());
  readonly onDidChangeOpen = this.openEmitter.event;
  private readonly createdEmitter = this.register(new vscode.EventEmitter<{ session: ChatSession }>());
  /** A session was created in this window (its list shows it at once). */
  readonly onDidCreateSession = this.createdEmitter.event;
  private readonly diffs = this.register(new DiffContents());
  private readonly closedEmitter = this.register(new vscode.EventEmitter<{ agentId: string; sessionId: string }>());
  /** A chat closed: what the session held on this side (terminals) can go. */
  readonly onDidCloseSession = this.closedEmitter.event;
  private readonly deps: ChatDeps;

  constructor(
    private readonly agents: AgentRegistry,
    private readonly extensionUri: vscode.Uri,
    private readonly state: vscode.Memento,
    private readonly logger: Logger,
    mcpServers: ChatDeps['mcpServers'] = () => [],
  ) {
    super();
    // Each chat reattaches by itself when its agent is back (see ChatSession).
    this.deps = { logger, mcpServers, describeError, workspaceFolders };
    this.register(
      vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => this.restore(panel, state),
      }),
    );
  }

  private key(agentId: string, sessionId: string): string {
    return `${agentId}\u0000${sessionId}`;
  }

  isOpen(agentId: string, sessionId: string): boolean {
    return this.panels.has(this.key(agentId, sessionId));
  }

  get(agentId: string, sessionId: string): ChatPanel | undefined {
    return this.panels.get(this.key(agentId, sessionId));
  }

  get all(): ChatPanel[] {
    return [...this.panels.values(), ...this.unnamed];
  }

  /** Opens (or reveals) the chat of a session, attaching it as `mode` says. */
  async open(target: ChatTarget, mode: OpenMode | 'new'): Promise<ChatPanel | undefined> {
    const host = this.agents.get(target.agentId);
    if (!host) {
      void vscode.window.showErrorMessage(`ACP: no agent "${target.agentId}" is configured.`);
      return undefined;
    }
    if (target.sessionId) {
      const existing = this.get(target.agentId, target.sessionId);
      if (existing) {
        existing.panel.reveal();
        // "Open with history" on a panel opened by resume: the history is replayed into it.
        if (mode === 'load') void existing.session.openWithHistory();
        return existing;
      }
    }
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      target.title ?? 'ACP Chat',
      vscode.ViewColumn.Active,
      {
        enableScripts: true,
        enableFindWidget: true,
        localResourceRoots: [
          vscode.Uri.joinPath(this.extensionUri, 'dist'),
          vscode.Uri.joinPath(this.extensionUri, 'media'),
        ],
      },
    );
    const chat = this.adopt(panel, new ChatSession(this.agents, target, this.deps));
    void chat.session.attach(mode);
    return chat;
  }

  /** After a window reload: the host has no thread, so the session is loaded again (resumed only when the agent cannot load). */
  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const target = readPanelTarget((state as { target?: unknown } | undefined)?.target);
    if (!target || !this.agents.get(target.agentId) || this.isOpen(target.agentId, target.sessionId)) {
      panel.dispose();
      return;
    }
    const chat = this.adopt(panel, new ChatSession(this.agents, target, this.deps));
    void chat.session.attach('load');
  }

  private adopt(panel: vscode.WebviewPanel, session: ChatSession): ChatPanel {
    const chat = new ChatPanel(panel, session, this.extensionUri, this.diffs, this.logger);
    const name = () => {
      const id = session.sessionId;
      if (!id) return;
      this.unnamed.delete(chat);
      this.panels.set(this.key(session.target.agentId, id), chat);
      this.openEmitter.fire({ agentId: session.target.agentId, sessionId: id });
      void this.state.update(lastOpenedKey(session.target.cwd), { agentId: session.target.agentId, sessionId: id });
    };
    if (session.sessionId) name();
    else this.unnamed.add(chat);
    session.onDidCreateSession(() => {
      name();
      this.createdEmitter.fire({ session });
    });
    panel.onDidDispose(() => {
      const id = session.sessionId;
      this.unnamed.delete(chat);
      if (id && this.panels.get(this.key(session.target.agentId, id)) === chat) {
        this.panels.deleteAndLeak(this.key(session.target.agentId, id));
        this.openEmitter.fire({ agentId: session.target.agentId, sessionId: id });
      }
      chat.dispose();
      void session.close().finally(() => {
        if (id) this.closedEmitter.fire({ agentId: session.target.agentId, sessionId: id });
      });
    });
    return chat;
  }

  /** The session this window last opened in a folder (however the agent spelled the folder's path). */
  lastOpened(cwd: string): { agentId: string; sessionId: string } | undefined {
    const v = this.state.get<{ agentId?: unknown; sessionId?: unknown }>(lastOpenedKey(cwd));
    return v && typeof v.agentId === 'string' && typeof v.sessionId === 'string'
      ? { agentId: v.agentId, sessionId: v.sessionId }
      : undefined;
  }

  private sessionFor(agentId: string, sessionId: string): ChatSession | undefined {
    return (
      this.get(agentId, sessionId)?.session ??
      [...this.unnamed].find((p) => p.session.sessionId === sessionId && p.session.target.agentId === agentId)?.session
    );
  }

  /** The agent asks for permission: the session's panel shows a card; no panel, no permission. */
  requestPermission(
    agentId: string,
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const session = this.sessionFor(agentId, params.sessionId);
    if (!session) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    return session.requestPermission(params, signal);
  }

  /** A write to a file that makes tools run code: the session's panel asks; no panel, no write. */
  confirmWrite(agentId: string, request: WriteConfirmation, signal: AbortSignal): Promise<boolean> {
    const session = this.sessionFor(agentId, request.sessionId);
    return session ? session.confirmWrite(request, signal) : Promise.resolve(false);
  }

  /**
   * The agent asks the user for input: the session's panel shows a card. Without a panel, or
   * for a request tied to no session (before any session exists), there is no one to ask.
   */
  elicit(agentId: string, params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    const sessionId = (params as { sessionId?: unknown }).sessionId;
    const session = typeof sessionId === 'string' ? this.sessionFor(agentId, sessionId) : undefined;
    if (!session) return Promise.resolve({ action: 'cancel' });
    return session.elicitations.request(params, signal);
  }

  /** A URL elicitation finished (`elicitation/complete` names no session: ask each chat of the agent). */
  completeElicitation(agentId: string, elicitationId: string): void {
    for (const chat of this.all) {
      if (chat.session.target.agentId === agentId && chat.session.elicitations.complete(elicitationId)) return;
    }
  }

  /** A session's roots: its cwd and the additional directories sent to the agent with it, pinned when it attached. */
  rootsFor(agentId: string, sessionId: string): readonly PinnedRoot[] | undefined {
    return this.sessionFor(agentId, sessionId)?.pinnedRoots;
  }

  /** After signing in, chats of that agent that failed (the banner's "Sign in to …") or lost their agent try again. */
  retryAfterSignIn(agentId: string): void {
    for (const chat of this.all) {
      const state = chat.session.thread.status.state;
      if (chat.session.target.agentId === agentId && (state === 'error' || state === 'disconnected'))
        void chat.session.retry();
    }
  }

  /** What a client-side terminal printed since the last call, for the chat of the session that created it. */
  terminalOutput(agentId: string, sessionId: string, terminalId: string, delta: TerminalOutputDelta): void {
    this.sessionFor(agentId, sessionId)?.showTerminalOutput(terminalId, delta);
  }

  /** The agent released a terminal: its chat forgets what it kept for it. */
  terminalReleased(agentId: string, sessionId: string, terminalId: string): void {
    this.sessionFor(agentId, sessionId)?.releaseTerminal(terminalId);
  }
}

/** Keyed by the folder's normalised path: the agent's spelling of a cwd may differ from the window's. */
function lastOpenedKey(cwd: string): string {
  return `${LAST_OPENED_KEY}:${normalizePath(cwd)}`;
}

/** The window's local folders: additional directories must lie inside one of them. */
function workspaceFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
