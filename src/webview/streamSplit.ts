/**
 * Splits a message that is still streaming into finished Markdown blocks and an open tail, so
 * the webview parses each finished block once and only the open tail again as it grows. A
 * block is finished at a blank line or a closing code fence, never inside an open fence; an
 * open block that grows past {@link MAX_OPEN} characters (a giant paragraph, a long list) is
 * cut at its next line break, so the tail stays small. Scanning is incremental: each appended
 * character is looked at once.
 *
 * The split can differ from a whole-message parse (a list item's indented continuation after a
 * blank line, reference links defined later, a paragraph cut for length); a message is parsed
 * whole once it is done, unless it is too long to parse in one go (see streaming.ts).
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** The most an open block outside a fence may hold before it is cut at a line break. */
export const MAX_OPEN = 2048;

export class StreamSplitter {
  private text = '';
  /** The line being written: only it is scanned when a newline arrives, never the whole text. */
  private line = '';
  private fence: string | undefined;
  private fenceAt = 0;
  private fenceLine = -1;
  private fenceInfo = '';
  private stable = 0;
  /** Every end of a finished block, in order (`stable` is the last). */
  private readonly ends: number[] = [];

  /** The text so far. */
  get value(): string {
    return this.text;
  }

  /** End of the finished blocks: `value.slice(0, stableEnd)` is complete Markdown. */
  get stableEnd(): number {
    return this.stable;
  }

  /**
   * The code fence the tail is, when the tail is one fence still open: where its content starts
   * and the language its info string names.
   */
  get openFence(): { contentStart: number; language: string; marker: string } | undefined {
    return this.fence === undefined || this.fenceLine !== this.stable
      ? undefined
      : { contentStart: this.fenceAt, language: this.fenceInfo, marker: this.fence };
  }

  append(chunk: string): void {
    let start = 0;
    const base = this.text.length;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      this.scanLine(this.line + chunk.slice(start, newline), base + newline + 1);
      this.line = '';
      start = newline + 1;
    }
    this.line += chunk.slice(start);
    this.text += chunk;
  }

  private scanLine(line: string, end: number): void {
    const fence = FENCE.exec(line)?.[1];
    if (this.fence !== undefined) {
      // A closing fence uses the opening character, at least as many, and nothing after it.
      if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && line.trim() === fence) {
        this.fence = undefined;
        this.settle(end);
      }
      return;
    }
    if (fence) {
      const info = line.slice(line.indexOf(fence) + fence.length);
      // A backtick fence's info string cannot contain a backtick; then it is not a fence.
      if (fence[0] === '`' && info.includes('`')) return;
      // A fence at the margin ends what came before it: the tail is the fence alone. An indented
      // one may belong to a list item, which stays whole.
      this.fenceLine = end - line.length - 1;
      if (!/^\s/.test(line)) this.settle(this.fenceLine);
      this.fence = fence;
      this.fenceAt = end;
      this.fenceInfo = info.trim().split(/\s/)[0] ?? '';
    } else if (line.trim() === '' || end - this.stable > MAX_OPEN) {
      this.settle(end);
    }
  }

  private settle(end: number): void {
    if (end <= this.stable) return;
    this.stable = end;
    this.ends.push(end);
  }

  /**
   * Where the finished blocks after `from` end, as far as `budget` characters reach (at least
   * one block): a view behind the stream shows this much more in one frame. `from` itself when
   * no block ends after it.
   */
  stableWithin(from: number, budget: number): number {
    const ends = this.ends;
    // The first end after `from`, then the last one within the budget.
    let low = 0;
    let high = ends.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (ends[mid]! <= from) low = mid + 1;
      else high = mid;
    }
    if (low === ends.length) return from;
    let at = low;
    while (at + 1 < ends.length && ends[at + 1]! <= from + budget) at++;
    return ends[at]!;
  }
}
