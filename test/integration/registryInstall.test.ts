// Binary agents installed from archives served on 127.0.0.1: a real agent (a script that starts
// the reference agent) unpacked from .tar.gz, .zip, .tar.bz2 or as the program itself, started and
// listed; and every hostile archive refused with nothing written outside the folder and nothing
// half-installed left.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import type { BinaryTarget } from '../../src/registry/format';
import { installBinary, MARKER, type BinaryInstall } from '../../src/registry/install';
import { makeTarBz2, makeTarGz, makeZip } from '../support/archives';
import { agentScript, useSeededFolder } from '../support/refAgent';
import { serveRegistry, type RegistryServer } from '../support/registryServer';

const posix = process.platform !== 'win32';

/** The "binary": a shell script that runs the reference agent with its arguments. */
const script = `#!/bin/sh\nexec "${process.execPath}" "${agentScript}" "$@"\n`;

describe('Registry install: binary agents from archives on 127.0.0.1', function () {
  this.timeout(30_000);
  const { dir, store, cwd, running } = useSeededFolder<AgentConnection>(3, 1);
  let server: RegistryServer;
  let agentsDir: string;
  let outside: string;
  let n = 0;

  beforeEach(async () => {
    server = await serveRegistry();
    agentsDir = join(dir.path, `agents-${++n}`);
    outside = join(dir.path, `outside-${n}`);
    mkdirSync(join(outside, 'a', 'b'), { recursive: true });
    // Unpacking happens two levels below the agents' folder: `../../x` from there is `agents-n/x`.
  });
  afterEach(() => server.close());

  function serve(name: string, body: Buffer, extra: { cutAfter?: number; stallAfter?: number } = {}): string {
    server.set(`/${name}`, { body, ...extra });
    return `${server.url}${name}`;
  }

  function install(target: Partial<BinaryTarget> & { archive: string }, more: Partial<BinaryInstall> = {}) {
    return installBinary({
      agentsDir,
      id: 'demo',
      version: '1.0.0',
      target: { cmd: './bin/demo', args: [], env: {}, ...target },
      http: { answerMs: 5_000, stallMs: 5_000 },
      ...more,
    });
  }

  /** Nothing of the install is left: no version folder, no partial folder, no download. */
  function nothingLeft(): void {
    const idDir = join(agentsDir, 'demo');
    assert.deepEqual(existsSync(idDir) ? readdirSync(idDir) : [], []);
    assert.deepEqual(readdirSync(agentsDir).sort(), ['demo']);
  }

  async function startAndList(command: string): Promise<number> {
    const agent = await AgentConnection.start({
      config: { id: 'demo', name: 'Demo', command, args: ['--store', store], env: {} },
      logger: silentLogger,
      clientInfo: { name: 'test', version: '0' },
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    });
    running.push(agent);
    return (await agent.listSessions({ cwd })).sessions.length;
  }

  (posix ? it : it.skip)(
    'installs a .tar.gz, makes its command executable, and the agent answers and lists',
    async () => {
      const progress: number[] = [];
      const archive = serve(
        'demo.tar.gz',
        await makeTarGz([
          { name: 'bin/demo', data: script, mode: 0o644 },
          { name: 'README', data: 'hi' },
        ]),
      );
      const done = await install({ archive }, { onProgress: (p) => p.phase === 'download' && progress.push(p.bytes) });
      assert.equal(done.command, join(agentsDir, 'demo', '1.0.0', 'bin', 'demo'));
      assert.equal(done.reused, false);
      assert.ok(statSync(done.command).mode & 0o100, 'the command is executable');
      assert.ok(existsSync(join(done.dir, MARKER)));
      assert.ok(progress.length >= 2 && progress.at(-1)! > 0, progress.join(','));
      assert.equal(await startAndList(done.command), 3);
      // The same version again: the folder is used, nothing fetched.
      const again = await install({ archive });
      assert.equal(again.reused, true);
      assert.equal(server.requests('/demo.tar.gz').length, 1);
    },
  );

  (posix ? it : it.skip)('installs a .zip (modes from Unix, or none), a .tar.bz2 and a raw program', async () => {
    const zip = serve(
      'demo.zip',
      makeZip([
        { name: 'bin/', type: 'directory' },
        { name: 'bin/demo', data: script, mode: 0o755 },
      ]),
    );
    assert.equal(await startAndList((await install({ archive: zip })).command), 3);
    const bz2 = serve('demo.tar.bz2', await makeTarBz2([{ name: './bin/demo', data: script }]));
    const viaBz2 = await install({ archive: bz2 }, { version: '1.0.1' });
    assert.equal(await startAndList(viaBz2.command), 3);
    const raw = serve('demo-linux-x64', Buffer.from(script));
    const viaRaw = await install({ archive: raw, cmd: './demo' }, { version: '1.0.2' });
    assert.equal(viaRaw.command, join(agentsDir, 'demo', '1.0.2', 'demo'));
    assert.equal(await startAndList(viaRaw.command), 3);
  });

  it('checks the registry SHA-256 when it gives one', async () => {
    const archive = serve('demo.tar.gz', await makeTarGz([{ name: 'bin/demo', data: script }]));
    await assert.rejects(
      install({ archive, sha256: '0'.repeat(64) }),
      /SHA-256 is [0-9a-f]{64}, not the 0{64} the registry gives/,
    );
    nothingLeft();
  });

  describe('refuses, writes nothing outside and leaves nothing half-installed', () => {
    const cases: [string, () => Promise<Buffer>, RegExp][] = [
      [
        'a tar entry that climbs out (../../x)',
        () =>
          makeTarGz([
            { name: 'bin/demo', data: script },
            { name: '../../x', data: 'pwned' },
          ]),
        /"\.\.\/\.\.\/x" climbs out/,
      ],
      [
        'a zip entry that climbs out (../../x)',
        async () =>
          makeZip([
            { name: 'bin/demo', data: script },
            { name: '../../x', data: 'pwned' },
          ]),
        /climbs out/,
      ],
      [
        'an absolute tar entry',
        () =>
          makeTarGz([
            { name: 'bin/demo', data: script },
            { name: '/tmp/acp-absolute-x', data: 'pwned' },
          ]),
        /is an absolute path/,
      ],
      [
        'an absolute zip entry',
        async () => makeZip([{ name: '/tmp/acp-absolute-x', data: 'pwned' }]),
        /is an absolute path/,
      ],
      [
        'a link out of the folder',
        () =>
          makeTarGz([
            { name: 'bin/demo', data: script },
            { name: 'up', type: 'symlink', data: '../../../outside' },
          ]),
        /the link "up" points to "\.\.\/\.\.\/\.\.\/outside", outside the folder/,
      ],
      [
        'an absolute link in a zip',
        async () => makeZip([{ name: 'etc', type: 'symlink', data: '/etc' }]),
        /points to "\/etc", outside the folder/,
      ],
      [
        'a write through a link',
        () =>
          makeTarGz([
            { name: 'bin', type: 'symlink', data: '.' },
            { name: 'bin/demo', data: script },
          ]),
        /written through the link "bin"/,
      ],
      // `here/../x` stays inside by its text, but `here` is the folder itself: followed, it leads out.
      [
        'a link that leads out through another link',
        () =>
          makeTarGz([
            { name: 'here', type: 'symlink', data: '.' },
            { name: 'bin/demo', data: script },
            { name: 'out', type: 'symlink', data: 'here/../x' },
          ]),
        /the link "out" leads (outside the folder|to nothing inside the folder)/,
      ],
      [
        'a hard link to a file outside',
        () => makeTarGz([{ name: 'bin/demo', type: 'link', data: '../../../etc/passwd' }]),
        /hard link "bin\/demo" points to/,
      ],
      [
        'a device file',
        () =>
          makeTarGz([
            { name: 'bin/demo', data: script },
            { name: 'dev/null', type: 'character-device' },
          ]),
        /is a character-device, not a file, folder or link/,
      ],
      ['a FIFO in a zip', async () => makeZip([{ name: 'bin/demo', type: 'fifo' }]), /special file/],
      [
        'an entry listed twice',
        () =>
          makeTarGz([
            { name: 'bin/demo', data: script },
            { name: 'bin/demo', data: 'again' },
          ]),
        /listed twice/,
      ],
      [
        'an archive over the size cap',
        () =>
          makeTarGz([
            { name: 'bin/demo', data: script },
            { name: 'big', data: Buffer.alloc(300_000) },
          ]),
        /unpacks to more than 195 KB/,
      ],
      [
        'a zip over the size cap',
        async () => makeZip([{ name: 'big', data: Buffer.alloc(300_000) }]),
        /unpacks to more than 195 KB/,
      ],
      [
        'an archive without its command',
        () => makeTarGz([{ name: 'bin/other', data: script }]),
        /its command "\.\/bin\/demo" is not in the archive/,
      ],
      [
        'a command that is a folder',
        () => makeTarGz([{ name: 'bin/demo/', type: 'directory' }]),
        /its command "\.\/bin\/demo" is not a file/,
      ],
    ];
    for (const [what, make, why] of cases) {
      it(what, async () => {
        const archive = serve(/zip/.test(what) ? 'bad.zip' : 'bad.tar.gz', await make());
        await assert.rejects(install({ archive }, { limits: { maxUnpackedBytes: 200_000 } }), why);
        nothingLeft();
        assert.ok(
          !existsSync(join(agentsDir, 'x')) && !existsSync(join(dir.path, 'x')) && !existsSync('/tmp/acp-absolute-x'),
        );
      });
    }

    it('an archive cut short: its file truncated, or its download dropped', async () => {
      const whole = await makeTarGz([
        { name: 'bin/demo', data: script },
        { name: 'data', data: randomBytes(200_000) },
      ]);
      const truncated = serve('short.tar.gz', whole.subarray(0, Math.floor(whole.length / 2)));
      await assert.rejects(install({ archive: truncated }), /cannot be read \(cut short or damaged\)/);
      nothingLeft();
      const zip = makeZip([{ name: 'bin/demo', data: script }]);
      const shortZip = serve('short.zip', zip.subarray(0, zip.length - 10));
      await assert.rejects(install({ archive: shortZip }), /cannot be read \(cut short or damaged\)/);
      nothingLeft();
      const dropped = serve('dropped.tar.gz', whole, { cutAfter: 1000 });
      await assert.rejects(install({ archive: dropped }), /download (ended after|failed)|aborted|socket hang up/);
      nothingLeft();
    });

    it('a command outside the folder, refused before anything is fetched', async () => {
      const archive = serve('demo.tar.gz', await makeTarGz([{ name: 'bin/demo', data: script }]));
      await assert.rejects(
        install({ archive, cmd: '../../../bin/sh' }),
        /its command "\.\.\/\.\.\/\.\.\/bin\/sh" climbs out/,
      );
      await assert.rejects(install({ archive, cmd: '/bin/sh' }), /is an absolute path/);
      assert.equal(server.requests('/demo.tar.gz').length, 0);
    });

    it('a download over the cap, refused by its announced length before a byte is kept', async () => {
      const archive = serve('demo.tar.gz', Buffer.alloc(50_000));
      await assert.rejects(
        install({ archive }, { limits: { maxDownloadBytes: 10_000 } }),
        /offers 50000 bytes, more than the 10000 allowed/,
      );
      nothingLeft();
    });

    it('a download that stalls times out; one that is cancelled stops at once', async () => {
      const archive = serve('stall.tar.gz', Buffer.alloc(400_000), { stallAfter: 70_000 });
      await assert.rejects(
        install({ archive }, { http: { answerMs: 5_000, stallMs: 300 } }),
        /stalled: no data for 0 s/,
      );
      nothingLeft();
      const abort = new AbortController();
      const cancelled = install({ archive }, { signal: abort.signal, onProgress: (p) => p.bytes > 0 && abort.abort() });
      await assert.rejects(cancelled, /cancelled/);
      nothingLeft();
    });

    it('an id or version with path characters, refused before anything is fetched', async () => {
      const archive = serve('demo.tar.gz', await makeTarGz([{ name: 'bin/demo', data: script }]));
      await assert.rejects(install({ archive }, { id: '../evil' }), /the id "\.\.\/evil" is not lowercase/);
      await assert.rejects(
        install({ archive }, { version: '1.0.0/../../x' }),
        /the version "1\.0\.0\/\.\.\/\.\.\/x" cannot name a folder/,
      );
      assert.equal(server.requests('/demo.tar.gz').length, 0);
      writeFileSync(join(dir.path, 'sentinel'), '');
      assert.ok(existsSync(join(dir.path, 'sentinel')));
    });
  });
});
