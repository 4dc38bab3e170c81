import type { Logger } from '../agent/log';
import { Terminals, type TerminalRef, type TerminalsOptions } from '../agent/terminals';
import type { ShellSetting } from '../agent/shells';
import type { AgentConfig } from '../agent/types';
import { keepTail, TERMINAL_VIEW_CHARS, type TerminalOutputDelta } from '../protocol/terminalOutput';
import type { OpenSessions } from './openSessions';

const OUTPUT_EVERY_MS = 100;

/** Output printed since the last delta was sent, cut to what the chat keeps. */
interface Pending {
  ref: TerminalRef;
  text: string;
  /** More than the chat keeps arrived: the delta replaces what is shown. */
  cut: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/** Terminals that say when the agent releases one, so the chat can forget it. */
class ShownTerminals extends Terminals {
  constructor(
    options: TerminalsOptions,
    private readonly released: (ref: TerminalRef) => void,
  ) {
    super(options);
  }

  override release(ref: TerminalRef): void {
    super.release(ref);
    this.released(ref);
  }
}

/**
 * The terminals one agent process may run, with their output shown live under the tool call
 * that embeds it: at most ten deltas a second per terminal, each only what the command printed
 * since the last one (and a reset when more arrived than the chat keeps); the exit always shows.
 */
export function agentTerminals(
  config: AgentConfig,
  log: Logger,
  sessions: Pick<OpenSessions, 'terminalOutput' | 'terminalReleased' | 'onDidCloseSession'>,
  /** `acp.terminal.shell` (Windows). */
  shell?: () => ShellSetting,
): Terminals {
  const pending = new Map<string, Pending>();
  const send = (ref: TerminalRef, exit?: Pick<TerminalOutputDelta, 'exitCode' | 'signal'>) => {
    const p = pending.get(ref.terminalId);
    clearTimeout(p?.timer);
    pending.delete(ref.terminalId);
    if (!p?.text && !exit) return;
    const delta: TerminalOutputDelta = {
      text: p?.text ?? '',
      reset: p?.cut ?? false,
      truncated: p?.cut ?? false,
      ...exit,
    };
    sessions.terminalOutput(config.id, ref.sessionId, ref.terminalId, delta);
  };
  const terminals = new ShownTerminals(
    { logger: log, allowTerminal: () => config.allowTerminals !== false, shell },
    (ref) => {
      send(ref);
      sessions.terminalReleased(config.id, ref.sessionId, ref.terminalId);
    },
  );
  terminals.onOutput((e) => {
    let p = pending.get(e.terminalId);
    if (!p)
      pending.set(
        e.terminalId,
        (p = { ref: { sessionId: e.sessionId, terminalId: e.terminalId }, text: '', cut: false }),
      );
    p.text += e.chunk;
    if (p.text.length > TERMINAL_VIEW_CHARS) {
      p.text = keepTail(p.text);
      p.cut = true;
    }
    p.timer ??= setTimeout(() => send(p.ref), OUTPUT_EVERY_MS);
  });
  terminals.onExit((e) => send(e, { exitCode: e.exitStatus.exitCode ?? null, signal: e.exitStatus.signal ?? null }));
  terminals.register(
    sessions.onDidCloseSession(({ agentId, sessionId }) => {
      if (agentId === config.id) terminals.releaseSession(sessionId);
    }),
  );
  return terminals;
}
