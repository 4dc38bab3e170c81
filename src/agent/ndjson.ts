import { DEFAULT_MAX_MESSAGE_BYTES, MessageTooLargeError } from '@agentclientprotocol/sdk';

const LF = 0x0a;
const CR = 0x0d;
/** The smallest buffer for an unfinished line; it doubles as the line grows. */
const MIN_CAPACITY = 4096;
/** A buffer grown past this for one long line is let go once the line is done. */
const KEEP_CAPACITY = 64 * 1024;

/**
 * Splits the agent's stdout into lines, as the SDK's `ndJsonStream` does (LF or CRLF), with the
 * same limit: a line longer than `max` bytes throws `MessageTooLargeError` as soon as it is
 * known to be too long, so a runaway message never sits whole in memory.
 *
 * An unfinished line is kept in one buffer that doubles as it grows: memory stays within twice
 * the bytes held, however the agent cuts its writes (one byte per write would otherwise cost a
 * separate array per byte, a hundred times the bytes).
 */
export class LineSplitter {
  private buffer = new Uint8Array(0);
  private size = 0;

  constructor(private readonly max = DEFAULT_MAX_MESSAGE_BYTES) {}

  /** Bytes of an unfinished line held now. */
  get held(): number {
    return this.size;
  }

  /** Bytes reserved for the unfinished line (at most twice what it holds, or the minimum). */
  get capacity(): number {
    return this.buffer.length;
  }

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
      this.append(tail);
    }
  }

  /** The last line when the stream ends without a line break. */
  flush(line: (bytes: Uint8Array) => void): void {
    if (this.size > 0) line(this.take(new Uint8Array(0)));
  }

  private append(bytes: Uint8Array): void {
    const need = this.size + bytes.length;
    if (need > this.buffer.length) {
      const grown = new Uint8Array(Math.max(need, this.buffer.length * 2, MIN_CAPACITY));
      grown.set(this.buffer.subarray(0, this.size));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.size);
    this.size = need;
  }

  private take(end: Uint8Array): Uint8Array {
    this.check(end);
    let bytes = end;
    if (this.size > 0) {
      bytes = new Uint8Array(this.size + end.length);
      bytes.set(this.buffer.subarray(0, this.size));
      bytes.set(end, this.size);
      this.reset();
    }
    return bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, -1) : bytes;
  }

  private reset(): void {
    this.size = 0;
    if (this.buffer.length > KEEP_CAPACITY) this.buffer = new Uint8Array(0);
  }

  /** A final CR (half of a CRLF) does not count, as in the SDK. */
  private check(next: Uint8Array): void {
    const last = next.length > 0 ? next[next.length - 1] : this.size > 0 ? this.buffer[this.size - 1] : undefined;
    if (this.size + next.length - (last === CR ? 1 : 0) > this.max) {
      this.size = 0;
      this.buffer = new Uint8Array(0);
      throw new MessageTooLargeError(this.max);
    }
  }
}
