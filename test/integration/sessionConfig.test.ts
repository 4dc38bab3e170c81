import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import { AgentHost } from '../../src/agent/agentHost';
import { MemoryLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { refAgentConfig, useSeededFolder } from '../support/refAgent';

const option = (options: readonly SessionConfigOption[], id: string) => options.find((o) => o.id === id);

describe('Session config options against the reference agent', function () {
  this.timeout(30_000);
  const { dir, store, cwd, running: hosts } = useSeededFolder<AgentHost>(2, 1);

  it('toggles a boolean option: sent as { type: "boolean", value }, and the chat shows the new value', async () => {
    const record = join(dir.path, 'record.jsonl');
    const logger = new MemoryLogger();
    const h = new AgentHost(refAgentConfig(store, ['--record', record]), {
      logger,
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
    });
    hosts.push(h);
    const chat = new ChatSession(
      h,
      { agentId: 'ref', cwd },
      { logger, mcpServers: () => [], describeError: (e) => String(e) },
    );
    await chat.attach('new');
    const before = option(chat.thread.meta.configOptions, 'thinking');
    assert.equal(before?.type, 'boolean');
    assert.equal(before?.currentValue, false);

    await chat.setConfigOption('thinking', true);
    assert.equal(
      option(chat.thread.meta.configOptions, 'thinking')?.currentValue,
      true,
      'the agent took it and the chat shows it',
    );
    await chat.setConfigOption('thinking', false);
    assert.equal(option(chat.thread.meta.configOptions, 'thinking')?.currentValue, false);
    // A select option still goes as a plain value id.
    await chat.setConfigOption('model', 'ref-smart');
    assert.equal(option(chat.thread.meta.configOptions, 'model')?.currentValue, 'ref-smart');

    const sent = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; params: Record<string, unknown> })
      .filter((m) => m.method === 'session/set_config_option')
      .map(({ params: { configId, type, value } }) => ({ configId, type, value }));
    assert.deepEqual(sent, [
      { configId: 'thinking', type: 'boolean', value: true },
      { configId: 'thinking', type: 'boolean', value: false },
      { configId: 'model', type: undefined, value: 'ref-smart' },
    ]);
  });
});
