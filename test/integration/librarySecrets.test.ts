// An agent that says its key in the chat and exits at once: the library masks the key with the
// values known when the text arrived, though the agent's connection is gone when the write goes.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryWith, useRegistries } from '../support/chat';
import { LibraryWorld } from '../support/library';
import { waitFor } from '../support/wait';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

const KEY = 'sk-ref-7c1e9d2ab54f40c8';

describe('library: a secret the agent says before it exits', function () {
  this.timeout(60_000);
  const dir = tempDir('acp-library-secrets-');
  const cwd = join(dir.path, 'project');
  const libraryDir = join(dir.path, 'library');
  const registries = useRegistries();
  let world: LibraryWorld;
  before(() => mkdirSync(cwd));
  after(async () => {
    await world?.service.close();
    dir.cleanup();
  });

  it('is never kept in the library file, though its connection is gone when the write goes', async () => {
    const store = join(dir.path, 'store');
    seed(store, [cwd], 1, 1);
    const registry = registryWith({ ...refAgentConfig(store), env: { ACP_REF_KEY: KEY } });
    registries.push(registry);
    world = new LibraryWorld(registry, libraryDir);
    const chat = await world.open({ agentId: 'ref', cwd }, 'new');
    const sessionId = chat.session.sessionId!;
    await chat.session.prompt('please leak').catch(() => {});
    await waitFor('the agent gone', () => (registry.get('ref')!.connection === undefined ? true : undefined));
    assert.ok(
      chat.session.thread.entries.some((e) => e.type === 'agent' && e.text.includes(KEY)),
      'the chat shows what the agent said',
    );
    await chat.recording.flush();
    const kept = await waitFor('the turn kept', async () => {
      const t = await world.service.get()!.transcript({ agentId: 'ref', sessionId });
      return t?.some((e) => e.type === 'agent' && /My key is/.test(e.text)) ? t : undefined;
    });
    const said = kept.find((e) => e.type === 'agent' && /My key is/.test(e.text));
    assert.ok(
      said?.type === 'agent' && said.text.includes('[redacted]') && !said.text.includes(KEY),
      JSON.stringify(said),
    );
    await world.service.close();
    for (const f of readdirSync(libraryDir))
      assert.equal(readFileSync(join(libraryDir, f)).includes(KEY), false, `${f} holds the key`);
    await chat.close();
  });
});
