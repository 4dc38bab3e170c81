/**
 * GET over HTTPS, or plain HTTP to a loopback address only (a registry or an archive served on
 * this machine): every hop of a redirect is held to the same rule, so an https address cannot
 * hand the download to a plain one elsewhere. Node's own `http` and `https` (the extension host
 * routes them through VS Code's proxy settings). Each request has a time to answer, a time
 * without a byte after which it counts as stalled, a cap on the bytes read, and a signal that
 * cancels it; none of them leaves a socket open.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';

export class HttpError extends Error {
  constructor(
    message: string,
    /** `cancelled`: the user stopped it; `stalled`/`timeout`: no answer in time; `status`: an error status. */
    readonly kind: 'refused' | 'status' | 'timeout' | 'stalled' | 'tooLarge' | 'cancelled' | 'network',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Whether a host name is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The address, if it may be fetched; else why not. */
export function checkAddress(address: string): URL | string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `"${address}" is not an address`;
  }
  if (url.username || url.password) return `"${url.origin}" carries a user name or password, which is not sent`;
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  if (url.protocol === 'http:')
    return `${url.origin} is plain HTTP: only https addresses are fetched (plain HTTP only from this machine)`;
  return `"${address}" is not an https address`;
}

export interface GetOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** Time for the answer's headers, ms. */
  readonly answerMs: number;
  /** Time without a byte of the body, ms, after which the request is dropped as stalled. */
  readonly stallMs: number;
  /** Bytes past which the body is refused (a Content-Length over it is refused before any byte). */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
  /** Extra certificate authorities (tests with a certificate of their own). */
  readonly ca?: string | Buffer;
}

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The body's length when the server said it. */
  readonly length?: number;
  /** The final address, after redirects. */
  readonly url: string;
  /** The body; a stall, the cap or the signal destroys it with an `HttpError`. Read it or destroy it. */
  readonly body: Readable;
}

const MAX_REDIRECTS = 5;

function once(url: URL, options: GetOptions, method = 'GET'): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new HttpError('cancelled', 'cancelled'));
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method,
      headers: { 'user-agent': 'acp-client', ...options.headers },
      ...(options.ca ? { ca: options.ca } : {}),
    });
    req.end();
    const timer = setTimeout(() => {
      req.destroy(
        new HttpError(`${url.host} did not answer within ${Math.round(options.answerMs / 1000)} s`, 'timeout'),
      );
    }, options.answerMs);
    const onAbort = () => req.destroy(new HttpError('cancelled', 'cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    req.on('response', (res) => {
      done();
      resolve(res);
    });
    req.on('error', (e) => {
      done();
      reject(e instanceof HttpError ? e : new HttpError(`${url.host}: ${(e as Error).message}`, 'network'));
    });
  });
}

/** Watches a body: a stall, the cap or the signal destroys it with the reason. */
function guardBody(res: http.IncomingMessage, options: GetOptions, host: string): Readable {
  let read = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stall = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () =>
        res.destroy(
          new HttpError(
            `the download from ${host} stalled: no data for ${Math.round(options.stallMs / 1000)} s`,
            'stalled',
          ),
        ),
      options.stallMs,
    );
  };
  const onAbort = () => res.destroy(new HttpError('cancelled', 'cancelled'));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const stop = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  };
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > options.maxBytes)
      res.destroy(new HttpError(`the answer from ${host} is larger than ${options.maxBytes} bytes`, 'tooLarge'));
    else stall();
  });
  res.on('end', stop);
  res.on('close', stop);
  res.on('error', stop);
  stall();
  return res;
}

/**
 * GETs an address, following redirects that keep to the rule. Resolves once headers came with a
 * status below 400 (304 included, its body empty); a status of 400 or more is an `HttpError`.
 */
export async function get(address: string, options: GetOptions, method: 'GET' | 'HEAD' = 'GET'): Promise<Answer> {
  let current = address;
  for (let hop = 0; ; hop++) {
    const url = checkAddress(current);
    if (typeof url === 'string') throw new HttpError(url, 'refused');
    const res = await once(url, options, method);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && status !== 304 && location) {
      res.resume();
      if (hop >= MAX_REDIRECTS)
        throw new HttpError(`${url.host} redirected more than ${MAX_REDIRECTS} times`, 'refused');
      current = new URL(location, url).toString();
      continue;
    }
    if (status >= 400) {
      res.resume();
      throw new HttpError(
        `${url.host} answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''} for ${url.pathname}`,
        'status',
        status,
      );
    }
    const raw = res.headers['content-length'];
    const length = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
    if (length !== undefined && length > options.maxBytes) {
      res.destroy();
      throw new HttpError(`${url.host} offers ${length} bytes, more than the ${options.maxBytes} allowed`, 'tooLarge');
    }
    return { status, headers: res.headers, length, url: url.toString(), body: guardBody(res, options, url.host) };
  }
}

/** The size a server gives for a download (a HEAD request, redirects followed), or undefined. */
export async function sizeOf(
  address: string,
  options: Pick<GetOptions, 'answerMs' | 'ca' | 'signal'>,
): Promise<number | undefined> {
  const answer = await get(
    address,
    { ...options, stallMs: options.answerMs, maxBytes: Number.MAX_SAFE_INTEGER },
    'HEAD',
  );
  answer.body.resume();
  return answer.length;
}

/** Reads a whole (small) body as text. */
export async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
