// A registry and its archives served on 127.0.0.1 (plain HTTP, or HTTPS with a certificate made
// for the run by openssl), standing in for the registry's CDN and the agents' release pages,
// which a test machine cannot reach. Each path is set by the test, with faults on demand: a
// stall after some bytes (held open until the test ends), a connection cut short, a redirect,
// an ETag that answers 304.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Served {
  body?: string | Buffer;
  status?: number;
  type?: string;
  etag?: string;
  /** Sends this many bytes of the body, then nothing more (the connection stays open). */
  stallAfter?: number;
  /** Sends this many bytes of the body with the whole length announced, then drops the connection. */
  cutAfter?: number;
  /** Answers 302 to this address. */
  redirect?: string;
}

export interface RegistryServer {
  /** Ends with a slash. */
  readonly url: string;
  /** The certificate to trust (HTTPS only). */
  readonly ca?: Buffer;
  set(path: string, served: Served): void;
  /** The requests for a path (HEAD ones too), with their headers, in order. */
  requests(path: string): { method: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A key and a certificate for 127.0.0.1, made for the run by openssl (valid one day). */
export function selfSignedCertificate(scratch: string): { key: Buffer; cert: Buffer } {
  const key = join(scratch, 'registry-key.pem');
  const cert = join(scratch, 'registry-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

export async function serveRegistry(options: { https?: { scratch: string } } = {}): Promise<RegistryServer> {
  const paths = new Map<string, Served>();
  const seen = new Map<string, { method: string; headers: http.IncomingHttpHeaders }[]>();
  const handler: http.RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.set(path, [...(seen.get(path) ?? []), { method: req.method ?? 'GET', headers: req.headers }]);
    const s = paths.get(path);
    if (!s) return void res.writeHead(404).end('not found');
    if (s.redirect) return void res.writeHead(302, { location: s.redirect }).end();
    if (s.etag && req.headers['if-none-match'] === s.etag) return void res.writeHead(304, { etag: s.etag }).end();
    const body = Buffer.from(s.body ?? '');
    res.writeHead(s.status ?? 200, {
      'content-type': s.type ?? 'application/octet-stream',
      'content-length': String(body.length),
      ...(s.etag ? { etag: s.etag } : {}),
    });
    if (s.stallAfter !== undefined) return void res.write(body.subarray(0, s.stallAfter));
    if (s.cutAfter !== undefined) {
      res.write(body.subarray(0, s.cutAfter), () => res.socket?.destroy());
      return;
    }
    res.end(body);
  };
  const tls = options.https ? selfSignedCertificate(options.https.scratch) : undefined;
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/`,
    ...(tls ? { ca: tls.cert } : {}),
    set: (path, served) => paths.set(path, served),
    requests: (path) => seen.get(path) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A registry document with these agents (the format's version 1.0.0 unless given). */
export function registryJson(agents: unknown[], version = '1.0.0'): string {
  return JSON.stringify({ version, agents, extensions: [] });
}
