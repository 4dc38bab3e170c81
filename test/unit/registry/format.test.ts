import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAX_REGISTRY_BYTES, parseRegistry, type ParsedRegistry } from '../../../src/registry/format';

/** The repository root: the nearest folder up from this (bundled) file with a package.json. */
let repoRoot = __dirname;
while (!existsSync(join(repoRoot, 'package.json')) && dirname(repoRoot) !== repoRoot) repoRoot = dirname(repoRoot);

const good = {
  id: 'demo',
  name: 'Demo',
  version: '1.2.3',
  description: 'A demo agent',
  distribution: { npx: { package: '@demo/agent@1.2.3', args: ['--acp'] } },
};

function parsed(doc: unknown): ParsedRegistry {
  const r = parseRegistry(JSON.stringify(doc));
  assert.ok(r.ok, r.ok ? '' : r.why);
  return r.registry;
}

describe('Registry format', () => {
  it('reads the shipped copy of the real registry: every agent available, none refused', () => {
    const r = parsed(JSON.parse(readFileSync(join(repoRoot, 'media/registry/registry.json'), 'utf8')));
    assert.ok(r.agents.length >= 10, `${r.agents.length} agents`);
    assert.deepEqual(r.unavailable, []);
    const opencode = r.agents.find((a) => a.id === 'opencode');
    assert.equal(opencode?.distribution.binary?.['linux-x86_64']?.cmd, './opencode');
    assert.deepEqual(opencode?.distribution.binary?.['windows-x86_64']?.args, ['acp']);
  });

  it('refuses a document that is not JSON, not an object, huge, or of a newer format, saying why', () => {
    assert.deepEqual(parseRegistry('<html>502 Bad Gateway</html>'), { ok: false, why: 'it is not JSON' });
    assert.deepEqual(parseRegistry('[1,2]'), { ok: false, why: 'it is not a JSON object' });
    assert.deepEqual(parseRegistry('{"agents":[]}'), { ok: false, why: 'it has no format version' });
    assert.deepEqual(parseRegistry('{"version":"1.0.0"}'), { ok: false, why: 'it has no list of agents' });
    const newer = parseRegistry(JSON.stringify({ version: '2.0.0', agents: [good] }));
    assert.equal(newer.ok, false);
    assert.match(newer.ok ? '' : newer.why, /format 2\.0\.0, newer than this extension reads \(1\.x\)/);
    const huge = parseRegistry(`{"version":"1.0.0","agents":[],"pad":"${'x'.repeat(MAX_REGISTRY_BYTES)}"}`);
    assert.deepEqual(huge, { ok: false, why: 'it is larger than 4 MB' });
    // A later minor version is read.
    assert.equal(parsed({ version: '1.7.0', agents: [good] }).agents.length, 1);
  });

  it('keeps entries that lack fields or hold the wrong shapes as unavailable, with the reason, and the rest as they are', () => {
    const r = parsed({
      version: '1.0.0',
      agents: [
        good,
        { ...good, id: 'no-dist', distribution: undefined },
        { ...good, id: 'no-name', name: '' },
        { ...good, id: 'bad-version', version: 'latest' },
        { ...good, id: 'empty-dist', distribution: {} },
        { ...good, id: 'bad-args', distribution: { npx: { package: 'x', args: 'oops' } } },
        { ...good, id: 'no-archive', distribution: { binary: { 'linux-x86_64': { cmd: './x' } } } },
        { ...good, id: 'no-cmd', distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.zip' } } } },
        { ...good, id: 'ftp', distribution: { binary: { 'linux-x86_64': { archive: 'ftp://x/a.zip', cmd: './x' } } } },
        {
          ...good,
          id: 'bad-sum',
          distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.zip', cmd: './x', sha256: 'abc' } } },
        },
        { ...good, id: 'bad-env', distribution: { npx: { package: 'x', env: { 'A=B': '1' } } } },
        { ...good, id: 'flag-pkg', distribution: { npx: { package: '--registry=http://evil' } } },
        { ...good, id: 'demo' },
        'not an object',
      ],
    });
    assert.deepEqual(
      r.agents.map((a) => a.id),
      ['demo'],
    );
    assert.deepEqual(
      r.unavailable.map((u) => [u.id, u.why]),
      [
        ['no-dist', 'it has no "distribution"'],
        ['no-name', 'it has no "name"'],
        ['bad-version', 'it has no version of the form 1.2.3'],
        ['empty-dist', '"distribution" names no way to install it (npx, uvx, binary)'],
        ['bad-args', 'distribution.npx.args must be a list of strings'],
        ['no-archive', 'distribution.binary.linux-x86_64 has no "archive"'],
        ['no-cmd', 'distribution.binary.linux-x86_64 has no "cmd"'],
        ['ftp', 'distribution.binary.linux-x86_64.archive is not an http(s) address'],
        ['bad-sum', 'distribution.binary.linux-x86_64.sha256 is not 64 hex digits'],
        ['bad-env', 'distribution.npx.env has a variable named "A=B"'],
        ['flag-pkg', 'distribution.npx.package "--registry=http://evil" is not a package name'],
        ['demo', 'the id "demo" is listed twice; the first entry is used'],
        [undefined, 'the entry is not an object'],
      ],
    );
    assert.equal(r.unavailable[1]?.name, undefined);
  });

  it('refuses an id or a version with path characters: they name folders on disk', () => {
    const r = parsed({
      version: '1.0.0',
      agents: [
        { ...good, id: '../../etc' },
        { ...good, id: 'a/b' },
        { ...good, id: 'C:x' },
        { ...good, id: 'Upper' },
        { ...good, id: 'ok', version: '1.2.3/../../x' },
        { ...good, id: 'ok2', version: '1.2.3\\x' },
      ],
    });
    assert.deepEqual(r.agents, []);
    assert.deepEqual(
      r.unavailable.map((u) => u.why),
      [
        'its id "../../etc" is not lowercase letters, digits and "-"',
        'its id "a/b" is not lowercase letters, digits and "-"',
        'its id "C:x" is not lowercase letters, digits and "-"',
        'its id "Upper" is not lowercase letters, digits and "-"',
        'its version "1.2.3/../../x" cannot name a folder',
        'its version "1.2.3\\x" cannot name a folder',
      ],
    );
    // No id is given for an entry whose id could not name a folder.
    assert.equal(r.unavailable[0]?.id, undefined);
  });

  it('skips binary targets of platforms it does not know, and reads the newer fields (cmd of a package, sha256, website)', () => {
    const sum = 'A'.repeat(64);
    const r = parsed({
      version: '1.0.0',
      agents: [
        {
          ...good,
          website: 'https://demo.example',
          distribution: {
            npx: { package: '@demo/pkg@1.2.3', cmd: 'demo-acp' },
            binary: {
              'plan9-mips': { archive: 'https://x/a.zip', cmd: './x' },
              'windows-x86_64': { archive: 'https://x/a.zip', cmd: './demo.exe', sha256: sum },
            },
          },
        },
      ],
    });
    const a = r.agents[0]!;
    assert.equal(a.website, 'https://demo.example');
    assert.equal(a.distribution.npx?.cmd, 'demo-acp');
    assert.deepEqual(Object.keys(a.distribution.binary ?? {}), ['windows-x86_64']);
    assert.equal(a.distribution.binary?.['windows-x86_64']?.sha256, sum.toLowerCase());
  });
});
