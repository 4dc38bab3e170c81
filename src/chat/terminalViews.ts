/**
 * Where each client-side terminal of a session shows its output: under the tool call that
 * embeds it. The agent may name the terminal in a tool call after output began, so output of
 * a terminal no tool call names yet is kept (capped) and placed when one does. A released
 * terminal prints nothing more: what is kept for it goes.
 */
import type { IDisposable } from '../base/lifecycle';
import { applyTerminalDelta, type TerminalOutputDelta, type TerminalOutputState } from '../protocol/terminalOutput';
import type { Thread } from './thread';

export class TerminalViews implements IDisposable {
  /** Output of terminals no tool call names yet. */
  private readonly unplaced = new Map<string, TerminalOutputState>();
  /** The tool call that shows each placed terminal. */
  private readonly placed = new Map<string, string>();
  private watch: IDisposable | undefined;

  constructor(private readonly thread: Thread) {}

  /** Terminals this session still holds something for (placed or waiting). */
  get size(): number {
    return new Set([...this.unplaced.keys(), ...this.placed.keys()]).size;
  }

  show(terminalId: string, delta: TerminalOutputDelta): void {
    const toolCallId = this.placed.get(terminalId) ?? this.findToolCall(terminalId);
    if (toolCallId !== undefined) {
      const waiting = this.unplaced.get(terminalId);
      const shown = waiting
        ? this.thread.setTerminalOutput(toolCallId, terminalId, applyTerminalDelta(waiting, delta))
        : this.thread.appendTerminalOutput(toolCallId, terminalId, delta);
      if (shown) {
        this.unplaced.delete(terminalId);
        this.placed.set(terminalId, toolCallId);
        return;
      }
      // The thread started over (a reload): the tool call is gone, wait for it again.
      this.placed.delete(terminalId);
    }
    this.unplaced.set(terminalId, applyTerminalDelta(this.unplaced.get(terminalId), delta));
    this.watch ??= this.thread.onDidChange((changes) => {
      for (const c of changes) {
        if ((c.kind === 'entryAdded' || c.kind === 'entryChanged') && c.entry.type === 'tool')
          this.place(c.entry.toolCallId, c.entry.content);
      }
    });
  }

  /** The agent released the terminal: nothing more will come for it. */
  release(terminalId: string): void {
    this.unplaced.delete(terminalId);
    this.placed.delete(terminalId);
    if (this.unplaced.size === 0) this.stopWatching();
  }

  dispose(): void {
    this.unplaced.clear();
    this.placed.clear();
    this.stopWatching();
  }

  private place(toolCallId: string, content: readonly { type: string; terminalId?: string }[]): void {
    for (const c of content) {
      if (c.type !== 'terminal' || c.terminalId === undefined) continue;
      const waiting = this.unplaced.get(c.terminalId);
      if (!waiting) continue;
      this.unplaced.delete(c.terminalId);
      this.placed.set(c.terminalId, toolCallId);
      this.thread.setTerminalOutput(toolCallId, c.terminalId, waiting);
    }
    if (this.unplaced.size === 0) this.stopWatching();
  }

  private findToolCall(terminalId: string): string | undefined {
    const entries = this.thread.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.type === 'tool' && e.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId))
        return e.toolCallId;
    }
    return undefined;
  }

  private stopWatching(): void {
    this.watch?.dispose();
    this.watch = undefined;
  }
}
