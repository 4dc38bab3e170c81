/**
 * Every message between the chat webview and the extension host, typed once. Requests are
 * verbs, events are past tense. The host owns the thread; the webview is a projection of it:
 * on `ready` the host answers with a full `snapshot`, then sends batched `changed` events.
 * A webview that was hidden or reloaded sends `ready` again and gets a fresh snapshot; nothing
 * buffered for an earlier webview is ever a delta for a new one.
 *
 * Shared by both sides: no vscode, no DOM, no node.
 */
import { NotificationType, NotificationType0, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { RawValue } from './elicitation';
import type { ElicitationOutcome, PanelChange, PanelSnapshot } from './entries';

/** How the panel came to hold its history; decides the empty-state text. */
export type HistoryState =
  /** A session created in this panel: nothing before the first prompt. */
  | 'new'
  /** Replayed with `session/load`: the entries are the whole history. */
  | 'loaded'
  /** Attached with `session/resume`: earlier turns exist but were not replayed. */
  | 'resumed';

/** What the panel may offer, decided by the host from the agent's capabilities and state. */
export interface ChatCapabilities {
  /** The composer may send (`session/prompt`); false while disconnected or not attached. */
  canPrompt: boolean;
  /** Stop is offered while a turn runs. */
  canCancel: boolean;
  /** A turn runs and the composer's message would be queued, sent when the turn ends. */
  canQueue: boolean;
  /** The agent advertises modes (`session/set_mode`). */
  canSetMode: boolean;
  /** The agent advertises config options (`session/set_config_option`). */
  canSetConfig: boolean;
  /** The agent's display name ("Claude Code"). */
  agentName: string;
  /** The agent's id in `acp.agents`; with `sessionId` and `cwd` it lets a reloaded window reopen the panel. */
  agentId: string;
  sessionId: string;
  /** The session's working directory, for display and for resolving relative paths. */
  cwd: string;
  /** The further roots sent to the agent with the session; a reloaded window sends them again. */
  additionalDirectories?: string[];
  history: HistoryState;
  /** Checkpoints are on: each user message offers "Restore Files to Before This Message". */
  canRestore?: boolean;
  /** How long the session's turns have run, in total as far as this client knows (ms). */
  activeMs?: number;
  /** The agent forks sessions (`session/fork`): each user message offers "Fork From Here". */
  canFork?: boolean;
  /** A kept copy nothing attaches: why (the panel comes back read-only after a reload). */
  readOnly?: string;
}

/** A follow-up written while the agent worked, waiting for its turn. */
export interface QueuedPrompt {
  id: string;
  text: string;
  /** The user is editing it: it waits, and so does everything after it. */
  editing: boolean;
}

/** The follow-ups waiting, in the order they go. */
export interface QueueState {
  items: QueuedPrompt[];
  /** A stopped or failed turn paused the queue: nothing goes until the user sends one. */
  paused: boolean;
}

/** The full picture: the thread and what the panel may offer. */
export interface SnapshotParams {
  /** Entries far from the reader come as stubs (see `EntryStub`). */
  thread: PanelSnapshot;
  capabilities: ChatCapabilities;
  queue: QueueState;
  /**
   * What the user had typed and not sent, kept by the host: after the panel was closed, it
   * comes back the next time the session opens. The composer takes it only when it is empty.
   */
  draft?: string;
  /** The sessions this one was continued from or in ("Continue in Another Agent…"). */
  links?: SessionLinkView[];
}

/** A session linked to this one, as the header shows it: "Continued in Codex — Cart totals". */
export interface SessionLinkView {
  direction: 'to' | 'from';
  agentId: string;
  sessionId: string;
  text: string;
}

export interface LinksChangedParams {
  links: SessionLinkView[];
}

/** Changes in order; many per message during a replay, never one message per update. */
export interface ChangedParams {
  changes: PanelChange[];
}

// ---- host → webview ----

/** Sent in answer to `ready` (and whenever the host must start the webview over). */
export const snapshotEvent = new NotificationType<SnapshotParams>('snapshot');
/** Thread changes since the last snapshot or batch, applied in order. */
export const changedEvent = new NotificationType<ChangedParams>('changed');
/** The panel's capabilities changed (agent restarted, turn started, attached…). */
export const capabilitiesChangedEvent = new NotificationType<ChatCapabilities>('capabilitiesChanged');
/** The queued follow-ups changed (one was added, edited, removed or sent). */
export const queueChangedEvent = new NotificationType<QueueState>('queueChanged');
/** This session was continued in another, or continues one: the header links to it. */
export const linksChangedEvent = new NotificationType<LinksChangedParams>('linksChanged');
/** Puts the keyboard focus in the message box ("ACP: Focus Chat Input"). */
export const focusInputEvent = new NotificationType0('focusInput');
/**
 * Scroll to an entry (a session opened from a file it touched, or from a search hit, whose
 * words the find bar then highlights); sent after the entry itself.
 */
export const revealEntryEvent = new NotificationType<RevealEntryParams>('revealEntry');
/**
 * The entry the panel was opened to show will not come (the thread ended shorter): the chat
 * drops the first screen it painted for it and shows as it is.
 */
export const revealMissedEvent = new NotificationType0('revealMissed');
export interface RevealEntryParams {
  index: number;
  /** Words to find and highlight in the thread, from this entry on. */
  words?: string[];
}

// ---- webview → host ----

export interface DraftChangedParams {
  text: string;
}
/** The composer's unsent text changed; the host keeps it so closing the panel loses nothing. */
export const draftChangedEvent = new NotificationType<DraftChangedParams>('draftChanged');

export interface ReadyParams {
  /** The entry the reader was at (a restored panel); absent: the end, followed. */
  at?: number;
}
/** The webview (re)started and wants a snapshot; the host answers with `snapshot`. */
export const readyRequest = new RequestType<ReadyParams, void, void>('ready');

export interface ViewportParams {
  /** The entries rendered, `from` to `to` exclusive. */
  from: number;
  to: number;
  /** The view follows the end of the thread. */
  follow: boolean;
}
/** What the reader has on screen: the host sends entries there whole, others as stubs. */
export const viewportChangedEvent = new NotificationType<ViewportParams>('viewportChanged');

export interface FetchEntriesParams {
  from: number;
  to: number;
}
/**
 * Stubs the webview wants whole: the host sends those in `from`…`to` as `entryChanged` before
 * it answers, up to a budget, and answers where it stopped (exclusive).
 */
export const fetchEntriesRequest = new RequestType<FetchEntriesParams, number, void>('fetchEntries');

export interface SendPromptParams {
  text: string;
}
/**
 * Sends the composer's text as a prompt, or queues it while a turn runs (sent when the turn
 * ends). Resolves when the host accepted it, not when the turn ends.
 */
export const sendPromptRequest = new RequestType<SendPromptParams, void, void>('sendPrompt');

export interface UpdateQueuedParams {
  id: string;
  /** New text; empty text removes the follow-up. */
  text?: string;
  /** Whether the user is editing it (it waits while they do). */
  editing?: boolean;
}
/** Edits a queued follow-up. */
export const updateQueuedRequest = new RequestType<UpdateQueuedParams, void, void>('updateQueued');

export interface QueuedParams {
  id: string;
}
/** Removes a queued follow-up. */
export const removeQueuedRequest = new RequestType<QueuedParams, void, void>('removeQueued');
/** Sends a queued follow-up now (when no turn runs), resuming a paused queue. */
export const sendQueuedRequest = new RequestType<QueuedParams, void, void>('sendQueued');

/** Stops the running turn (`session/cancel`). */
export const cancelTurnRequest = new RequestType0<void, void>('cancelTurn');

/** Stops a history load in progress. */
export const cancelLoadRequest = new RequestType0<void, void>('cancelLoad');

export interface AnswerPermissionParams {
  /** The `requestId` of the permission entry. */
  requestId: string;
  /** The chosen option's id, or null for "cancelled". */
  optionId: string | null;
}
/** Answers a pending permission request. */
export const answerPermissionRequest = new RequestType<AnswerPermissionParams, void, void>('answerPermission');

export interface AnswerElicitationParams {
  /** The `requestId` of the elicitation entry. */
  requestId: string;
  action: ElicitationOutcome;
  /** Form mode, accept: the raw input per field; the host checks and types it (`validateForm`). */
  values?: Record<string, RawValue>;
}
/**
 * Answers a pending elicitation. For a URL, accept asks the host to open the address (through
 * VS Code, which confirms external sites) and answers only once it was opened. Resolves to
 * false when nothing was answered (unknown request, input the host refused, or not opened).
 */
export const answerElicitationRequest = new RequestType<AnswerElicitationParams, boolean, void>('answerElicitation');

export interface SetModeParams {
  modeId: string;
}
export const setModeRequest = new RequestType<SetModeParams, void, void>('setMode');

export interface SetConfigOptionParams {
  configId: string;
  /** A select option's value id, or a boolean option's value. */
  value: string | boolean;
}
export const setConfigOptionRequest = new RequestType<SetConfigOptionParams, void, void>('setConfigOption');

export interface OpenLocationParams {
  /** An absolute path, a path relative to the session's cwd, or a `file:` URI. */
  path: string;
  /** 1-based line. */
  line?: number;
}
/** Opens a file in an editor. The host checks the path; the webview never opens anything itself. */
export const openLocationRequest = new RequestType<OpenLocationParams, void, void>('openLocation');

export interface OpenDiffParams {
  /** Index of the tool-call entry. */
  entryIndex: number;
  /** Index in the entry's `content` of the `diff` item. */
  contentIndex: number;
}
/** Opens a diff editor for a tool call's diff; the host has the texts. */
export const openDiffRequest = new RequestType<OpenDiffParams, void, void>('openDiff');

export interface OpenChangesParams {
  /** Index of the changes entry. */
  entryIndex: number;
}
/** Opens the multi-file diff of what a turn changed (a changes entry); the host has the checkpoints. */
export const openChangesRequest = new RequestType<OpenChangesParams, void, void>('openChanges');

export interface RestoreFilesParams {
  /** Index of the user message whose files to restore. */
  entryIndex: number;
}
/** Restores the session's files to before a user message; the host asks first and does the rest. */
export const restoreFilesRequest = new RequestType<RestoreFilesParams, void, void>('restoreFiles');

/** Forks the conversation into a worktree with the files of before a user message; the host asks first. */
export const forkFromHereRequest = new RequestType<RestoreFilesParams, void, void>('forkFromHere');

export interface OpenLinkParams {
  /** As written in the agent's text; the host validates the scheme and lets VS Code confirm. */
  href: string;
}
/** Opens a link from agent text outside the webview; the webview never navigates. */
export const openLinkRequest = new RequestType<OpenLinkParams, void, void>('openLink');

/** Retries what failed (the load or attach shown in the error banner). */
export const retryRequest = new RequestType0<void, void>('retry');

/** Restarts the agent process after it died, then reattaches this session. */
export const restartAgentRequest = new RequestType0<void, void>('restartAgent');

/** Signs in to the chat's agent (its methods, as "ACP: Sign In" offers them), then retries what failed. */
export const signInRequest = new RequestType0<void, void>('signIn');

export interface CopyTextParams {
  /** What the user copied: a message's Markdown, a code block, a terminal's output. */
  text: string;
}
/** Puts text on the clipboard (through VS Code, which works wherever the webview runs). */
export const copyTextRequest = new RequestType<CopyTextParams, void, void>('copyText');

/** Reveals the "ACP" output channel. */
export const showLogRequest = new RequestType0<void, void>('showLog');

export interface OpenLinkedSessionParams {
  agentId: string;
  sessionId: string;
}
/** A header link to the session this one was continued from or in: the host opens it. */
export const openLinkedSessionRequest = new RequestType<OpenLinkedSessionParams, void, void>('openLinkedSession');
