import { Disposable, type IDisposable } from '../base/lifecycle';
import type { TerminalOutputView, Thread } from './thread';

/**
 * Output of the client-side terminals a session's agent created, shown under the tool call
 * that embeds each. The tool call may name the terminal after output began: the latest output
 * is kept and applied when it does.
 */
export class TerminalViews extends Disposable {
  private readonly views = new Map<string, TerminalOutputView>();
  private watch: IDisposable | undefined;

  constructor(private readonly thread: Thread) {
    super();
  }

  show(terminalId: string, view: TerminalOutputView): void {
    this.views.set(terminalId, view);
    this.watch ??= this.register(
      this.thread.onDidChange((changes) => {
        for (const c of changes) {
          if ((c.kind === 'entryAdded' || c.kind === 'entryChanged') && c.entry.type === 'tool') this.apply(c.index);
        }
      }),
    );
    const entries = this.thread.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.type === 'tool' && e.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId)) {
        this.thread.setTerminalOutput(e.toolCallId, terminalId, view);
        return;
      }
    }
  }

  private apply(index: number): void {
    const entry = this.thread.entries[index];
    if (entry?.type !== 'tool' || !entry.content.some((c) => c.type === 'terminal')) return;
    for (const c of entry.content) {
      if (c.type !== 'terminal') continue;
      const view = this.views.get(c.terminalId);
      const shown = entry.terminalOutput?.[c.terminalId];
      if (view && (!shown || shown.output !== view.output || shown.exitCode !== view.exitCode)) {
        this.thread.setTerminalOutput(entry.toolCallId, c.terminalId, view);
      }
    }
  }
}
