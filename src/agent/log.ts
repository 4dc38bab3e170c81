/** How much of the JSON-RPC traffic the log shows (`acp.trace`). */
export type TraceLevel = 'off' | 'messages' | 'verbose';

/**
 * Where the core writes its log. Shaped like `vscode.LogOutputChannel`, so the UI passes the
 * "ACP" channel straight in; tests pass a collecting or silent logger.
 */
export interface Logger {
  /**
   * The lowest level shown, numbered as `vscode.LogLevel` (0 off, 1 trace … 5 error); a
   * `LogOutputChannel` has it. Absent: everything is kept.
   */
  readonly logLevel?: number;
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

export const silentLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** A logger that prefixes each line with a component tag, e.g. `[claude]`. */
export function tagged(logger: Logger, tag: string): Logger {
  const p = `[${tag}] `;
  return {
    get logLevel() {
      return logger.logLevel;
    },
    trace: (m) => logger.trace(p + m),
    debug: (m) => logger.debug(p + m),
    info: (m) => logger.info(p + m),
    warn: (m) => logger.warn(p + m),
    error: (m) => logger.error(typeof m === 'string' ? p + m : `${p}${m.message}`),
  };
}

/** Collects log lines in memory (tests, and the bounded ring buffer behind error reports). */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  constructor(private readonly max = 1000) {}
  private push(level: string, m: string | Error): void {
    this.lines.push(`${level} ${typeof m === 'string' ? m : m.message}`);
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  trace(m: string): void {
    this.push('trace', m);
  }
  debug(m: string): void {
    this.push('debug', m);
  }
  info(m: string): void {
    this.push('info', m);
  }
  warn(m: string): void {
    this.push('warn', m);
  }
  error(m: string | Error): void {
    this.push('error', m);
  }
}

/** `vscode.LogLevel.Trace`: below it (Off) or above it, a channel hides `acp.trace` lines. */
const TRACE = 1;
const LEVEL_NAMES = ['Off', 'Trace', 'Debug', 'Info', 'Warning', 'Error'];

/**
 * What to tell a user who turned `acp.trace` on while the "ACP" channel hides trace lines
 * (its level is Info by default); undefined when the traffic will show.
 */
export function traceHint(trace: TraceLevel, logLevel: number | undefined): string | undefined {
  if (trace === 'off' || logLevel === undefined || logLevel === TRACE) return undefined;
  const level = LEVEL_NAMES[logLevel] ?? String(logLevel);
  return (
    `acp.trace is "${trace}", but the "ACP" output channel's log level is ${level}, which hides the traffic: ` +
    'run "Developer: Set Log Level…", choose "ACP", then "Trace" (or use the gear in the Output view).'
  );
}

/** Says {@link traceHint} once each time tracing is turned on, not on every settings change. */
export class TraceHint {
  private was: TraceLevel = 'off';

  check(trace: TraceLevel, logger: Logger): void {
    const turnedOn = this.was === 'off' && trace !== 'off';
    this.was = trace;
    if (!turnedOn) return;
    const hint = traceHint(trace, logger.logLevel);
    if (hint) logger.info(hint);
  }
}
