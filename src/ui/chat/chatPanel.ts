import * as vscode from 'vscode';
import { ErrorCodes, ResponseError, type MessageConnection } from 'vscode-jsonrpc';
import { Emitter } from '../../base/event';
import { Disposable } from '../../base/lifecycle';
import type { ChatSession } from '../../chat/chatSession';
import { ChangeBatcher } from '../../chat/batcher';
import { EntryWindow, readIndex, readRange, VIEW_MARGIN } from '../../chat/entryWindow';
import { showableChanges, showableEntries, showableMeta } from '../../chat/showable';
import { packEntries } from '../../protocol/entries';
import type { Logger } from '../../agent/log';
import { createChannel } from '../../protocol/channel';
import {
  answerElicitationRequest,
  answerPermissionRequest,
  cancelLoadRequest,
  cancelTurnRequest,
  capabilitiesChangedEvent,
  changedEvent,
  copyTextRequest,
  draftChangedEvent,
  linksChangedEvent,
  openLinkedSessionRequest,
  type SessionLinkView,
  fetchEntriesRequest,
  focusInputEvent,
  queueChangedEvent,
  revealEntryEvent,
  revealMissedEvent,
  removeQueuedRequest,
  sendQueuedRequest,
  updateQueuedRequest,
  openChangesRequest,
  openDiffRequest,
  openLinkRequest,
  openLocationRequest,
  readyRequest,
  restartAgentRequest,
  restoreFilesRequest,
  forkFromHereRequest,
  retryRequest,
  sendPromptRequest,
  setConfigOptionRequest,
  setModeRequest,
  showLogRequest,
  signInRequest,
  snapshotEvent,
  viewportChangedEvent,
} from '../../protocol/messages';
import { sanitizeText } from '../../sessions/title';
import type { DiffContents } from './diffContents';
import { describeError } from '../../app/errorText';
import { openLink, openLocation, openWebAddress } from './links';
import { noteStep } from '../../base/steps';
import { chatHtml } from './chatHtml';

export const CHAT_VIEW_TYPE = 'acp.chat';
/** The longest draft kept, in characters. */
const MAX_DRAFT = 100_000;
/**
 * While a history replays, changes go every 100 ms (the view repaints ten times a second then)
 * and the queued text may grow: entries far from the reader go as stubs, not as their text.
 */
const REPLAY_PACE = { intervalMs: 100, maxChars: 8 * 1024 * 1024 };
/**
 * Otherwise (a turn streaming) changes go at most every 33 ms: text streams in thirty times a
 * second, which reads as smooth, and the webview renders (and the workbench relays) half as
 * many messages as one per frame (in the load benchmark, about a sixth less renderer CPU while
 * a long reply streams beside a replay, and fewer long tasks).
 */
const TURN_PACE = { intervalMs: 33 };

/** A panel opened on a search hit: the entry to scroll to, its words, and its first screen's HTML. */
export interface OpenedAt {
  index: number;
  words: readonly string[];
  /**
   * The hit's message as the chat shows it, painted before the chat's script starts
   * (chat/firstScreen.ts). The page is set once it is rendered (or known not to be): until a
   * page is set the workbench is still making the webview's frames, so the wait costs nothing.
   */
  firstScreen?: string | Promise<string | undefined>;
}

/**
 * The host side of one chat panel: translates the session's thread into batched messages for
 * the webview and the webview's requests into calls on the session. The host owns the thread;
 * a webview that was hidden or reloaded asks for a snapshot again (`ready`).
 */
