import type { LogOutputChannel } from 'vscode';
import { Terminals, type TerminalRef } from '../agent/terminals';
import type { AgentConfig } from '../agent/types';
import type { ChatPanels } from './chatPanels';

const OUTPUT_EVERY_MS = 100;

/**
 * The terminals one agent process may run, with their output shown live under the tool call
 * that embeds them (at most ten updates a second per terminal; the exit always shows).
 */
export function agentTerminals(config: AgentConfig, log: LogOutputChannel, chats: () => ChatPanels | undefined): Terminals {
  const terminals = new Terminals({ logger: log, allowTerminal: () => config.allowTerminals !== false });
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const show = (ref: TerminalRef) => {
    timers.delete(ref.terminalId);
    let out;
    try {
      out = terminals.output(ref);
    } catch {
      return; // released meanwhile
    }
    chats()?.terminalOutput(config.id, ref.sessionId, ref.terminalId, {
      output: out.output,
      truncated: out.truncated,
      exitCode: out.exitStatus?.exitCode ?? undefined,
    });
  };
  terminals.onOutput((e) => {
    if (!timers.has(e.terminalId)) timers.set(e.terminalId, setTimeout(() => show(e), OUTPUT_EVERY_MS));
  });
  terminals.onExit((e) => {
    clearTimeout(timers.get(e.terminalId));
    show(e);
  });
  const closed = chats()?.onDidCloseSession(({ agentId, sessionId }) => {
    if (agentId === config.id) terminals.releaseSession(sessionId);
  });
  if (closed) terminals.register(closed);
  return terminals;
}
