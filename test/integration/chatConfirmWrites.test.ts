// A confined write that would run code: the agent writes `.git/config` (core.fsmonitor runs on
// the next `git status`) or VS Code's tasks. The chat shows the path and the change and asks;
// only an explicit Allow writes, and with no chat to ask, nothing is written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WriteConfirmation } from '../../src/agent/confirmWrites';
import { ClientFileSystem } from '../../src/agent/fileSystem';
import { silentLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import type { PermissionEntry, ToolCallEntry } from '../../src/protocol/entries';
import { chatDeps, hostDeps, registryWith, useRegistries } from '../support/chat';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

describe('Writes to files that make tools run code', function () {
  this.timeout(40_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const project = join(dir.path, 'project');
  const config = join(project, '.git', 'config');
  const registries = useRegistries();
  const chats = new Set<ChatSession>();

  before(() => {
    mkdirSync(join(project, '.git'), { recursive: true });
    seed(store, [project], 1, 0);
  });
  beforeEach(() => writeFileSync(config, '[core]\n\tbare = false\n'));
  afterEach(() => chats.clear());
  after(() => dir.cleanup());

  const session = (id: string) => [...chats].find((c) => c.sessionId === id);

  async function openChat(withChat = true): Promise<ChatSession> {
    const fs = new ClientFileSystem({
      rootsFor: (id) => session(id)?.pinnedRoots,
      logger: silentLogger,
      // As the extension wires it: the session's chat asks, and no chat means no write.
      confirmWrite: (r: WriteConfirmation, signal) =>
        (withChat ? session(r.sessionId)?.confirmWrite(r, signal ?? new AbortController().signal) : undefined) ??
        Promise.resolve(false),
    });
    const registry = registryWith(refAgentConfig(store), hostDeps({}, { fs }));
    registries.push(registry);
    const c = new ChatSession(registry, { agentId: 'ref', cwd: project }, chatDeps());
    chats.add(c);
    await c.attach('new');
    return c;
  }

  const card = (c: ChatSession) =>
    c.thread.entries.find((e): e is PermissionEntry => e.type === 'permission' && e.outcome === undefined);

  it('shows the path and the change in the chat, and writes only after Allow', async () => {
    const c = await openChat();
    const turn = c.prompt(`write ${config}`);
    const asked = await waitFor('the confirmation card', () => card(c) !== undefined).then(() => card(c)!);
    assert.match(asked.title, /Allow the agent to write .*\.git\/config\? .*Git run commands/);
    assert.deepEqual(
      asked.options.map((o) => o.name),
      ['Allow this write', 'Do not write'],
    );
    const tool = c.thread.entries.find(
      (e): e is ToolCallEntry => e.type === 'tool' && e.toolCallId === asked.toolCallId,
    )!;
    const diff = tool.content[0];
    assert.ok(diff?.type === 'diff', 'the change is shown as a diff');
    assert.equal(diff.path, config);
    assert.equal(diff.oldText, '[core]\n\tbare = false\n');
    assert.match(diff.newText, /written by acp-reference-agent/);
    assert.equal(readFileSync(config, 'utf8'), '[core]\n\tbare = false\n', 'nothing written while it asks');
    c.answerPermission(asked.requestId, 'allow-write');
    await turn;
    assert.match(readFileSync(config, 'utf8'), /written by acp-reference-agent/);
  });

  it('writes nothing when the user declines, dismisses, or there is no chat to ask', async () => {
    for (const answer of ['deny', null] as const) {
      const c = await openChat();
      const turn = c.prompt(`write ${config}`);
      await waitFor('the confirmation card', () => card(c) !== undefined);
      c.answerPermission(card(c)!.requestId, answer);
      await turn;
      assert.equal(readFileSync(config, 'utf8'), '[core]\n\tbare = false\n', String(answer));
      assert.ok(
        c.thread.entries.some((e) => e.type === 'agent' && /Could not write .*did not allow it/.test(e.text)),
        'the agent hears why',
      );
    }
    const c = await openChat(false);
    await c.prompt(`write ${config}`);
    assert.equal(readFileSync(config, 'utf8'), '[core]\n\tbare = false\n', 'no chat');
  });
  it("asks before a Husky hook is written (Git runs it on the next commit), and a dev container's or VS Code's MCP servers", async () => {
    for (const rel of ['.husky/pre-commit', '.devcontainer/devcontainer.json', '.vscode/mcp.json']) {
      const path = join(project, rel);
      const c = await openChat();
      const turn = c.prompt(`write ${path}`);
      await waitFor(`the confirmation card for ${rel}`, () => card(c) !== undefined);
      assert.match(card(c)!.title, new RegExp(`Allow the agent to write .*${rel.replace(/\./g, '\\.')}\\?`));
      assert.ok(!existsSync(path), `${rel}: nothing written while it asks`);
      c.answerPermission(card(c)!.requestId, 'deny');
      await turn;
      assert.ok(!existsSync(path), `${rel}: declined, nothing written`);
    }
  });

  it('refuses names Windows reads as a file that needs confirmation, without asking, and the agent hears why', async () => {
    mkdirSync(join(project, '.vscode'), { recursive: true });
    const before = readdirSync(join(project, '.vscode'));
    for (const name of ['tasks.json.', 'tasks.json::$DATA', 'nul.json']) {
      const c = await openChat();
      await c.prompt(`write ${join(project, '.vscode', name)}`);
      assert.equal(card(c), undefined, `${name}: no card, refused before`);
      assert.ok(
        c.thread.entries.some((e) => e.type === 'agent' && e.text.includes(`the name "${name}"`)),
        `${name}: the agent hears why`,
      );
    }
    assert.deepEqual(readdirSync(join(project, '.vscode')), before, 'nothing written');
  });
});