export class ChatPanel extends Disposable {
  private readonly channel: MessageConnection;
  private readonly batcher: ChangeBatcher;
  /** Which entries the webview holds whole; the others it is sent as stubs. */
  private readonly window = new EntryWindow();
  private ready = false;
  /** The panel was disposed: nothing more is posted to it or set on it (either would throw). */
  private gone = false;
  private draftText: string;
  private linkViews: SessionLinkView[] = [];
  private readonly typed = this.register(new Emitter<void>());
  /** The user typed in the composer (a prompt is coming). */
  readonly onDidType = this.typed.event;
  /** "Focus Chat Input" asked before the webview was ready: focus once it is. */
  private focusWhenReady = false;
  /** Created in this panel: its tab says "New session" until the agent gives it a title. */
  private readonly startedNew: boolean;
  /** A message to the panel failed: from then on, entries that cannot be sent are replaced first. */
  private careful = false;
  /** An entry to scroll to once the thread has it and the webview shows it. */
  private revealing: number | undefined;
  /** The words a search hit matched, highlighted once the entry is shown. */
  private revealWords: string[] | undefined;
  /** The entry the panel was opened on will not come: said to the webview once it is ready. */
  private revealMissed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly session: ChatSession,
    extensionUri: vscode.Uri,
    private readonly diffs: DiffContents,
    private readonly logger: Logger,
    /** A draft kept from the last time this session's panel closed unsent. */
    keptDraft = '',
    /** Opened on a search hit: scrolled to it, and its first screen painted before the chat starts. */
    openedAt?: OpenedAt,
  ) {
    super();
    // First of the panel's listeners: what the others do on disposal must not touch it.
    this.register(panel.onDidDispose(() => (this.gone = true)));
    this.draftText = keptDraft;
    this.startedNew = !session.sessionId;
    const webview = panel.webview;
    webview.options = chatWebviewOptions(extensionUri);
    this.channel = createChannel({
      post: (m) => {
        if (!this.gone) void webview.postMessage(m).then(undefined, (e: unknown) => this.postFailed(m, e));
      },
      onMessage: (listener) => webview.onDidReceiveMessage(listener),
    });
    this.register({ dispose: () => this.channel.dispose() });
    this.batcher = this.register(
      new ChangeBatcher((batch) => {
        const thread = this.session.thread;
        // The first batch of a replay goes at once, the rest at the replay's pace.
        if (thread.status.state === 'loading') this.batcher.setPace(REPLAY_PACE);
        if (!this.isShowing) return;
        const changes = this.window.changes(batch, thread.entries);
        noteStep('changes posted', String(changes.length));
        void this.channel.sendNotification(changedEvent, {
          changes: this.careful ? showableChanges(changes) : changes,
        });
      }, TURN_PACE),
    );
    this.register(
      session.thread.onDidChange((changes) => {
        if (session.thread.status.state !== 'loading') this.batcher.setPace(undefined);
        this.batcher.push(changes);
        this.tryReveal();
        if (changes.some((c) => c.kind === 'statusChanged')) this.missReveal();
      }),
    );
    this.register(
      session.onDidChangeCapabilities(() => {
        if (this.ready) void this.channel.sendNotification(capabilitiesChangedEvent, session.capabilities());
        this.updateTitle();
      }),
    );
    // Only the meta holds the title: a replay's thousands of entry changes leave the tab alone.
    this.register(
      session.thread.onDidChange(
        (changes) => changes.some((c) => c.kind === 'metaChanged' || c.kind === 'statusChanged') && this.updateTitle(),
      ),
    );
    this.register(
      session.queue.onDidChange((queue) => {
        // In order with the thread's changes: a follow-up leaves the queue as its prompt is added.
        this.batcher.flushNow();
        if (this.ready && panel.visible) void this.channel.sendNotification(queueChangedEvent, queue);
      }),
    );
    this.register(
      panel.onDidChangeViewState(() => {
        // A hidden webview is torn down; it asks for a snapshot when shown again.
        if (!panel.visible) this.ready = false;
      }),
    );
    this.handleRequests();
    this.channel.listen();
    if (openedAt) this.revealEntry(openedAt.index, openedAt.words);
    const setPage = (firstScreen?: string) => {
      if (this.gone) return;
      webview.html = chatHtml(webview, extensionUri, firstScreen);
      noteStep('page set', firstScreen ? 'with the first screen' : undefined);
    };
    const first = openedAt?.firstScreen;
    if (first instanceof Promise) first.then(setPage, () => setPage());
    else setPage(first);
    this.updateTitle();
  }

  /** The webview has its snapshot and is visible: changes are sent to it as they come. */
  get isShowing(): boolean {
    return this.ready && !this.gone && this.panel.visible;
  }

  /**
   * A message could not be sent (it did not serialise): logged, said in the chat once, and the
   * panel starts over from a snapshot whose entries that cannot be sent are replaced by a
   * notice. Nothing is lost silently and the rest of the chat still shows.
   */
  private postFailed(message: unknown, error: unknown): void {
    const method = (message as { method?: unknown } | null)?.method;
    this.logger.error(`the chat panel could not be sent "${String(method)}": ${String(error)}`);
    if (this.careful || this.isDisposed) return;
    this.careful = true;
    this.session.thread.addNotice(
      'error',
      'Part of this chat could not be shown in the panel',
      'The "ACP" log says why.',
    );
    if (this.ready) this.sendSnapshot();
  }

  /** `at`: the entry the reader is at; absent, the view follows the end. */
  private sendSnapshot(at?: number): void {
    this.batcher.discard();
    // A hit being opened: its neighbourhood goes whole in the snapshot, so that it shows (and its
    // words are found) without first asking for it.
    this.window.reset(this.revealing ?? at);
    const thread = this.session.thread;
    // Whole near the reader, stubs elsewhere: a long history is not megabytes in one message.
    let entries = this.window.snapshot(thread.entries);
    let meta = { ...thread.meta };
    if (this.careful) {
      entries = showableEntries(entries);
      meta = showableMeta(meta);
    }
    noteStep('snapshot posted', String(entries.length));
    void this.channel.sendNotification(snapshotEvent, {
      thread: { entries: packEntries(entries), meta, status: thread.status },
      capabilities: this.session.capabilities(),
      queue: this.session.queue.state,
      ...(this.draftText ? { draft: this.draftText } : {}),
      ...(this.linkViews.length ? { links: this.linkViews } : {}),
    });
    this.ready = true;
    if (this.revealMissed) {
      this.revealMissed = false;
      void this.channel.sendNotification(revealMissedEvent);
    }
    if (this.focusWhenReady) {
      this.focusWhenReady = false;
      void this.channel.sendNotification(focusInputEvent);
    }
    this.tryReveal();
  }

  /** Scrolls the chat to an entry (a session opened from a file it touched), once it is there. */
  revealEntry(index: number, words?: readonly string[]): void {
    this.revealing = index;
    this.revealWords = words?.length ? [...words] : undefined;
    this.tryReveal();
  }

  private tryReveal(): void {
    const index = this.revealing;
    if (index === undefined || !this.isShowing || this.session.thread.entries.length <= index) return;
    this.revealing = undefined;
    // The entry goes first, whole with those around it (the panel would ask for the stubs it
    // scrolls to, a round trip before the words can be found), then the scroll to it.
    const entries = this.session.thread.entries;
    this.batcher.push(this.window.take(index, index + VIEW_MARGIN, entries).changes);
    this.batcher.push(this.window.take(Math.max(0, index - VIEW_MARGIN), index, entries).changes);
    this.batcher.flushNow();
    const words = this.revealWords;
    this.revealWords = undefined;
    void this.channel.sendNotification(revealEntryEvent, words ? { index, words } : { index });
    noteStep('reveal posted');
  }

  /**
   * The thread settled (loaded, failed, or shown read-only) without the entry to scroll to: it
   * will not come, and a first screen painted for it must not stay over the chat.
   */
  private missReveal(): void {
    const index = this.revealing;
    const thread = this.session.thread;
    if (index === undefined || thread.status.state === 'loading' || thread.entries.length > index) return;
    this.revealing = undefined;
    this.revealWords = undefined;
    noteStep('reveal missed', String(index));
    if (this.isShowing) void this.channel.sendNotification(revealMissedEvent);
    else this.revealMissed = true;
  }

  private handleRequests(): void {
    const c = this.channel;
    const s = this.session;
    // What the webview sends is checked: a malformed message is ignored, never thrown on.
    c.onRequest(readyRequest, (params: unknown) => {
      noteStep('webview ready');
      this.sendSnapshot(readIndex((params as { at?: unknown } | null | undefined)?.at));
    });
    c.onNotification(viewportChangedEvent, (params: unknown) => {
      const range = readRange(params);
      if (range) this.window.setView(range.from, range.to, (params as { follow?: unknown }).follow === true);
    });
    c.onRequest(fetchEntriesRequest, (params: unknown) => {
      const range = readRange(params);
      if (!range || !this.isShowing) return range?.from ?? 0;
      noteStep('entries fetched', `${range.from}-${range.to}`);
      const taken = this.window.take(range.from, range.to, this.session.thread.entries);
      // Through the batcher, so they go in order with the changes queued before them.
      this.batcher.push(taken.changes);
      this.batcher.flushNow();
      return taken.end;
    });
    c.onNotification(draftChangedEvent, ({ text }) => {
      if (typeof text !== 'string') return;
      this.draftText = text.slice(0, MAX_DRAFT);
      if (text.trim()) this.typed.fire();
    });
    c.onRequest(sendPromptRequest, ({ text }) => {
      if (typeof text !== 'string' || !text.trim()) return;
      // Accepted now; the turn streams into the thread and ends on its own.
      void s.prompt(text).catch((e) => s.thread.addNotice('error', describeError(e)));
    });
    c.onRequest(updateQueuedRequest, ({ id, text, editing }) => {
      s.queue.update(String(id), {
        ...(typeof text === 'string' ? { text } : {}),
        ...(typeof editing === 'boolean' ? { editing } : {}),
      });
      if (editing === false) s.drainQueue();
    });
    c.onRequest(removeQueuedRequest, ({ id }) => void s.queue.remove(String(id)));
    c.onRequest(sendQueuedRequest, ({ id }) => {
      void s.sendQueued(String(id)).catch((e) => s.thread.addNotice('error', describeError(e)));
    });
    c.onRequest(cancelTurnRequest, () => s.cancel());
    c.onRequest(cancelLoadRequest, () => s.cancelLoad());
    c.onRequest(answerPermissionRequest, ({ requestId, optionId }) =>
      s.answerPermission(String(requestId), optionId === null ? null : String(optionId)),
    );
    c.onRequest(answerElicitationRequest, async ({ requestId, action, values }) => {
      const id = String(requestId);
      if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return false;
      // A URL is accepted once the user opened it: VS Code asks before opening an untrusted site.
      const url = s.elicitations.urlOf(id);
      if (action === 'accept' && url !== undefined && !(await openWebAddress(url))) return false;
      return s.elicitations.answer(id, action, values && typeof values === 'object' ? values : undefined);
    });
    // A refusal is said in the thread and fails the request, so the webview shows the
    // agent's current value again instead of the one it refused.
    const refused = (e: unknown): never => {
      s.thread.addNotice('error', describeError(e));
      throw new ResponseError(ErrorCodes.InternalError, describeError(e));
    };
    c.onRequest(setModeRequest, ({ modeId }) => s.setMode(String(modeId)).catch(refused));
    c.onRequest(setConfigOptionRequest, ({ configId, value }) =>
      s.setConfigOption(String(configId), value).catch(refused),
    );
    c.onRequest(openLocationRequest, ({ path, line }) => openLocation(path, line, s.target.cwd));
    c.onRequest(openLinkRequest, ({ href }) => openLink(href, s.target.cwd));
    c.onRequest(openDiffRequest, ({ entryIndex, contentIndex }) => {
      const entry = s.thread.entries[entryIndex];
      const content = entry?.type === 'tool' ? entry.content[contentIndex] : undefined;
      if (content?.type !== 'diff') return;
      return this.diffs.open(content.path, content.oldText ?? '', content.newText);
    });
    c.onRequest(openChangesRequest, ({ entryIndex }) => {
      const entry = s.thread.entries[entryIndex];
      if (entry?.type === 'changes')
        return vscode.commands.executeCommand('acp.openTurnChanges', entry.folder, entry.turn);
    });
    c.onRequest(restoreFilesRequest, ({ entryIndex }) =>
      vscode.commands.executeCommand('acp.restoreToMessage', s.target.agentId, s.sessionId, entryIndex),
    );
    c.onRequest(forkFromHereRequest, ({ entryIndex }) =>
      vscode.commands.executeCommand('acp.forkFromHere', s.target.agentId, s.sessionId, entryIndex),
    );
    c.onRequest(retryRequest, () => s.retry());
    c.onRequest(restartAgentRequest, () => s.restartAgent());
    // The sign-in command retries the chats of that agent when it succeeds (this one included).
    c.onRequest(signInRequest, async () => {
      await vscode.commands.executeCommand('acp.signIn', s.target.agentId);
    });
    c.onRequest(showLogRequest, () => vscode.commands.executeCommand('acp.showLog'));
    c.onRequest(openLinkedSessionRequest, ({ agentId, sessionId }) => {
      const link = this.linkViews.find((l) => l.agentId === agentId && l.sessionId === sessionId);
      if (link) return vscode.commands.executeCommand('acp.openLinkedSession', link.agentId, link.sessionId);
    });
    c.onRequest(copyTextRequest, ({ text }) => {
      if (typeof text === 'string') return vscode.env.clipboard.writeText(text);
    });
  }

  /** The sessions this one was continued from or in, as the header shows them. */
  get links(): readonly SessionLinkView[] {
    return this.linkViews;
  }

  setLinks(links: SessionLinkView[]): void {
    this.linkViews = links;
    if (this.ready && !this.gone) void this.channel.sendNotification(linksChangedEvent, { links });
  }

  /** What the user typed and has not sent (kept when the panel closes). */
  get draft(): string {
    return this.draftText;
  }

  /** Shows the panel and puts the keyboard focus in its message box. */
  focusInput(): void {
    this.panel.reveal(this.panel.viewColumn, false);
    if (this.ready && this.panel.visible) void this.channel.sendNotification(focusInputEvent);
    else this.focusWhenReady = true;
  }

  private updateTitle(): void {
    if (this.gone) return;
    const meta = this.session.thread.meta;
    const raw = meta.name ?? meta.title;
    const id = this.session.sessionId;
    const named = raw ? sanitizeText(raw, 60) : id && !this.startedNew ? `Session ${id.slice(0, 8)}` : 'New session';
    // A kept copy nothing attaches says so on its tab too.
    const title = this.session.thread.status.state === 'readOnly' ? `${named} (kept, read-only)` : named;
    if (this.panel.title !== title) this.panel.title = title;
  }

  override dispose(): void {
    this.batcher.flushNow();
    super.dispose();
  }
}

/** What a chat webview may run and load: our script, and only files from `dist` and `media`. */
export function chatWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}
