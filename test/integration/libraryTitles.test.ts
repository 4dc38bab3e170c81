// A title the agent makes of megabytes (a pasted file) is kept as the Sessions view shows it:
// one line of 200 characters, what a search hit then carries to the extension host.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TITLE } from '../../src/sessions/title';
import { registryWith, useRegistries } from '../support/chat';
import { LibraryWorld } from '../support/library';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

describe('library: an agent’s huge title', function () {
  this.timeout(60_000);
  const dir = tempDir('acp-library-titles-');
  const cwd = join(dir.path, 'project');
  const registries = useRegistries();
  let world: LibraryWorld;
  before(() => mkdirSync(cwd));
  after(async () => {
    await world?.service.close();
    dir.cleanup();
  });

  it('is kept as the view shows it, and a search carries no more', async () => {
    const store = join(dir.path, 'store');
    seed(store, [cwd], 1, 3);
    const registry = registryWith(refAgentConfig(store, ['--titles', 'huge']));
    registries.push(registry);
    world = new LibraryWorld(registry, join(dir.path, 'library'));
    const [listed] = (await (await registry.get('ref')!.connect()).listSessions({ cwd })).sessions;
    assert.ok(listed!.title!.length >= 10_000_000, 'the agent lists a title of ten megabytes');
    const chat = await world.open({ agentId: 'ref', sessionId: listed!.sessionId, cwd }, 'auto');
    await chat.recording.flush();
    const kept = await world.keptWhole('ref', listed!.sessionId);
    assert.ok([...kept.title!].length <= MAX_TITLE, `kept: ${kept.title!.length} characters`);
    assert.ok(kept.title!.endsWith('…'));
    const said = chat.session.thread.entries.find((e) => e.type === 'user');
    const hits = await world.service.get()!.search(said?.type === 'user' ? said.text.split(' ')[0]! : '');
    assert.ok(hits.length >= 1);
    assert.ok(JSON.stringify(hits).length < 2_000, `a hit carries ${JSON.stringify(hits).length} characters`);
    await chat.close();
  });
});
