/**
 * The chat thread: a reducer from `session/update` notifications to the entries the webview
 * renders. Plain TypeScript with an event, so it is tested in Node and the panel only
 * translates its changes (Zed's `acp_thread` keeps the same split).
 */
import type { ContentBlock, PermissionOption, SessionUpdate, ToolCallStatus } from '@agentclientprotocol/sdk';
import { Emitter } from '../base/event';
import type { Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type {
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
import { compactionNotice, patchCompaction } from './compaction';
import type { Compaction } from './compaction';
import { parseSessionUpdate } from './parseUpdate';

/** What the thread needs from its owner. */
export interface ThreadOptions {
  /** Receives one line per skipped update (the reason, never the update's content). */
  log?: (message: string) => void;
}

/** A permission request as the controller hands it to the thread. */
export interface PermissionRequestView {
  requestId: string;
  toolCallId: string;
  title: string;
  options: PermissionOption[];
}

const toolKinds = new Set<string>([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
const toolStatuses = new Set<string>(['pending', 'in_progress', 'completed', 'failed']);
const isOpenStatus = (s: ToolCallStatus) => s === 'pending' || s === 'in_progress';
/** Session-wide updates: they may precede a prompt's echo, so they leave the echo window open. */
const metaKinds = new Set<string>([
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
]);

type ToolFields = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

/** A copy that later mutation of the live entry cannot reach; strings are shared, not copied. */
function cloneEntry(e: ThreadEntry): ThreadEntry {
  switch (e.type) {
    case 'user':
    case 'agent':
    case 'thought':
      return { ...e, attachments: e.attachments.slice() };
    case 'tool':
      return e.terminalOutput ? { ...e, terminalOutput: { ...e.terminalOutput } } : { ...e };
    default:
      return { ...e };
  }
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

  private readonly changeEmitter = new Emitter<ThreadChange[]>();
  /** Fires once per call that changed something, with that call's changes in order. */
  readonly onDidChange: Event<ThreadChange[]> = this.changeEmitter.event;

  private readonly log: (message: string) => void;
  private changes: ThreadChange[] = [];
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
  private readonly compactions = new Map<string, Compaction>();

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
    this.changes.push({ kind: 'statusChanged', status });
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
    this.changes.push({ kind: 'terminalAppended', index, terminalId, delta: { ...delta } });
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
   */
  markInterrupted(): void {
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
    this.push({ type: 'divider', text: 'Turn interrupted' });
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
    this.changes = [{ kind: 'entriesCleared' }];
    this.fire();
  }

  /** A copy of the whole thread for a webview that (re)attaches. */
  snapshot(): ThreadSnapshot {
    return { entries: this.entries.map(cloneEntry), meta: { ...this.meta }, status: this.status };
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private reduce(u: SessionUpdate): void {
    if (u.sessionUpdate !== 'user_message_chunk' && !metaKinds.has(u.sessionUpdate)) this.echoWindow = false;
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
      case 'available_commands_update':
        this.meta.commands = u.availableCommands;
        return this.metaChanged();
      case 'current_mode_update':
        this.meta.modes = { ...(this.meta.modes ?? { availableModes: [] }), currentModeId: u.currentModeId };
        return this.metaChanged();
      case 'config_option_update':
        this.meta.configOptions = u.configOptions;
        return this.metaChanged();
      case 'session_info_update':
        // Absent means unchanged, null clears (SessionInfoUpdate).
        if (u.title === undefined || (u.title ?? undefined) === this.meta.title) return;
        this.meta.title = u.title ?? undefined;
        return this.metaChanged();
      case 'usage_update': {
        // The cost is cumulative and optional: absent keeps the last one, null clears it.
        const cost = u.cost === undefined ? this.meta.usage?.cost : (u.cost ?? undefined);
        this.meta.usage = {
          used: u.used,
          size: u.size,
          ...(cost ? { cost: { amount: cost.amount, currency: cost.currency } } : {}),
        };
        return this.metaChanged();
      }
      case 'notice': {
        const severity = u.severity === 'warning' || u.severity === 'error' ? u.severity : 'info';
        this.push(
          u.description
            ? { type: 'notice', severity, title: u.title, description: u.description }
            : { type: 'notice', severity, title: u.title },
        );
        return;
      }
      case 'compaction_update': {
        const c = this.compactionFor(u.compactionId);
        patchCompaction(c, u);
        return this.renderCompaction(c);
      }
      case 'compaction_summary_chunk': {
        const c = this.compactionFor(u.compactionId);
        if (u.content.type === 'text') c.summary += u.content.text;
        return this.renderCompaction(c);
      }
    }
  }

  private chunk(type: MessageEntry['type'], block: ContentBlock, messageId: string | null | undefined): void {
    const open = this.openMessage >= 0 ? (this.entries[this.openMessage] as MessageEntry) : undefined;
    // ContentChunk: a change of messageId starts a new message; without ids, consecutive chunks of one type join.
    if (open && open.type === type && !(messageId && open.messageId && messageId !== open.messageId)) {
      if (block.type === 'text') {
        if (block.text === '') return;
        open.text += block.text;
        this.changes.push({ kind: 'textAppended', index: this.openMessage, text: block.text });
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
    const kind = u.kind && toolKinds.has(u.kind) ? u.kind : undefined;
    // A status this schema does not know leaves the old one (or pending) rather than dropping the update.
    const status = u.status && toolStatuses.has(u.status) ? u.status : undefined;
    let index = this.toolIndex.get(u.toolCallId);
    if (index === undefined) {
      // Agents may send an update for a call they never announced: show what it has.
      const entry: ToolCallEntry = {
        type: 'tool',
        toolCallId: u.toolCallId,
        title: u.title ?? 'Tool call',
        kind: kind ?? 'other',
        status: status ?? 'pending',
        content: u.content ?? [],
        locations: u.locations ?? [],
      };
      if (u.rawInput != null) entry.rawInput = u.rawInput;
      if (u.rawOutput != null) entry.rawOutput = u.rawOutput;
      index = this.push(entry);
      this.toolIndex.set(u.toolCallId, index);
      if (isOpenStatus(entry.status)) this.openTools.add(index);
      return;
    }
    // ToolCallUpdate: only the fields it carries change; null and absent both mean unchanged.
    const entry = this.entries[index] as ToolCallEntry;
    if (u.title != null) entry.title = u.title;
    if (u.kind) entry.kind = kind ?? 'other';
    if (status) {
      entry.status = status;
      if (isOpenStatus(status)) this.openTools.add(index);
      else this.openTools.delete(index);
    }
    if (u.content != null) entry.content = u.content;
    if (u.locations != null) entry.locations = u.locations;
    if (u.rawInput != null) entry.rawInput = u.rawInput;
    if (u.rawOutput != null) entry.rawOutput = u.rawOutput;
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

  private compactionFor(id: string): Compaction {
    let c = this.compactions.get(id);
    if (!c) {
      // The first notification fixes the compaction's place in the timeline (CompactionUpdate).
      c = { index: this.push({ type: 'notice', severity: 'info', title: '' }), status: 'in_progress', summary: '' };
      this.compactions.set(id, c);
    }
    return c;
  }

  private renderCompaction(c: Compaction): void {
    this.entries[c.index] = compactionNotice(c);
    this.changed(c.index);
  }

  /** Appends an entry; whatever comes after a message ends it. */
  private push(entry: ThreadEntry): number {
    this.closeMessage();
    const index = this.entries.push(entry) - 1;
    this.changes.push({ kind: 'entryAdded', index, entry: cloneEntry(entry) });
    return index;
  }

  private closeMessage(): void {
    if (this.openMessage < 0) return;
    (this.entries[this.openMessage] as MessageEntry).done = true;
    this.changed(this.openMessage);
    this.openMessage = -1;
  }

  private changed(index: number): void {
    this.changes.push({ kind: 'entryChanged', index, entry: cloneEntry(this.entries[index]) });
  }

  private metaChanged(): void {
    this.changes.push({ kind: 'metaChanged', meta: { ...this.meta } });
  }

  private fire(): void {
    if (this.changes.length === 0) return;
    const changes = this.changes;
    this.changes = [];
    this.changeEmitter.fire(changes);
  }
}
