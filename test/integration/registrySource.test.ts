// The registry read from a server on 127.0.0.1: HTTPS with a certificate made for the run, the
// kept copy with its ETag, at most one request an hour, offline and bad answers falling back on
// the last good copy, the shipped copy only for the public registry.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RECHECK_MS, RegistrySource } from '../../src/registry/registrySource';
import { repoRoot, tempDir } from '../support/refAgent';
import { registryJson, serveRegistry, type RegistryServer } from '../support/registryServer';

const agent = (id: string, version = '1.0.0') => ({
  id,
  name: id.toUpperCase(),
  version,
  description: `${id} agent`,
  distribution: { npx: { package: `@x/${id}@${version}` } },
});

describe('Registry source: fetch, cache, offline', function () {
  let dir: ReturnType<typeof tempDir>;
  let server: RegistryServer;
  let now = 1_000_000;
  const clock = () => now;

  beforeEach(async () => {
    dir = tempDir('acp-registry-');
    server = await serveRegistry({ https: { scratch: dir.path } });
  });
  afterEach(async () => {
    await server.close();
    dir.cleanup();
  });

  const source = (http: { stallMs?: number } = {}) =>
    new RegistrySource({
      dir: join(dir.path, 'cache'),
      now: clock,
      http: { ca: server.ca, answerMs: 5_000, stallMs: http.stallMs ?? 5_000 },
      shipped: { file: join(dir.path, 'none.json'), date: 0, url: 'https://127.0.0.1:1/registry.json' },
    });

  it('fetches over HTTPS, keeps the copy with its ETag, asks again only after an hour, and takes a 304 as unchanged', async () => {
    const url = `${server.url}registry.json`;
    server.set('/registry.json', { body: registryJson([agent('one')]), etag: '"v1"' });
    const s = source();
    const first = await s.read(url);
    assert.equal(first.from, 'network');
    assert.deepEqual(
      first.registry?.agents.map((a) => a.id),
      ['one'],
    );
    // Within the hour: the kept copy, no request.
    now += RECHECK_MS - 1;
    const second = await source().read(url);
    assert.equal(second.from, 'cache');
    assert.equal(server.requests('/registry.json').length, 1);
    // After it: asked with the ETag; the server's 304 keeps the copy.
    now += 2;
    const third = await source().read(url);
    assert.equal(third.from, 'network');
    assert.equal(third.fetchedAt, first.fetchedAt);
    assert.equal(server.requests('/registry.json')[1]?.headers['if-none-match'], '"v1"');
    // A new version of the document replaces the copy.
    server.set('/registry.json', { body: registryJson([agent('one'), agent('two')]), etag: '"v2"' });
    const fourth = await source().read(url, true);
    assert.deepEqual(
      fourth.registry?.agents.map((a) => a.id),
      ['one', 'two'],
    );
  });

  it('offline, or given a bad answer, keeps the last good copy and says why', async () => {
    const url = `${server.url}registry.json`;
    server.set('/registry.json', { body: registryJson([agent('one')]) });
    await source().read(url);
    for (const [served, why] of [
      [{ body: 'not json <html>' }, /cannot be read: it is not JSON/],
      [{ body: registryJson([agent('one')], '2.0.0') }, /newer than this extension reads/],
      [{ status: 500, body: 'oops' }, /answered 500/],
      [{ body: registryJson([]).padEnd(5 * 1024 * 1024, ' ') }, /more than the 4194304 allowed/],
    ] as const) {
      server.set('/registry.json', served);
      const r = await source().read(url, true);
      assert.equal(r.from, 'cache');
      assert.deepEqual(
        r.registry?.agents.map((a) => a.id),
        ['one'],
      );
      assert.match(r.problem ?? '', why);
    }
    await server.close();
    const offline = await source().read(url, true);
    assert.equal(offline.from, 'cache');
    assert.match(offline.problem ?? '', /could not be fetched/);
  });

  it('a stalled answer times out and falls back', async () => {
    const url = `${server.url}registry.json`;
    server.set('/registry.json', { body: registryJson([agent('one')]), stallAfter: 10 });
    const r = await source({ stallMs: 300 }).read(url);
    assert.equal(r.registry, undefined);
    assert.match(r.problem ?? '', /stalled: no data for 0 s/);
  });

  it('refuses plain HTTP to another machine without a request, and a redirect from https to it', async () => {
    const plain = await source().read('http://203.0.113.9/registry.json');
    assert.match(plain.problem ?? '', /plain HTTP: only https addresses are fetched/);
    server.set('/moved.json', { redirect: 'http://203.0.113.9/registry.json' });
    const moved = await source().read(`${server.url}moved.json`);
    assert.equal(moved.registry, undefined);
    assert.match(moved.problem ?? '', /plain HTTP/);
  });

  it('with no copy at all, the shipped one stands in for the public registry only, said as such', async () => {
    // Port 1 of this machine, where nothing listens, stands for the public registry out of reach.
    const publicUrl = 'https://127.0.0.1:1/registry.json';
    const shipped = new RegistrySource({
      dir: join(dir.path, 'cache2'),
      http: { answerMs: 2_000, stallMs: 2_000, ca: server.ca },
      shipped: { file: join(repoRoot, 'media/registry/registry.json'), date: Date.parse('2026-02-07'), url: publicUrl },
    });
    const r = await shipped.read(publicUrl);
    assert.equal(r.from, 'shipped');
    assert.ok((r.registry?.agents.length ?? 0) >= 10);
    assert.equal(r.fetchedAt, Date.parse('2026-02-07'));
    // A company's mirror that cannot be reached is not replaced by the public list.
    const mirror = await shipped.read(`${server.url}nothing-here.json`);
    assert.equal(mirror.registry, undefined);
    assert.match(mirror.problem ?? '', /answered 404/);
  });
});
