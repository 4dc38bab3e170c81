// An https server of the repository's media/ folder on 127.0.0.1, with a certificate made for
// the run (openssl): what a packaged README's absolute image addresses point at, standing in
// for the repository's host, which a test machine cannot reach.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { selfSignedCertificate } from '../support/registryServer';

export interface MediaServer {
  /** Ends with a slash: `${url}media/icon.png`. */
  url: string;
  /** Paths asked for, in order. */
  served: string[];
  close(): Promise<void>;
}

export async function serveMedia(repo: string, scratch: string): Promise<MediaServer> {
  const tls = selfSignedCertificate(scratch);
  const served: string[] = [];
  const server: Server = createServer(tls, (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'https://x').pathname));
    const file = join(repo, path);
    if (!path.startsWith('/media/') || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    served.push(path);
    res.writeHead(200, { 'content-type': path.endsWith('.png') ? 'image/png' : 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/`,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
