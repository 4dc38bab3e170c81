import type * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';
import type { ChatSession } from '../../chat/chatSession';
import type { ChatStatuses } from '../../chat/status';
import type { SessionMarks } from '../../sessions/marks';

/**
 * Keeps what the rest of the window knows of one open chat in step with it: its activity for
 * the Sessions view, Resume Session, the badge and the status bar (reported on every change of
 * its turn, its waiting requests or its visibility), and the name the user gave its session
 * (shown in the tab and the header instead of the agent's title).
 */
export class ChatWatch extends Disposable {
  private id: string | undefined;

  constructor(
    private readonly session: ChatSession,
    private readonly panel: vscode.WebviewPanel,
    private readonly statuses: ChatStatuses,
    private readonly marks: SessionMarks,
  ) {
    super();
    const agentId = session.target.agentId;
    this.register(session.onDidCreateSession(() => this.update()));
    this.register(session.onDidChangeCapabilities(() => this.report()));
    this.register(
      session.thread.onDidChange((changes) => {
        // Streamed text (or its end) changes nothing a row shows; a card or a status does.
        if (
          changes.some((c) => c.kind !== 'textAppended' && c.kind !== 'messageEnded' && c.kind !== 'terminalAppended')
        )
          this.report();
      }),
    );
    this.register(panel.onDidChangeViewState(() => this.id && statuses.visible(agentId, this.id, panel.visible)));
    this.register(
      marks.onDidChange((e) => {
        if (e.agentId === agentId && this.id && e.sessionIds.includes(this.id)) this.applyName();
      }),
    );
    this.register({ dispose: () => this.id && statuses.closed(agentId, this.id) });
    this.update();
  }

  private update(): void {
    const id = this.session.sessionId;
    if (!id || id === this.id) return this.report();
    this.id = id;
    this.statuses.opened(this.session.target.agentId, id, this.panel.visible);
    this.applyName();
    this.report();
  }

  /**
   * Reports once per burst of changes, after the code that made them has finished: a
   * permission card is in the thread a moment before its request counts as waiting.
   */
  private report(): void {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      if (!this.isDisposed) this.reportNow();
    });
  }

  private queued = false;

  private reportNow(): void {
    if (!this.id) return;
    const s = this.session;
    this.statuses.report(s.target.agentId, this.id, {
      running: s.isPrompting,
      waiting: s.pendingRequests,
      failed: s.thread.status.state === 'error',
    });
  }

  private applyName(): void {
    if (!this.id) return;
    const name = this.marks.nameOf(this.session.target.agentId, this.id);
    if (name !== this.session.thread.meta.name) this.session.thread.updateMeta({ name });
  }
}
