// Modes and config options against the reference agent: what the client sends is what the
// schema asks for, and a refused change leaves the thread's meta at the agent's value.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost } from '../../src/agent/agentHost';
import { MemoryLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { refAgentConfig, tempDir } from '../support/refAgent';

describe('Session modes and config options', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  let host: AgentHost;
  let chat: ChatSession;

  before(async () => {
    mkdirSync(cwd);
    host = new AgentHost(refAgentConfig(store), {
      logger: new MemoryLogger(),
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
    });
    chat = new ChatSession(
      host,
      { agentId: 'ref', cwd },
      { logger: new MemoryLogger(), mcpServers: () => [], describeError: (e) => String(e) },
    );
    await chat.attach('new');
  });
  after(async () => {
    chat.dispose();
    await host.stop();
    dir.cleanup();
  });

  const option = (id: string) => chat.thread.meta.configOptions.find((o) => o.id === id);

  it('sets a boolean option with the `type: "boolean"` form the schema requires', async () => {
    assert.equal(option('thinking')?.currentValue, false);
    await chat.setConfigOption('thinking', true);
    assert.equal(option('thinking')?.currentValue, true, 'the agent accepted it and answered with the new value');
  });

  it("keeps the agent's values when it refuses a mode or an option", async () => {
    const mode = chat.thread.meta.modes?.currentModeId;
    await assert.rejects(chat.setMode('no-such-mode'));
    assert.equal(chat.thread.meta.modes?.currentModeId, mode);
    await assert.rejects(chat.setConfigOption('model', 'no-such-model'));
    assert.equal(option('model')?.currentValue, 'ref-fast');
    await chat.setConfigOption('model', 'ref-smart');
    assert.equal(option('model')?.currentValue, 'ref-smart');
  });
});
