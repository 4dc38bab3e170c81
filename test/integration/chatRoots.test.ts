// The roots of a chat's session: cwd plus the additional directories actually sent to the
// agent, which are what the client's fs and terminals allow. Checked against what the
// reference agent received (--record) and what it can read through the client.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRegistry } from '../../src/agent/agentHost';
import { ClientFileSystem } from '../../src/agent/fileSystem';
import { silentLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { panelTargetOf, readPanelTarget } from '../../src/protocol/panelTarget';
import { chatDeps, hostDeps, hostOf, recorded, registryWith, useRegistries } from '../support/chat';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

describe("A chat's roots (additional directories)", function () {
  this.timeout(40_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const project = join(dir.path, 'project');
  const docs = join(dir.path, 'docs');
  const outside = join(dir.path, 'outside');
  const registries = useRegistries();
  const chats = new Set<ChatSession>();
  let n = 0;

  before(() => {
    for (const d of [project, docs, outside]) mkdirSync(d);
    writeFileSync(join(docs, 'guide.md'), 'the docs folder');
    writeFileSync(join(outside, 'secret.txt'), 'not for the agent');
    seed(store, [project], 2, 1);
  });
  afterEach(() => chats.clear());
  after(() => dir.cleanup());

  // The extension's wiring: the client's fs asks the chats for a session's roots.
  const rootsFor = (sessionId: string) => [...chats].find((c) => c.sessionId === sessionId)?.pinnedRoots;
  const deps = () => chatDeps({ workspaceFolders: () => [project, docs] });

  function setup(switches: string[] = []) {
    const record = join(dir.path, `record-${++n}.jsonl`);
    const fs = new ClientFileSystem({ rootsFor, logger: silentLogger });
    const registry = registryWith(
      refAgentConfig(store, ['--record', record, ...switches]),
      hostDeps({}, { fs, rootsFor }),
    );
    registries.push(registry);
    const sent = (method: string) =>
      recorded(record)
        .filter((m) => m.method === method)
        .map((m) => m.params.additionalDirectories);
    return { registry, sent };
  }

  function chat(registry: AgentRegistry, target: ConstructorParameters<typeof ChatSession>[1], d = deps()) {
    const c = new ChatSession(registry, target, d);
    chats.add(c);
    return c;
  }

  /** A session whose agent reports `dirs` in session/list, as any agent may. */
  async function reporting(registry: AgentRegistry, dirs: string[]) {
    const c = await hostOf(registry).connect();
    const { sessionId } = await c.newSession({ cwd: project, mcpServers: [], additionalDirectories: dirs });
    const row = (await c.listSessions({ cwd: project })).sessions.find((s) => s.sessionId === sessionId)!;
    assert.deepEqual(row.additionalDirectories, dirs, 'the agent reports them');
    return row;
  }

  it('a new session in a multi-root window sends the other folders, and they become roots', async () => {
    const { registry, sent } = setup();
    const c = chat(registry, { agentId: 'ref', cwd: project, additionalDirectories: [docs] });
    await c.attach('new');
    assert.deepEqual(sent('session/new'), [[docs]]);
    assert.deepEqual(c.roots, [project, docs]);
    assert.deepEqual(c.capabilities().additionalDirectories, [docs]);
    await c.prompt(`read ${join(docs, 'guide.md')}`);
    assert.ok(
      c.thread.entries.some((e) => e.type === 'agent' && e.text.includes('the docs folder')),
      'the agent reads inside the roots',
    );
  });

  it('an agent that does not advertise additionalDirectories gets none, and the other folders are not roots', async () => {
    const { registry, sent } = setup(['--no-additional-directories']);
    const c = chat(registry, { agentId: 'ref', cwd: project, additionalDirectories: [docs] });
    await c.attach('new');
    assert.deepEqual(sent('session/new'), [undefined]);
    assert.deepEqual(c.roots, [project]);
    await c.prompt(`read ${join(docs, 'guide.md')}`);
    assert.ok(
      !c.thread.entries.some((e) => e.type === 'agent' && e.text.includes('the docs folder')),
      'fs/read_text_file is refused',
    );
  });

  it('a load sends only the reported directories inside the window\'s folders; "/" and others are dropped with a log line', async () => {
    const { registry, sent } = setup();
    const row = await reporting(registry, ['/', docs, outside]);
    const d = deps();
    const c = chat(
      registry,
      {
        agentId: 'ref',
        sessionId: row.sessionId,
        cwd: row.cwd,
        additionalDirectories: row.additionalDirectories ?? undefined,
      },
      d,
    );
    await c.attach('load');
    assert.deepEqual(sent('session/load'), [[docs]]);
    assert.deepEqual(c.roots, [project, docs]);
    assert.equal(d.logger.lines.filter((l) => /not a root/.test(l)).length, 2, d.logger.lines.join('\n'));
    await c.prompt(`read ${join(outside, 'secret.txt')}`);
    assert.ok(
      !c.thread.entries.some((e) => e.type === 'agent' && e.text.includes('not for the agent')),
      'what the agent reported is no root',
    );
  });

  it("logs a dropped directory with the agent's secrets masked before the line is cut", async () => {
    const key = 'dropped-k3y-0123456789-qzxv-wjkp-9876543210';
    const registry = registryWith({ ...refAgentConfig(store), env: { ACP_REF_KEY: key } }, hostDeps({}, { rootsFor }));
    registries.push(registry);
    const d = deps();
    // The key lies across the length at which a line about a session is cut.
    const c = chat(registry, { agentId: 'ref', cwd: project, additionalDirectories: [`/${'d'.repeat(370)}${key}`] }, d);
    await c.attach('new');
    const line = d.logger.lines.find((l) => /not a root/.test(l));
    assert.ok(line, d.logger.lines.join('\n'));
    const pieces = [...Array(key.length - 7).keys()].map((i) => key.slice(i, i + 8));
    assert.ok(!pieces.some((p) => line.includes(p)), `no piece of the key shows: ${line}`);
  });

  it("after a window reload the panel's saved state brings the directories back, and the load sends them again", async () => {
    const { registry, sent } = setup();
    const first = chat(registry, { agentId: 'ref', cwd: project, additionalDirectories: [docs] });
    await first.attach('new');
    // What the webview saves and VS Code hands back to the serializer, through storage.
    const saved = JSON.parse(JSON.stringify({ target: panelTargetOf(first.capabilities(), undefined) })) as {
      target: unknown;
    };
    first.dispose();
    chats.delete(first);
    const target = readPanelTarget(saved.target);
    assert.deepEqual(target?.additionalDirectories, [docs]);
    const restored = chat(registry, target!);
    await restored.attach('load');
    assert.deepEqual(sent('session/load'), [[docs]]);
    assert.deepEqual(restored.roots, [project, docs]);
  });
});
