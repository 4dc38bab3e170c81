/**
 * Where the core writes its log. Shaped like `vscode.LogOutputChannel`, so the UI passes the
 * "ACP" channel straight in; tests pass a collecting or silent logger.
 */
export interface Logger {
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
  trace(m: string): void { this.push('trace', m); }
  debug(m: string): void { this.push('debug', m); }
  info(m: string): void { this.push('info', m); }
  warn(m: string): void { this.push('warn', m); }
  error(m: string | Error): void { this.push('error', m); }
}
