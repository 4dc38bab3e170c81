/**
 * The chat thread: a reducer from `session/update` notifications to the entries the webview
 * renders. Plain TypeScript with an event, so it is tested in Node and the panel only
 * translates its changes (Zed's `acp_thread` keeps the same split).
 */
import type { ContentBlock, PermissionOption, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type {
  ChangesEntry,
  ElicitationEntry,
  MessageEntry,
  NoticeEntry,
  PermissionEntry,
  PlanEntryView,
  ThreadChange,
  ThreadEntry,
  ThreadMeta,
  ThreadSnapshot,
  ThreadStatus,
  ToolCallEntry,
} from '../protocol/entries';
import { applyTerminalDelta, type TerminalOutputDelta, type TerminalOutputState } from '../protocol/terminalOutput';
import { boundedUpdate } from './bounded';
import { Compactions } from './compaction';
import { parseSessionUpdate } from '../agent/parseUpdate';
import { cloneEntry, ThreadChanges } from './threadChanges';
import { applyMetaUpdate, isMetaUpdate } from './threadMeta';
import { isOpenStatus, mergeToolUpdate, newToolEntry, type ToolFields } from './toolCalls';

/** A permission request as the controller hands it to the thread. */
export interface PermissionRequestView {
  requestId: string;
  toolCallId: string;
  title: string;
  options: PermissionOption[];
}

/** What the thread needs from its owner. */
export interface ThreadOptions {
  /** Receives one line per skipped update (the reason, never the update's content). */
  log?: (message: string) => void;
}

/**
 * The entries, meta and status of one session's chat. Every change fires `onDidChange` with the
 * changes of that one call; the entries inside the changes are copies, so a batch queued for the
 * webview does not shift under later updates.
 *
 * Echo rule: after `addUserPrompt`, `user_message_chunk`s are taken as the agent echoing that
 * prompt and dropped until the agent adds anything else to the thread (a message, thought, tool
 * call, plan, notice) or the turn ends. Some agents echo the prompt before replying, most do not;
 * meta updates (commands, usage) may come first and do not end the echo window. During a load no
 * prompt is added, so replayed user messages are never dropped.
 *
 * Plan rule: the agent sends the whole plan each time, so a plan replaces the current turn's plan
 * entry in place; the first plan after a new user message starts a new entry.
 */
export class Thread implements IDisposable {
  /** Live entries; read them, change them only through the methods. */
  readonly entries: ThreadEntry[] = [];
  meta: ThreadMeta = { commands: [], configOptions: [] };
  status: ThreadStatus = { state: 'idle' };
  /** Updates skipped as malformed or unknown since the thread was made. */
  skipped = 0;
  /** The `updatedAt` of the agent's last `session_info_update` that had one, and how many had one. */
  reported: { updatedAt: string | null; count: number } = { updatedAt: null, count: 0 };

  private readonly out = new ThreadChanges();
  /** Fires once per call that changed something, with that call's changes in order. */
  readonly onDidChange: Event<ThreadChange[]> = this.out.onDidChange;

  private readonly log: (message: string) => void;
  /** Index of the message still taking chunks; it is always the last entry, or -1. */
  private openMessage = -1;
  private planIndex = -1;
  private echoWindow = false;
  private readonly toolIndex = new Map<string, number>();
  /** Tool calls still pending or in progress, for `markInterrupted` without a scan. */
  private readonly openTools = new Set<number>();
  private readonly pendingPermissions = new Map<string, number>();
  /** Elicitation entries by request id, until answered (URL ones until completed too). */
  private readonly elicitations = new Map<string, number>();
  private readonly compactions = new Compactions(
    (notice) => this.push(notice),
    (index, notice) => {
      this.entries[index] = notice;
      this.changed(index);
    },
  );

  constructor(options: ThreadOptions = {}) {
    this.log = options.log ?? (() => {});
  }

  /** Reduces one `SessionUpdate` (the `update` of a `session/update`). Bad input is counted, never thrown. */
  apply(update: unknown): void {
    // Bounded first: free-form JSON nested thousands deep would break every message to the panel.
    const parsed = parseSessionUpdate(boundedUpdate(update));
    if (typeof parsed === 'string') {
      this.skipped++;
      this.log(`Skipped a session update (${this.skipped} so far): ${parsed}`);
      return;
    }
    try {
      this.reduce(parsed);
    } catch (error) {
      // Nothing above should throw once the update parsed; if it does, one update is lost, not the session.
      this.skipped++;
      this.log(`Failed to apply a ${parsed.sessionUpdate} update (${this.skipped} skipped so far): ${String(error)}`);
    }
    this.fire();
  }

  setStatus(status: ThreadStatus): void {
    this.status = status;
    this.out.push({ kind: 'statusChanged', status });
    this.fire();
  }

  /** Merges session-wide state from a response (`session/new`, `session/load` modes and config options). */
  updateMeta(patch: Partial<ThreadMeta>): void {
    this.meta = { ...this.meta, ...boundedUpdate(patch) };
    this.metaChanged();
    this.fire();
  }

  /** `retry`: the divider offers Retry (what failed there can be tried again). */
  addDivider(text: string, opts: { retry?: boolean } = {}): number {
    const index = this.push(opts.retry ? { type: 'divider', text, retry: true } : { type: 'divider', text });
    this.fire();
    return index;
  }

  addNotice(severity: NoticeEntry['severity'], title: string, description?: string): number {
    const index = this.push(
      description === undefined
        ? { type: 'notice', severity, title }
        : { type: 'notice', severity, title, description },
    );
    this.fire();
    return index;
  }

  /** A turn's changes in a folder (see {@link ChangesEntry}). */
  addChanges(entry: Omit<ChangesEntry, 'type'>): number {
    const index = this.push({ type: 'changes', ...entry, unnamed: entry.unnamed.slice() });
    this.fire();
    return index;
  }

  /** Shows the user's prompt at once, before the agent answers; opens the echo window (see the class). */
  addUserPrompt(text: string, attachments: ContentBlock[] = []): number {
    const index = this.push({ type: 'user', text, attachments: attachments.slice(), done: true });
    this.planIndex = -1;
    this.echoWindow = true;
    this.fire();
    return index;
  }

  /** A prompt already shown goes to the agent again: its echo is dropped as for a new one. */
  expectEcho(): void {
    this.echoWindow = true;
  }

  addPermission(request: PermissionRequestView): number {
    const { requestId, toolCallId, title } = request;
    const options = boundedUpdate(request.options);
    const index = this.push({ type: 'permission', requestId, toolCallId, title, options });
    this.pendingPermissions.set(requestId, index);
    this.fire();
    return index;
  }

  /** Records the answer to a pending request; false when it is unknown or already answered. */
  resolvePermission(requestId: string, outcome: { optionId: string } | 'cancelled'): boolean {
    const index = this.pendingPermissions.get(requestId);
    if (index === undefined) return false;
    this.pendingPermissions.delete(requestId);
    (this.entries[index] as PermissionEntry).outcome = outcome;
    this.changed(index);
    this.fire();
    return true;
  }

  /** The tool call's entry, if the thread has one. */
  toolEntry(toolCallId: string): ToolCallEntry | undefined {
    const index = this.toolIndex.get(toolCallId);
    return index === undefined ? undefined : (this.entries[index] as ToolCallEntry);
  }

  /** Shows an elicitation card (its answer is the controller's business: see `Elicitations`). */
  addElicitation(entry: Omit<ElicitationEntry, 'type' | 'outcome' | 'completed'>): number {
    const index = this.push({ type: 'elicitation', ...boundedUpdate(entry) });
    this.elicitations.set(entry.requestId, index);
    this.fire();
    return index;
  }

  /** Records an elicitation's answer or completion; false when the card is gone (the thread started over). */
  updateElicitation(
    requestId: string,
    patch: Pick<ElicitationEntry, 'outcome'> | Pick<ElicitationEntry, 'completed'>,
  ): boolean {
    const index = this.elicitations.get(requestId);
    if (index === undefined) return false;
    const entry = this.entries[index] as ElicitationEntry;
    Object.assign(entry, patch);
    if (entry.outcome !== undefined && (entry.mode === 'form' || entry.outcome !== 'accept' || entry.completed))
      this.elicitations.delete(requestId);
    this.changed(index);
    this.fire();
    return true;
  }

  /** Shows a client-side terminal's output under the tool call that embeds it. */
  setTerminalOutput(toolCallId: string, terminalId: string, output: TerminalOutputState): boolean {
    const index = this.toolIndex.get(toolCallId);
    if (index === undefined) return false;
    const entry = this.entries[index] as ToolCallEntry;
    entry.terminalOutput = { ...entry.terminalOutput, [terminalId]: { ...output } };
    this.changed(index);
    this.fire();
    return true;
  }

  /**
   * Adds what a terminal printed since its last delta. Only the delta goes to the webview:
   * a running command's output would otherwise be resent whole several times a second.
   */
  appendTerminalOutput(toolCallId: string, terminalId: string, delta: TerminalOutputDelta): boolean {
    const index = this.toolIndex.get(toolCallId);
    if (index === undefined) return false;
    const entry = this.entries[index] as ToolCallEntry;
    // A new map and state: copies already handed out (snapshots, queued changes) keep theirs.
    entry.terminalOutput = {
      ...entry.terminalOutput,
      [terminalId]: applyTerminalDelta(entry.terminalOutput?.[terminalId], delta),
    };
    this.out.push({ kind: 'terminalAppended', index, terminalId, delta: { ...delta } });
    this.fire();
    return true;
  }

  /** The prompt response arrived: the last message is final. Open tool calls stay as the agent left them. */
  markTurnEnded(): void {
    this.closeMessage();
    this.echoWindow = false;
    this.fire();
  }

  /**
   * The turn was cancelled or the agent went away: open tool calls become failed and pending
   * permissions cancelled (ACP: a cancelled turn answers every pending request with `cancelled`).
   * The divider says which: "Stopped" after the user's own Stop, "Turn interrupted" otherwise.
   */
  markInterrupted(divider = 'Turn interrupted'): void {
    this.closeMessage();
    this.echoWindow = false;
    for (const index of this.openTools) {
      (this.entries[index] as ToolCallEntry).status = 'failed';
      this.changed(index);
    }
    this.openTools.clear();
    for (const index of this.pendingPermissions.values()) {
      (this.entries[index] as PermissionEntry).outcome = 'cancelled';
      this.changed(index);
    }
    this.pendingPermissions.clear();
    this.push({ type: 'divider', text: divider });
    this.fire();
  }

  /** Drops every entry before a load replays the history again; meta, status and `skipped` stay. */
  reset(): void {
    this.entries.length = 0;
    this.openMessage = -1;
    this.planIndex = -1;
    this.echoWindow = false;
    this.toolIndex.clear();
    this.openTools.clear();
    this.pendingPermissions.clear();
    this.elicitations.clear();
    this.compactions.clear();
    this.out.cleared();
    this.fire();
  }

  /** Shows kept entries as the history of an empty thread (the session library's instant reopen). */
  restore(entries: readonly ThreadEntry[]): void {
    for (const e of entries) this.push(e);
    this.fire();
  }

  /** A copy of the whole thread for a webview that (re)attaches. */
  snapshot(): ThreadSnapshot {
    return { entries: this.entries.map(cloneEntry), meta: { ...this.meta }, status: this.status };
  }

  dispose(): void {
    this.out.dispose();
  }

  private reduce(u: SessionUpdate): void {
    if (isMetaUpdate(u)) {
      if (u.sessionUpdate === 'session_info_update' && u.updatedAt !== undefined)
        this.reported = { updatedAt: u.updatedAt ?? null, count: this.reported.count + 1 };
      if (applyMetaUpdate(this.meta, u)) this.metaChanged();
      return;
    }
    if (u.sessionUpdate !== 'user_message_chunk') this.echoWindow = false;
    switch (u.sessionUpdate) {
      case 'user_message_chunk':
        if (!this.echoWindow) this.chunk('user', u.content, u.messageId);
        return;
      case 'agent_message_chunk':
        return this.chunk('agent', u.content, u.messageId);
      case 'agent_thought_chunk':
        return this.chunk('thought', u.content, u.messageId);
      case 'tool_call':
      case 'tool_call_update':
        return this.tool(u);
      case 'plan':
        return this.plan(u.entries);
      case 'notice': {
        const severity = u.severity === 'warning' || u.severity === 'error' ? u.severity : 'info';
        this.push(
          u.description
            ? { type: 'notice', severity, title: u.title, description: u.description }
            : { type: 'notice', severity, title: u.title },
        );
        return;
      }
      case 'compaction_update':
      case 'compaction_summary_chunk':
        return this.compactions.apply(u);
      default:
        // Every kind is reduced above or is a meta update: a kind added to the SDK fails here.
        return u satisfies never;
    }
  }

  private chunk(type: MessageEntry['type'], block: ContentBlock, messageId: string | null | undefined): void {
    const open = this.openMessage >= 0 ? (this.entries[this.openMessage] as MessageEntry) : undefined;
    // ContentChunk: a change of messageId starts a new message; without ids, consecutive chunks of one type join.
    if (open && open.type === type && !(messageId && open.messageId && messageId !== open.messageId)) {
      if (block.type === 'text') {
        if (block.text === '') return;
        open.text += block.text;
        this.out.push({ kind: 'textAppended', index: this.openMessage, text: block.text });
      } else {
        open.attachments.push(block);
        this.changed(this.openMessage);
      }
      return;
    }
    const entry: MessageEntry = {
      type,
      text: block.type === 'text' ? block.text : '',
      attachments: block.type === 'text' ? [] : [block],
      done: false,
    };
    if (messageId) entry.messageId = messageId;
    if (type === 'user') this.planIndex = -1;
    this.openMessage = this.push(entry);
  }

  private tool(u: ToolFields): void {
    let index = this.toolIndex.get(u.toolCallId);
    if (index === undefined) {
      // Agents may send an update for a call they never announced: show what it has.
      const entry = newToolEntry(u);
      index = this.push(entry);
      this.toolIndex.set(u.toolCallId, index);
      if (isOpenStatus(entry.status)) this.openTools.add(index);
      return;
    }
    const status = mergeToolUpdate(this.entries[index] as ToolCallEntry, u);
    if (status && isOpenStatus(status)) this.openTools.add(index);
    else if (status) this.openTools.delete(index);
    this.changed(index);
  }

  private plan(entries: PlanEntryView['entries']): void {
    if (this.planIndex >= 0) {
      (this.entries[this.planIndex] as PlanEntryView).entries = entries;
      this.changed(this.planIndex);
      return;
    }
    this.planIndex = this.push({ type: 'plan', entries });
  }

  /** Appends an entry; whatever comes after a message ends it. */
  private push(entry: ThreadEntry): number {
    this.closeMessage();
    const index = this.entries.push(entry) - 1;
    this.out.added(index, entry);
    return index;
  }

  private closeMessage(): void {
    if (this.openMessage < 0) return;
    (this.entries[this.openMessage] as MessageEntry).done = true;
    this.out.push({ kind: 'messageEnded', index: this.openMessage });
    this.openMessage = -1;
  }

  private changed(index: number): void {
    this.out.changed(index, this.entries[index]);
  }

  private metaChanged(): void {
    this.out.meta(this.meta);
  }

  private fire(): void {
    this.out.fire();
  }
}
