import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';

// `gc` without starting mocha with --expose-gc: the flag applies to contexts made after it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('Memory held by a long-lived connection', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  let c: AgentConnection | undefined;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 200, 0);
  });
  after(async () => {
    await c?.stop();
    dir.cleanup();
  });

  it('keeps nothing of a request once it settled: results the caller dropped are collected while the agent runs', async () => {
    c = await AgentConnection.start({
      config: refAgentConfig(store, ['--page-size', '200']),
      logger: silentLogger,
      handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
      clientInfo: { name: 't', version: '0' },
    });
    const conn = c;
    // In a function of its own, so no variable of this test's frame holds a result.
    const fetchAndDrop = async () =>
      new WeakRef(await conn.call<object>('session/list', { cwd }, { timeoutMs: 10_000 }));
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < 10; i++) refs.push(await fetchAndDrop());
    // The stream pipeline holds the last message it passed on until the next one: send one more.
    await conn.call('session/list', { cwd: join(dir.path, 'elsewhere') }, { timeoutMs: 10_000 });
    // WeakRefs hold their target until the current job ends: collect from a later turn.
    await new Promise((r) => setImmediate(r));
    gc();
    await new Promise((r) => setImmediate(r));
    gc();
    const kept = refs.filter((r) => r.deref() !== undefined).length;
    assert.equal(kept, 0, `${kept} of ${refs.length} dropped results are still reachable`);
    assert.ok(c.isAlive, 'the agent is still running: nothing was freed by its exit');
  });
});
