import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost } from '../../src/agent/agentHost';
import { AgentConnection } from '../../src/agent/connection';
import { AgentExited, ProtocolError } from '../../src/agent/errors';
import { MemoryLogger } from '../../src/agent/log';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

describe('Hostile and broken agents', function () {
  this.timeout(60_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const stops: Array<() => Promise<void>> = [];

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 30, 1);
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((s) => s()));
  });
  after(() => dir.cleanup());

  it('closes the connection on a message over 32 MiB with a clear error, and a restart works again', async () => {
    const logger = new MemoryLogger();
    const h = new AgentHost(refAgentConfig(store, ['--huge-message']), {
      logger,
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
      restartBaseMs: 60_000,
    });
    stops.push(() => h.stop());
    const c = await h.connect();
    await assert.rejects(c.listSessions({ cwd }), (e: unknown) => {
      assert.ok(e instanceof AgentExited || e instanceof ProtocolError, String(e));
      return true;
    });
    assert.ok(logger.lines.some((l) => /over \d+ bytes/.test(l)), logger.lines.join('\n'));
    // The process is gone (we stop it when the connection closes), so nothing is left half-open.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(c.isAlive, false);
    const again = await h.restart();
    assert.notEqual(again.pid, c.pid);
    assert.ok(again.isAlive);
  });

  it('keeps working through deeply nested JSON and unknown update kinds from the agent', async () => {
    const logger = new MemoryLogger();
    const c = await AgentConnection.start({
      config: refAgentConfig(store, ['--garbage']),
      logger,
      // Verbose tracing walks every message: deep nesting must not break it either.
      trace: () => 'verbose',
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      clientInfo: { name: 't', version: '0' },
    });
    stops.push(() => c.stop());
    for (let i = 0; i < 3; i++) {
      const page = await c.listSessions({ cwd });
      assert.ok(page.sessions.length > 0);
    }
    assert.ok(c.stats.invalidLines > 0, JSON.stringify(c.stats));
    assert.ok(c.stats.unknownUpdates > 0, 'the made-up update kind was counted');
    assert.ok(logger.lines.some((l) => /too deeply nested/.test(l)), 'the nested line was reported, not fatal');
    assert.ok(c.isAlive);
  });
});
