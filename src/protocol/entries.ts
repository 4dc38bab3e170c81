/**
 * The chat thread as the host holds it and the webview shows it. The host's reducer
 * (`src/chat/thread.ts`) builds these from `session/update` notifications; the webview
 * renders them. Shared by both sides: no vscode, no DOM, no node.
 */
import type {
  AvailableCommand,
  ContentBlock,
  ElicitationSchema,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  SessionModeState,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from '@agentclientprotocol/sdk';
import type { TerminalOutputDelta, TerminalOutputState } from './terminalOutput';

/** A message from the user, the agent, or the agent's thinking. Chunks of one message are joined. */
export interface MessageEntry {
  readonly type: 'user' | 'agent' | 'thought';
  /** The message's Markdown text: the text chunks joined. */
  text: string;
  /** Non-text blocks (images, resource links, embedded resources), in arrival order. */
  attachments: ContentBlock[];
  /** The agent's message id when it sent one (chunks with a new id start a new entry). */
  messageId?: string;
  /** False while chunks may still arrive; the webview renders Markdown once it is final. */
  done: boolean;
}

/** A tool call; updates merge only the fields they carry. */
export interface ToolCallEntry {
  readonly type: 'tool';
  readonly toolCallId: string;
  title: string;
  kind: ToolKind;
  status: ToolCallStatus;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  /** The tool's raw input and output as the agent sent them (any JSON); shown collapsed. */
  rawInput?: unknown;
  rawOutput?: unknown;
  /** Output captured for `terminal` content, keyed by terminal id (from client-side terminals). */
  terminalOutput?: Record<string, TerminalOutputState>;
}

export interface PlanEntryView {
  readonly type: 'plan';
  entries: PlanEntry[];
}

/** A notice from the agent (`notice` update) or from the client (dropped updates…). */
export interface NoticeEntry {
  readonly type: 'notice';
  severity: 'info' | 'warning' | 'error';
  title: string;
  description?: string;
}

/** A line across the thread: "Reconnected", "Turn interrupted", "History is partial". */
export interface DividerEntry {
  readonly type: 'divider';
  text: string;
  /** Offers Retry: what stopped there (a load cut short) can be tried again. */
  retry?: boolean;
}

/** A permission request from the agent, answered inline. */
export interface PermissionEntry {
  readonly type: 'permission';
  /** Host-side id of the pending request. */
  readonly requestId: string;
  readonly toolCallId: string;
  title: string;
  options: PermissionOption[];
  /** The chosen option id, `cancelled`, or undefined while pending. */
  outcome?: { optionId: string } | 'cancelled';
}

/** How an elicitation was answered: the user's choice, or cancelled for them (turn cancelled, panel closed). */
export type ElicitationOutcome = 'accept' | 'decline' | 'cancel';

/**
 * The agent asks the user for input (`elicitation/create`): a form built from a schema, or a
 * web address to open. Answered inline, like a permission.
 */
export interface ElicitationEntry {
  readonly type: 'elicitation';
  /** Host-side id of the pending request. */
  readonly requestId: string;
  readonly mode: 'form' | 'url';
  /** What the agent says it needs. */
  message: string;
  /** Form mode: the fields to show (read with `formFields`). */
  schema?: ElicitationSchema;
  /** URL mode: the address to open, as the agent sent it (never opened by the webview). */
  url?: string;
  /** Undefined while pending. */
  outcome?: ElicitationOutcome;
  /** URL mode: the agent said the interaction finished (`elicitation/complete`). */
  completed?: boolean;
}

/**
 * What one turn changed in one folder, whoever wrote it (the client's checkpoints before the
 * prompt and after the turn): a row that opens the turn's diff.
 */
export interface ChangesEntry {
  readonly type: 'changes';
  /** The folder, absolute, as the session's cwd or root names it. */
  readonly folder: string;
  /** The turn's id in the folder's checkpoint journal. */
  readonly turn: string;
  readonly files: number;
  readonly added: number;
  readonly deleted: number;
  /** Changed files no tool call of the turn named (a command, the agent's process, the user), at most 50. */
  readonly unnamed: string[];
  readonly unnamedCount: number;
}

export type ThreadEntry =
  | MessageEntry
  | ToolCallEntry
  | PlanEntryView
  | NoticeEntry
  | DividerEntry
  | PermissionEntry
  | ElicitationEntry
  | ChangesEntry;

/** Usage as the agent last reported it. */
export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

/** What the session is doing now. */
/** What a chat waits for while it attaches: the agent starting, or `session/new`, `/load`, `/resume`. */
export type LoadingPhase = 'connect' | 'new' | 'load' | 'resume';

export type ThreadStatus =
  | { state: 'idle' }
  /** `phase` says what is under way (absent: a history load); `received` counts replayed updates. */
  | { state: 'loading'; received: number; phase?: LoadingPhase }
  | { state: 'prompting' }
  /** `signIn`: the agent refused for want of sign-in, so the banner offers "Sign in to …". */
  | { state: 'error'; message: string; canRetry: boolean; signIn?: boolean }
  | { state: 'disconnected'; message: string }
  /** The kept copy of a session nothing attaches (its agent no longer lists it, its folder is gone): `message` says why. */
  | { state: 'readOnly'; message: string };

/** Session-wide state beside the entries. */
export interface ThreadMeta {
  title?: string;
  /** The name the user gave the session: shown instead of the title, which stays the agent's. */
  name?: string;
  commands: AvailableCommand[];
  modes?: SessionModeState;
  configOptions: SessionConfigOption[];
  usage?: Usage;
}

/** A full picture, sent on `ready` and whenever the webview asks again. */
export interface ThreadSnapshot<E = ThreadEntry> {
  entries: E[];
  meta: ThreadMeta;
  status: ThreadStatus;
}

/**
 * One change to the thread, addressed by entry index. The host batches many per message
 * during a replay.
 */
export type ThreadChange<E = ThreadEntry> =
  | { kind: 'entryAdded'; index: number; entry: E }
  | { kind: 'entryChanged'; index: number; entry: E }
  /** Text appended to a message entry (streaming), so a long message is not resent per chunk. */
  | { kind: 'textAppended'; index: number; text: string }
  /**
   * A message entry is done (its `done` is true now) and its text is what was sent for it:
   * the host does not send a long message a second time to say that it ended.
   */
  | { kind: 'messageEnded'; index: number }
  /** Output a terminal printed since its last delta, for the tool call entry that embeds it. */
  | { kind: 'terminalAppended'; index: number; terminalId: string; delta: TerminalOutputDelta }
  /** Every entry was dropped (a reload replays the history again); meta and status stay. */
  | { kind: 'entriesCleared' }
  | { kind: 'metaChanged'; meta: ThreadMeta }
  | { kind: 'statusChanged'; status: ThreadStatus };

/**
 * An entry's height before it is measured: `base` pixels, plus a line of 20 pixels per
 * `charsPerLine` of its `chars` of wrapped text.
 */
export interface HeightShape {
  base: number;
  chars: number;
}

/**
 * An entry the panel holds only as its size: far from where the reader is, it was not sent
 * (a long history costs the webview what is on screen, not megabytes). The webview asks for it
 * when it comes near the viewport, and fills the rest in while idle.
 */
export interface EntryStub {
  type: 'stub';
  height: HeightShape;
}

/** An entry as the panel holds it. */
export type PanelEntry = ThreadEntry | EntryStub;
/**
 * Stubs for the entries added at `index`, `index + 1`, …: two numbers each, the `base` and
 * `chars` of its height shape. A replay adds thousands of entries a second far from the
 * reader; one array of numbers costs the webview far less to receive than an object each.
 */
export interface StubsAdded {
  kind: 'stubsAdded';
  index: number;
  shapes: number[];
}
export type PanelChange = ThreadChange<PanelEntry> | StubsAdded;
/** Stubs of consecutive entries in a snapshot: two numbers each, as {@link StubsAdded}'s. */
export interface StubRun {
  type: 'stubs';
  shapes: number[];
}
/**
 * A snapshot as it is sent: runs of stubs packed (a 19,000-entry history opened at a message is
 * 19,000 stubs, a megabyte as objects, a fifth of that as numbers). {@link unpackEntries} makes
 * the panel's entries of it.
 */
export type PanelSnapshot = Omit<ThreadSnapshot<PanelEntry>, 'entries'> & { entries: (PanelEntry | StubRun)[] };

/** The entries with each run of stubs packed into one {@link StubRun}. */
export function packEntries(entries: readonly PanelEntry[]): (PanelEntry | StubRun)[] {
  const out: (PanelEntry | StubRun)[] = [];
  let run: StubRun | undefined;
  for (const entry of entries) {
    if (entry.type !== 'stub') {
      out.push(entry);
      run = undefined;
    } else if (run) run.shapes.push(entry.height.base, entry.height.chars);
    else out.push((run = { type: 'stubs', shapes: [entry.height.base, entry.height.chars] }));
  }
  return out;
}

/** The entries a packed snapshot holds, each stub on its own; anything not a run is kept as it came. */
export function unpackEntries(packed: readonly (PanelEntry | StubRun)[]): PanelEntry[] {
  const out: PanelEntry[] = [];
  for (const item of packed) {
    if (item?.type !== 'stubs') {
      out.push(item);
      continue;
    }
    const shapes = Array.isArray(item.shapes) ? item.shapes : [];
    for (let k = 0; k + 1 < shapes.length; k += 2)
      out.push({ type: 'stub', height: { base: shapes[k]!, chars: shapes[k + 1]! } });
  }
  return out;
}
