import * as vscode from 'vscode';
import { Disposable, DisposableMap } from '../../base/lifecycle';
import type { Event } from '../../base/event';
import type { AgentRegistry } from '../../agent/agentHost';
import type { Logger } from '../../agent/log';
import { normalizePath } from '../../platform/pathKey';
import type { ChatDeps } from '../../chat/attachment';
import { ChatSession, type ChatSessionDeps } from '../../chat/chatSession';
import type { SessionKey } from '../../agent/sessionKey';
import type { OpenSessions } from '../../chat/openSessions';
import type { ChatTarget, OpenMode } from '../../chat/target';
import type { ThreadEntry } from '../../protocol/entries';
import { readPanelTarget } from '../../protocol/panelTarget';
import type { ChatStatuses } from '../../chat/status';
import type { SessionMarks } from '../../sessions/marks';
import { CHAT_VIEW_TYPE, ChatPanel, chatWebviewOptions, type OpenedAt } from './chatPanel';
import { renderFirstScreen } from '../../chat/firstScreen';
import { ChatWatch } from './chatWatch';
import { DiffContents } from './diffContents';
import { setContext } from '../contextKeys';
import { describeError } from '../../app/errorText';
import { noSuchAgent } from '../messages';
import type { TranscriptKeeper } from '../../app/transcriptKeeper';
import type { OpenChats } from '../sessionsView/sessionsTree';
import { noteStep } from '../../base/steps';

const LAST_OPENED_KEY = 'acp.lastOpened';
/**
 * How long a chat opened on a search hit waits for the hit's message (one row of the library,
 * read in its reading thread) to paint it first; past this, the panel opens without it. Worth a
 * wait: the page shows the message about as long after the panel is made as the workbench takes
 * to start a webview, where the chat itself shows it only once its script, thread and find bar
 * ran (bench 11: 250 ms against 600 ms and more).
 */
const FIRST_SCREEN_WAIT_MS = 250;
const DRAFT_KEY = 'acp.draft';

/**
 * The chat panels of the window, one per open session: opening an open session reveals it. The
 * sessions themselves are held by {@link OpenSessions}, which the agent's requests reach; this
 * shows them, and remembers which session was opened last in each folder.
 */
export class ChatPanels extends Disposable implements OpenChats {
  private readonly prepareCheckpoints: ((session: ChatSession) => void) | undefined;
  private readonly panels = this.register(new DisposableMap<ChatSession, ChatPanel>());
  /** A session's chat opened or closed. */
  readonly onDidChangeOpen: Event<SessionKey>;
  private readonly diffs = this.register(new DiffContents());
  private readonly deps: ChatSessionDeps;

