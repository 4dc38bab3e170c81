import * as vscode from 'vscode';
import { sessionKey } from '../agent/sessionKey';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { ChatActivity, ChatStatuses } from '../chat/status';
import { shownName, type ShownName } from '../sessions/display';
import type { SessionMarks } from '../sessions/marks';
import type { SessionRow } from '../sessions/rows';
import type { SessionList } from '../sessions/sessionList';
import { visibleRows, type VisibleRows } from '../sessions/visibleRows';
import { setContext } from './contextKeys';
import { badHideSetting } from './messages';
import type { SettingsService } from './settings';

/** What changed: some sessions of an agent, or (no agent) everything shown. */
export interface DecorChange {
  readonly agentId?: string;
  readonly sessionIds?: readonly string[];
}

/** Whether a session's chat is open in this window. */
export interface OpenCheck {
  isOpen(agentId: string, sessionId: string): boolean;
}

/** How each activity shows on a row: an icon and a sentence for the tooltip. */
export const ACTIVITY: Record<Exclude<ChatActivity, 'idle'>, { icon: vscode.ThemeIcon; words: string }> = {
  needsInput: {
    icon: new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('list.warningForeground')),
    words: 'Needs your input: a question or a permission waits in its chat.',
  },
  running: { icon: new vscode.ThemeIcon('loading~spin'), words: 'Running: a turn is in progress.' },
  failed: {
    icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
    words: 'Failed: the last turn, or opening the session, failed.',
  },
  unseen: {
    icon: new vscode.ThemeIcon('circle-filled', new vscode.ThemeColor('notificationsInfoIcon.foreground')),
    words: 'Finished while its chat was hidden: not seen yet.',
  },
};

/**
 * What the views add to the agent's rows, in one place for the Sessions tree and Resume
 * Session: the user's names, the sessions archived on this side, the hide rules and whether
 * hidden rows show, and the activity of open chats. Fires when any of it changes.
 */
export class SessionDecor extends Disposable {
  private readonly emitter = this.register(new Emitter<DecorChange>());
  readonly onDidChange = this.emitter.event;
  private showingHidden = false;
  private shownErrors = '';
  /**
   * Sessions created (or forked) in this window, or that ran a turn here: never hidden, even
   * while the agent's list still says nobody wrote in them.
   */
  private readonly madeHere = new Set<string>();

  constructor(
    readonly marks: SessionMarks,
    readonly statuses: ChatStatuses,
    private readonly settings: SettingsService,
    private readonly chats: OpenCheck,
  ) {
    super();
    this.register(marks.onDidChange((e) => this.emitter.fire(e)));
    this.register(
      statuses.onDidChange(({ agentId, sessionId }) => {
        if (statuses.activity(agentId, sessionId) === 'running') this.madeHere.add(sessionKey(agentId, sessionId));
        this.emitter.fire({ agentId, sessionIds: [sessionId] });
      }),
    );
    this.register(
      settings.onDidChange(() => {
        this.reportHideErrors();
        this.emitter.fire({});
      }),
    );
    setContext('acp.showingHidden', false);
    this.reportHideErrors();
  }

  /** A session was created in this window. */
  markCreated(agentId: string, sessionId: string): void {
    this.madeHere.add(sessionKey(agentId, sessionId));
  }

  /** The rows the rules hide show too. */
  get showHidden(): boolean {
    return this.showingHidden;
  }

  setShowHidden(value: boolean): void {
    if (value === this.showingHidden) return;
    this.showingHidden = value;
    setContext('acp.showingHidden', value);
    this.emitter.fire({});
  }

  /** The rows of a list a view shows, and how many the rules hide. */
  visible(list: SessionList, showHidden = this.showingHidden): VisibleRows {
    const agentId = list.agentId;
    return visibleRows(list.items, {
      rules: this.settings.value.hide,
      showHidden,
      isArchived: (id) => this.marks.isArchived(agentId, id),
      keep: (id) =>
        this.marks.nameOf(agentId, id) !== undefined ||
        this.madeHere.has(sessionKey(agentId, id)) ||
        this.chats.isOpen(agentId, id),
    });
  }

  /** The name a row shows: the user's when there is one. */
  name(agentId: string, row: SessionRow): ShownName {
    return shownName(row, this.marks.nameOf(agentId, row.sessionId));
  }

  activity(agentId: string, sessionId: string): ChatActivity {
    return this.statuses.activity(agentId, sessionId);
  }

  /** A bad part of `acp.sessions.hide` is said once per window, with a way to the setting; the rest still applies. */
  private reportHideErrors(): void {
    const errors = this.settings.value.hide.errors;
    const key = errors.join('\n');
    if (key === this.shownErrors) return;
    this.shownErrors = key;
    if (errors.length === 0) return;
    badHideSetting(errors);
  }
}
