/**
 * Splits a message that is still streaming into finished Markdown blocks and an open tail, so
 * the webview parses each finished block once and shows the tail as plain text. A block is
 * finished at a blank line or a closing code fence, never inside an open fence. Scanning is
 * incremental: each appended character is looked at once.
 *
 * The split can differ from a whole-message parse (a list item's indented continuation after a
 * blank line, reference links defined later); the message is parsed whole once it is done.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export class StreamSplitter {
  private text = '';
  /** The line being written: only it is scanned when a newline arrives, never the whole text. */
  private line = '';
  private fence: string | undefined;
  private stable = 0;

  /** The text so far. */
  get value(): string {
    return this.text;
  }

  /** End of the finished blocks: `value.slice(0, stableEnd)` is complete Markdown. */
  get stableEnd(): number {
    return this.stable;
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
        this.stable = end;
      }
      return;
    }
    if (fence) {
      // A backtick fence's info string cannot contain a backtick; then it is not a fence.
      if (fence[0] === '`' && line.slice(line.indexOf(fence) + fence.length).includes('`')) return;
      this.fence = fence;
    } else if (line.trim() === '') {
      this.stable = end;
    }
  }
}