  constructor(
    private readonly agents: AgentRegistry,
    private readonly sessions: OpenSessions,
    private readonly extensionUri: vscode.Uri,
    private readonly state: vscode.Memento,
    logger: Logger,
    mcpServers: ChatDeps['mcpServers'],
    private readonly watch: { statuses: ChatStatuses; marks: SessionMarks },
    private readonly keeper?: TranscriptKeeper,
    checkpoints?: Pick<ChatSessionDeps, 'beforePrompt' | 'canRestore'> & {
      /** The user began a prompt: the folders' checkpoints can be got ready. */
      prepare?: (session: ChatSession) => void;
    },
  ) {
    super();
    this.prepareCheckpoints = checkpoints?.prepare;
    this.onDidChangeOpen = sessions.onDidChangeOpen;
    // Each chat reattaches by itself when its agent is back (see ChatSession).
    this.deps = { logger, mcpServers, describeError, workspaceFolders, ...checkpoints };
    this.register(
      sessions.onDidChangeOpen(({ agentId, sessionId }) => {
        const session = sessions.get(agentId, sessionId);
        if (session && this.panels.has(session))
          void this.state.update(lastOpenedKey(session.target.cwd), { agentId, sessionId });
      }),
    );
    this.register(
      vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => this.restore(panel, state),
      }),
    );
  }

  isOpen(agentId: string, sessionId: string): boolean {
    return this.sessions.isOpen(agentId, sessionId);
  }

  get(agentId: string, sessionId: string): ChatPanel | undefined {
    const session = this.sessions.get(agentId, sessionId);
    return session && this.panels.get(session);
  }

  get all(): ChatPanel[] {
    return this.sessions.all.flatMap((s) => this.panels.get(s) ?? []);
  }

  /** The chat the user is in: its panel is the active editor (also while the palette is open over it). */
  get active(): ChatPanel | undefined {
    return this.all.find((c) => c.panel.active);
  }

  /**
   * Opens (or reveals) the chat of a session, attaching it as `mode` says; `draft` goes in a new
   * panel's message box (a briefing), else the draft kept from its last panel. `at`: a search hit
   * to scroll to, its words highlighted; a new panel paints the hit's message first.
   */
  async open(
    target: ChatTarget,
    mode: OpenMode | 'new',
    draft?: string,
    at?: Omit<OpenedAt, 'firstScreen'>,
  ): Promise<ChatPanel | undefined> {
    if (!this.agents.get(target.agentId)) {
      noSuchAgent(target.agentId);
      return undefined;
    }
    const sessionId = target.sessionId;
    const already = sessionId ? this.revealOpen(target.agentId, sessionId, mode) : undefined;
    if (already) return already;
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      target.title ?? (target.sessionId ? `Session ${target.sessionId.slice(0, 8)}` : 'New session'),
      vscode.ViewColumn.Active,
      {
        ...chatWebviewOptions(this.extensionUri),
        enableFindWidget: true,
      },
    );
    noteStep('panel');
    const firstScreen = at && sessionId ? this.firstScreen({ agentId: target.agentId, sessionId }, at) : undefined;
    const chat = this.adopt(
      panel,
      new ChatSession(this.agents, target, this.deps),
      draft ?? this.takeDraft(target),
      true,
      at && { ...at, firstScreen },
    );
    void this.attach(chat.session, mode);
    return chat;
  }

  /** The open chat of a session, shown; "Open with history" on a panel opened by resume replays the history into it. */
  private revealOpen(agentId: string, sessionId: string, mode: OpenMode | 'new'): ChatPanel | undefined {
    const open = this.get(agentId, sessionId);
    if (!open) return undefined;
    open.panel.reveal();
    if (mode === 'load') void open.session.openWithHistory();
    return open;
  }

  /** The hit's message as the chat will show it, to paint before the chat's script starts; undefined when not kept or not soon. */
  private async firstScreen(key: SessionKey, at: Omit<OpenedAt, 'firstScreen'>): Promise<string | undefined> {
    const keeper = this.keeper;
    if (!keeper) return undefined;
    const rendered = keeper
      .keptEntry(key, at.index)
      .then((entry) => entry && renderFirstScreen(entry, at.words))
      .catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), FIRST_SCREEN_WAIT_MS);
    });
    try {
      return await Promise.race([rendered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Opens the library's copy of a session read-only (its agent no longer lists it, its folder
   * is gone), `why` said in the chat: nothing is sent to the agent. An open chat of the session
   * is revealed instead. Undefined when the library keeps no copy. `at`: a search hit, whose
   * message the panel paints first while the whole copy is read.
   */
  async openKept(
    target: ChatTarget & { sessionId: string },
    why: string,
    at?: Omit<OpenedAt, 'firstScreen'>,
  ): Promise<ChatPanel | undefined> {
    const key = { agentId: target.agentId, sessionId: target.sessionId };
    const open = () => this.get(key.agentId, key.sessionId);
    if (open()) return this.open(target, 'auto');
    // The hit's one row is asked for first: the library's reading thread answers in order.
    const first = at ? this.firstScreen(key, at) : undefined;
    const read = this.keeper?.keptEntries(key).catch(() => undefined);
    const firstScreen = await first;
    const entries = firstScreen === undefined ? await read : undefined;
    if (firstScreen === undefined && !entries) return undefined;
    if (open()) return this.open(target, 'auto');
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      `${target.title ?? `Session ${target.sessionId.slice(0, 8)}`} (kept, read-only)`,
      vscode.ViewColumn.Active,
      { ...chatWebviewOptions(this.extensionUri), enableFindWidget: true },
    );
    if (firstScreen === undefined) return this.showKept(panel, target, why, entries);
    // Painted now, shown whole once read (a copy whose one row was read is there to read).
    const chat = this.adopt(panel, new ChatSession(this.agents, target, this.deps), '', false, {
      ...at!,
      firstScreen,
    });
    const kept = await read;
    if (!kept) return void panel.dispose();
    chat.session.showReadOnly(kept, why);
    return chat;
  }

  /** `panel` shows the library's copy read-only; closed when the library keeps none (after a reload). */
  private async showKept(
    panel: vscode.WebviewPanel,
    target: ChatTarget & { sessionId: string },
    why: string,
    kept?: readonly ThreadEntry[],
  ): Promise<ChatPanel | undefined> {
    const key = { agentId: target.agentId, sessionId: target.sessionId };
    const entries = kept ?? (await this.keeper?.keptEntries(key).catch(() => undefined));
    if (!entries || this.isOpen(key.agentId, key.sessionId)) return void panel.dispose();
    // Not recorded: the copy is the library's own, and nothing new can arrive.
    const chat = this.adopt(panel, new ChatSession(this.agents, target, this.deps), '', false);
    chat.session.showReadOnly(entries, why);
    return chat;
  }

  /** Attaches a chat: from the session library at once when it keeps the session whole and current. */
  private async attach(session: ChatSession, mode: OpenMode | 'new', fallback?: OpenMode): Promise<void> {
    if (mode === 'new' || !this.keeper) return session.attach(fallback ?? mode);
    const shown = await this.keeper.showKept(session, mode);
    return session.attach(shown ? 'resume' : (fallback ?? mode));
  }

  /**
   * Loads a session with no panel (indexing a folder, exporting a session not kept): the library
   * records the load; the session is closed again once it is kept. Rejects when the load failed
   * or `signal` stopped it.
   */
  async loadInBackground(target: ChatTarget, signal?: AbortSignal): Promise<ChatSession> {
    const session = new ChatSession(this.agents, target, this.deps);
    const recording = this.keeper?.record(session);
    const stop = () => session.cancelLoad();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      if (signal?.aborted) throw new Error('Cancelled.');
      await session.attach('load');
      // A load cut short leaves part of the history: not kept as the whole (it never attached).
      if (signal?.aborted) throw new Error('Cancelled.');
      const status = session.thread.status;
      if (status.state === 'error' || status.state === 'disconnected') throw new Error(status.message);
      await recording?.flush();
      return session;
    } finally {
      signal?.removeEventListener('abort', stop);
      recording?.dispose();
      void session.close();
    }
  }

  /** After a window reload: the host has no thread, so the session is loaded again (resumed only when the agent cannot load). */
  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const target = readPanelTarget((state as { target?: unknown } | undefined)?.target);
    if (!target || !this.agents.get(target.agentId) || this.isOpen(target.agentId, target.sessionId)) {
      panel.dispose();
      return;
    }
    if (target.readOnly !== undefined) return void (await this.showKept(panel, target, target.readOnly));
    const chat = this.adopt(panel, new ChatSession(this.agents, target, this.deps), this.takeDraft(target));
    // Shown from the library when it keeps the session whole and current; else loaded again.
    void this.attach(chat.session, 'auto', 'load');
  }

  private adopt(
    panel: vscode.WebviewPanel,
    session: ChatSession,
    draft: string,
    record = true,
    openedAt?: OpenedAt,
  ): ChatPanel {
    const chat = new ChatPanel(panel, session, this.extensionUri, this.diffs, this.deps.logger, draft, openedAt);
    chat.register(new ChatWatch(session, panel, this.watch.statuses, this.watch.marks));
    this.panels.set(session, chat);
    this.sessions.add(session);
    this.lastActive = chat;
    this.updateHasChat();
    const recording = record ? this.keeper?.record(session) : undefined;
    const prepare = this.prepareCheckpoints;
    if (prepare) {
      chat.register(chat.onDidType(() => prepare(session)));
      // A draft in the box (a briefing, or what the user typed before) is a prompt coming too:
      // the folder's first snapshot is taken while it is read.
      if (draft.trim()) prepare(session);
    }
    panel.onDidChangeViewState(() => {
      if (panel.active) this.lastActive = chat;
    });
    panel.onDidDispose(() => {
      recording?.dispose();
      this.keepDraft(session.target, chat.draft);
      if (this.lastActive === chat) this.lastActive = undefined;
      this.panels.deleteAndLeak(session);
      // Out of the registry first: the agent's requests about it are answered "cancelled" from now on.
      this.sessions.remove(session);
      this.updateHasChat();
      try {
        chat.dispose();
      } finally {
        // Whatever the panel's teardown did, the session is let go: the agent hears session/close.
        void this.sessions.close(session);
      }
    });
    return chat;
  }

  /** The chat last active (for "Focus Chat Input" when no chat is in front). */
  private lastActive: ChatPanel | undefined;

  /** "ACP: Focus Chat Input": the chat in front, else the one last used; false when no chat is open. */
  focusInput(): boolean {
    const chat = this.all.find((c) => c.panel.active) ?? this.lastActive ?? this.all[0];
    chat?.focusInput();
    return chat !== undefined;
  }

  private updateHasChat(): void {
    setContext('acp.hasChat', this.all.length > 0);
  }

  /**
   * An unsent draft outlives its panel: it is kept per session (per agent and folder for a
   * chat whose session was never created) and handed to the next panel of that session.
   */
  private keepDraft(target: ChatTarget, draft: string): void {
    void this.state.update(draftKey(target), draft.trim() ? draft : undefined);
  }

  private takeDraft(target: ChatTarget): string {
    const key = draftKey(target);
    const draft = this.state.get<unknown>(key);
    if (draft === undefined) return '';
    void this.state.update(key, undefined);
    return typeof draft === 'string' ? draft : '';
  }

  /** The session this window last opened in a folder (however the agent spelled the folder's path). */
  lastOpened(cwd: string): { agentId: string; sessionId: string } | undefined {
    const v = this.state.get<{ agentId?: unknown; sessionId?: unknown }>(lastOpenedKey(cwd));
    return v && typeof v.agentId === 'string' && typeof v.sessionId === 'string'
      ? { agentId: v.agentId, sessionId: v.sessionId }
      : undefined;
  }
}

function draftKey(target: ChatTarget): string {
  return target.sessionId
    ? `${DRAFT_KEY}:${target.agentId}:${target.sessionId}`
    : `${DRAFT_KEY}:new:${target.agentId}:${normalizePath(target.cwd)}`;
}

/** Keyed by the folder's normalised path: the agent's spelling of a cwd may differ from the window's. */
function lastOpenedKey(cwd: string): string {
  return `${LAST_OPENED_KEY}:${normalizePath(cwd)}`;
}

/** The window's local folders: additional directories must lie inside one of them. */
function workspaceFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
