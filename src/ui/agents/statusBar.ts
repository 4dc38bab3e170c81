import * as vscode from 'vscode';
import type { AgentRegistry } from '../../agent/agentHost';
import { summarize } from '../../app/agentStates';
import { shownState } from '../contextKeys';
import { Disposable } from '../../base/lifecycle';

/** One status bar item over every agent: what needs the user first, then how many are ready. */
export class AgentStatusBar extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem('acp.agents', vscode.StatusBarAlignment.Left, 50),
  );

  constructor(private readonly agents: AgentRegistry) {
    super();
    this.item.name = 'ACP Agents';
    this.item.command = 'acp.agentMenu';
    this.register(agents.onDidChangeState(() => this.update()));
    this.register(agents.onDidChangeAgents(() => this.update()));
    this.update();
  }

  private waiting = 0;

  /** How many sessions open in chats wait for the user: said first, as it needs them first. */
  setNeedsInput(count: number): void {
    if (count === this.waiting) return;
    this.waiting = count;
    this.update();
  }

  /** The summary as shown (for tests). */
  get text(): string {
    return this.item.text;
  }

  private update(): void {
    const all = this.agents.all;
    if (all.length === 0) {
      this.item.hide();
      return;
    }
    const { text, tooltip } = summarize(all.map((h) => ({ name: h.config.name, state: shownState(h) })));
    const waiting =
      this.waiting > 0
        ? `${this.waiting} session${this.waiting === 1 ? '' : 's'} need${this.waiting === 1 ? 's' : ''} your input`
        : '';
    this.item.text = waiting ? `$(bell-dot) ${waiting} · ${text}` : text;
    this.item.tooltip = `${waiting ? `${waiting}.\n` : ''}${tooltip}\n\nClick for agent actions`;
    this.item.show();
  }
}
