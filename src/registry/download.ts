/**
 * An archive fetched to a file of its own, with its SHA-256 taken on the way: progress as bytes
 * so far (and the total when the server says it), a cap, a stall timeout and cancellation. A
 * download that did not finish leaves no file behind.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { get, HttpError, type GetOptions } from './http';

/** A size as people read it: "812 KB", "42 MB", "1.2 GB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${Math.round(bytes / 1024 / 1024)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

export interface DownloadProgress {
  readonly bytes: number;
  readonly total?: number;
}

export interface DownloadOptions {
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: DownloadProgress) => void;
  readonly http?: Partial<Pick<GetOptions, 'answerMs' | 'stallMs' | 'ca'>>;
}

export interface Downloaded {
  readonly bytes: number;
  readonly sha256: string;
  /** The final address, after redirects (its name tells the archive's kind). */
  readonly url: string;
}

/** Fetches `address` into `file` (created; removed again on any failure). */
export async function download(address: string, file: string, options: DownloadOptions): Promise<Downloaded> {
  const answer = await get(address, {
    answerMs: options.http?.answerMs ?? 30_000,
    stallMs: options.http?.stallMs ?? 30_000,
    maxBytes: options.maxBytes,
    signal: options.signal,
    ca: options.http?.ca,
  });
  const hash = createHash('sha256');
  let bytes = 0;
  let lastReport = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      hash.update(chunk);
      // At most a report per 64 KB: a progress bar does not need one per packet.
      if (bytes - lastReport >= 64 * 1024) {
        lastReport = bytes;
        options.onProgress?.({ bytes, total: answer.length });
      }
      done(null, chunk);
    },
  });
  try {
    options.onProgress?.({ bytes: 0, total: answer.length });
    await pipeline(answer.body, count, createWriteStream(file, { flags: 'wx' }));
    if (answer.length !== undefined && bytes !== answer.length)
      throw new HttpError(`the download ended after ${bytes} of ${answer.length} bytes`, 'network');
    options.onProgress?.({ bytes, total: answer.length });
    return { bytes, sha256: hash.digest('hex'), url: answer.url };
  } catch (e) {
    answer.body.destroy();
    await fs.rm(file, { force: true });
    if (options.signal?.aborted) throw new HttpError('cancelled', 'cancelled');
    throw e instanceof HttpError ? e : new HttpError(`the download failed: ${(e as Error).message}`, 'network');
  }
}
