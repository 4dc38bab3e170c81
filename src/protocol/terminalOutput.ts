/**
 * A client-side terminal's output as the chat shows it, and the deltas that keep it current.
 * The host sends only what a command printed since its last delta (never the whole output ten
 * times a second); host and webview apply deltas the same way, so both hold the same text.
 * Shared by both sides: no vscode, no DOM, no node.
 */

/** The newest output is kept up to this many characters; what came before is marked cut. */
export const TERMINAL_VIEW_CHARS = 20_000;

/** A terminal's output under the tool call that embeds it. */
export interface TerminalOutputState {
  output: string;
  /** Earlier output was dropped (by the cap here, or before it reached the chat). */
  truncated: boolean;
  /** Set once the command ended: its exit code, or null when a signal ended it. */
  exitCode?: number | null;
  /** The signal that ended the command, if one did. */
  signal?: string | null;
}

/** What changed in a terminal's output since the last delta. */
export interface TerminalOutputDelta {
  /** Output printed since the last delta; with `reset`, all that is to be shown. */
  text: string;
  /** Replace what is shown rather than append (more arrived than is kept: the front was cut). */
  reset: boolean;
  /** Output before `text` was dropped. */
  truncated: boolean;
  /** Present once the command ended. */
  exitCode?: number | null;
  signal?: string | null;
}

/** The last `max` characters of `text`, never starting inside a surrogate pair. */
export function keepTail(text: string, max = TERMINAL_VIEW_CHARS): string {
  if (text.length <= max) return text;
  let from = text.length - max;
  const code = text.charCodeAt(from);
  if (code >= 0xdc00 && code <= 0xdfff) from++;
  return text.slice(from);
}

/** A new state with the delta applied; `state` is not changed (copies may share it). */
export function applyTerminalDelta(
  state: TerminalOutputState | undefined,
  delta: TerminalOutputDelta,
): TerminalOutputState {
  const joined = delta.reset || !state ? delta.text : state.output + delta.text;
  const output = keepTail(joined);
  const next: TerminalOutputState = {
    output,
    truncated: output.length < joined.length || delta.truncated || (!delta.reset && !!state?.truncated),
  };
  const exitCode = delta.exitCode !== undefined ? delta.exitCode : state?.exitCode;
  const signal = delta.signal !== undefined ? delta.signal : state?.signal;
  if (exitCode !== undefined) next.exitCode = exitCode;
  if (signal !== undefined) next.signal = signal;
  return next;
}

/** Joins two deltas sent one after the other into one with the same effect. */
export function mergeTerminalDeltas(first: TerminalOutputDelta, next: TerminalOutputDelta): TerminalOutputDelta {
  const merged: TerminalOutputDelta = next.reset
    ? { ...next }
    : { text: keepTail(first.text + next.text), reset: first.reset, truncated: first.truncated || next.truncated };
  if (!next.reset && first.text.length + next.text.length > TERMINAL_VIEW_CHARS) {
    // The front of the joined text was cut: what is shown must be replaced by it.
    merged.reset = true;
    merged.truncated = true;
  }
  const exitCode = next.exitCode !== undefined ? next.exitCode : first.exitCode;
  const signal = next.signal !== undefined ? next.signal : first.signal;
  if (exitCode !== undefined) merged.exitCode = exitCode;
  if (signal !== undefined) merged.signal = signal;
  return merged;
}
