import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost, type AgentState } from '../../src/agent/agentHost';
import { AgentConnection } from '../../src/agent/connection';
import { AgentExited } from '../../src/agent/errors';
import { MemoryLogger } from '../../src/agent/log';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

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

  it('closes the connection on a message over 32 MiB with an error that says so, and restarts the agent on its own', async () => {
    const logger = new MemoryLogger();
    const h = new AgentHost(refAgentConfig(store, ['--huge-message']), {
      logger,
      clientInfo: { name: 'test', version: '0' },
      trace: () => 'off',
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
      restartBaseMs: 50,
    });
    stops.push(() => h.stop());
    const states: AgentState[] = [];
    h.onDidChangeState((s) => states.push(s));
    const c = await h.connect();
    const tooLarge = /Reference Agent sent a message over 32 MiB.*connection was closed/;
    await assert.rejects(c.listSessions({ cwd }), (e: unknown) => {
      assert.ok(e instanceof AgentExited, String(e));
      assert.match(e.message, tooLarge);
      return true;
    });
    const failed = states.find((s) => s.kind === 'failed');
    assert.ok(failed?.kind === 'failed', JSON.stringify(states.map((s) => s.kind)));
    assert.match(failed.error.message, tooLarge, 'the host says why, not "stopped (exit code 0)"');
    assert.ok(
      logger.lines.some((l) => tooLarge.test(l)),
      logger.lines.join('\n'),
    );
    // No Restart pressed: the host starts the agent again as after a crash.
    await waitFor('the agent started again', () => h.state.kind === 'ready' && h.connection?.pid !== c.pid);
    assert.equal(h.state.kind, 'ready');
    assert.notEqual(h.connection?.pid, c.pid);
    assert.equal(c.isAlive, false);
    assert.ok(h.connection?.isAlive);
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
    assert.ok(c.stats.notJson > 0 && c.stats.notJsonRpc > 0, JSON.stringify(c.stats));
    assert.ok(c.stats.unknownUpdates > 0, 'the made-up update kind was counted');
    assert.ok(
      logger.lines.some((l) => /too deeply nested/.test(l)),
      'the nested line was reported, not fatal',
    );
    assert.ok(c.isAlive);
  });
});
