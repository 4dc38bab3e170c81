import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost, AgentRegistry, type AgentHostDeps, type AgentState } from '../../src/agent/agentHost';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { AgentExited } from '../../src/agent/errors';
import { MemoryLogger, silentLogger } from '../../src/agent/log';
import { isAlive as alive, refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor, quietFor } from '../support/wait';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };
const clientInfo = { name: 'acp-client-test', version: '0.0.0' };

/**
 * Gone, or going: once stop() resolves the whole group has had SIGKILL, which the kernel
 * delivers a moment later (and a slow reaper may show it as a zombie meanwhile).
 */
async function gone(pid: number, what: string): Promise<void> {
  await waitFor(`${what} (pid ${pid}) to end`, () => !alive(pid), 1000);
}

describe('Agent process lifetime', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const stops: { stop(): Promise<void> }[] = [];
  /** Pids this suite's agents wrote with --started-file, ended by pid in case a test failed. */
  const pids: number[] = [];
  let n = 0;

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 3, 1);
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((s) => s.stop()));
    for (const pid of pids.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  after(() => dir.cleanup());

  /** The reference agent through `--launcher`: the connection's pid is the launcher, the agent its child. */
  async function launched(extra: string[] = []) {
    const started = join(dir.path, `started-${++n}`);
    const c = await AgentConnection.start({
      config: refAgentConfig(store, ['--launcher', '--started-file', started, ...extra]),
      logger: new MemoryLogger(),
      handlers,
      clientInfo,
    });
    stops.push(c);
    await waitFor(
      'the child agent to write its pid',
      () => existsSync(started) && readFileSync(started, 'utf8').trim() !== '',
    );
    const child = Number(readFileSync(started, 'utf8').trim());
    pids.push(child);
    assert.notEqual(child, c.pid, 'the agent is a child of the launcher');
    return { c, launcher: c.pid!, child };
  }

  it('stop ends the whole group: the launcher and the agent it started', async () => {
    const { c, launcher, child } = await launched();
    assert.equal((await c.listSessions({ cwd })).sessions.length, 3, 'the child answers through the launcher');
    await c.stop();
    assert.equal(alive(launcher), false, 'the launcher is gone');
    await gone(child, 'the agent it started');
  });

  it('a launcher that dies does not leave its agent running', async () => {
    const { c, launcher, child } = await launched();
    const exited = new Promise<AgentExited>((resolve) => c.onDidExit(resolve));
    process.kill(launcher, 'SIGKILL');
    const e = await exited;
    assert.equal(e.signal, 'SIGKILL');
    await c.stop();
    await gone(child, 'the child of the dead launcher');
  });

  it('reports an exit to a listener that subscribes after the agent already quit', async () => {
    // The agent quits right after answering initialize; start may see the answer or the exit first.
    let c: AgentConnection | undefined;
    for (let i = 0; i < 5 && !c; i++) {
      c = await AgentConnection.start({
        config: refAgentConfig(store, ['--exit-after-initialize']),
        logger: silentLogger,
        handlers,
        clientInfo,
      }).catch((e: unknown) => {
        assert.ok(e instanceof AgentExited, String(e));
        return undefined;
      });
    }
    assert.ok(c, 'started at least once');
    stops.push(c);
    await waitFor('the process to end', () => !c.isAlive);
    // Subscribing late, after the exit was delivered, as the host does once `start` has returned.
    await quietFor(50);
    const heard = await new Promise<AgentExited | undefined>((resolve) => {
      c.onDidExit(resolve);
      setTimeout(() => resolve(undefined), 1000);
    });
    assert.ok(heard instanceof AgentExited, 'the late listener heard of the exit');
    assert.equal(heard.code, 0);
  });

  it('a host whose agent quits right after initialize ends failed and restarting, never "ready" with a dead agent', async () => {
    const h = new AgentHost(refAgentConfig(store, ['--exit-after-initialize']), {
      logger: silentLogger,
      clientInfo,
      trace: () => 'off',
      handlers: () => handlers,
      restartBaseMs: 60_000,
    });
    stops.push(h);
    const states: AgentState['kind'][] = [];
    h.onDidChangeState((s) => states.push(s.kind));
    await h.connect().catch(() => undefined);
    await waitFor('the host to notice', () => h.state.kind === 'failed');
    assert.ok(h.state.kind === 'failed' && h.state.error instanceof AgentExited, JSON.stringify(states));
    await quietFor(200);
    assert.equal(h.state.kind, 'failed', 'it stays failed until the restart is due');
  });

  it('stopAll (what deactivate returns) ends every agent, including the child of a launcher', async () => {
    const deps: AgentHostDeps = { logger: silentLogger, clientInfo, trace: () => 'off', handlers: () => handlers };
    const registry = new AgentRegistry(deps);
    stops.push({ stop: async () => registry.dispose() });
    const started = join(dir.path, `started-${++n}`);
    registry.update(
      [
        refAgentConfig(store, [], 'plain'),
        refAgentConfig(store, ['--launcher', '--started-file', started], 'launched'),
      ],
      '',
    );
    const [a, b] = await Promise.all(registry.all.map((h) => h.connect()));
    await waitFor(
      'the child agent to write its pid',
      () => existsSync(started) && readFileSync(started, 'utf8').trim() !== '',
    );
    const child = Number(readFileSync(started, 'utf8').trim());
    pids.push(child);
    await registry.stopAll();
    assert.equal(alive(a!.pid!), false, 'the plain agent is gone');
    assert.equal(alive(b!.pid!), false, 'the launcher is gone');
    await gone(child, 'the child of the launcher');
  });
});
