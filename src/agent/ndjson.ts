import { DEFAULT_MAX_MESSAGE_BYTES, MessageTooLargeError } from '@agentclientprotocol/sdk';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits the agent's stdout into lines, as the SDK's `ndJsonStream` does (LF or CRLF), with the
 * same limit: a line longer than `max` bytes throws `MessageTooLargeError` as soon as it is
 * known to be too long, so a runaway message never sits whole in memory.
 */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly max = DEFAULT_MAX_MESSAGE_BYTES) {}

  /** Feeds a chunk; `line` gets each complete line without its line ending. */
  push(chunk: Uint8Array, line: (bytes: Uint8Array) => void): void {
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, start)) {
      line(this.take(chunk.subarray(start, nl)));
      start = nl + 1;
    }
    if (start < chunk.length) {
      const tail = chunk.subarray(start);
      this.check(tail);
      // Copied: the reader may hand out views of buffers it reuses.
      this.parts.push(tail.slice());
      this.size += tail.length;
    }
  }

  /** The last line when the stream ends without a line break. */
  flush(line: (bytes: Uint8Array) => void): void {
    if (this.size > 0) line(this.take(new Uint8Array(0)));
  }

  private take(end: Uint8Array): Uint8Array {
    this.check(end);
    let bytes = end;
    if (this.parts.length > 0) {
      bytes = new Uint8Array(this.size + end.length);
      let at = 0;
      for (const p of this.parts) {
        bytes.set(p, at);
        at += p.length;
      }
      bytes.set(end, at);
      this.parts = [];
      this.size = 0;
    }
    return bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, -1) : bytes;
  }

  /** A final CR (half of a CRLF) does not count, as in the SDK. */
  private check(next: Uint8Array): void {
    const last = next.length > 0 ? next[next.length - 1] : this.parts.at(-1)?.at(-1);
    if (this.size + next.length - (last === CR ? 1 : 0) > this.max) {
      this.parts = [];
      this.size = 0;
      throw new MessageTooLargeError(this.max);
    }
  }
}
