import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHost } from '../../src/agent/agentHost';
import { signInMethods, terminalLaunch } from '../../src/agent/auth';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { AuthRequired, ProtocolError } from '../../src/agent/errors';
import { MemoryLogger, silentLogger } from '../../src/agent/log';
import { MissingSecret } from '../../src/agent/errors';
import { resolveAgentEnv, withSignInEnv } from '../../src/agent/secrets';
import type { AgentConfig } from '../../src/agent/types';
import { agentScript, refAgentConfig, seed, tempDir } from '../support/refAgent';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };
const clientInfo = { name: 'acp-client-test', version: '0.0.0' };

describe('Sign-in against the reference agent', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const cwd = join(dir.path, 'project');
  let n = 0;
  const open: { stop(): Promise<void> }[] = [];

  before(() => mkdirSync(cwd));
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.stop()));
  });
  after(() => dir.cleanup());

  /** A fresh store per test: terminal sign-in leaves a marker in it. */
  function freshStore(): string {
    const store = join(dir.path, `store-${++n}`);
    seed(store, [cwd], 3, 1);
    return store;
  }

  async function start(config: AgentConfig, logger = new MemoryLogger(), secrets: string[] = []) {
    const c = await AgentConnection.start({ config, logger, handlers, clientInfo, secrets, trace: () => 'verbose' });
    open.push(c);
    return c;
  }

  it('announces terminal auth, lists after authenticate with an agent method, and clears "needs sign-in"', async () => {
    const c = await start(refAgentConfig(freshStore(), ['--auth-required']));
    await assert.rejects(c.listSessions({ cwd }), AuthRequired);
    assert.equal(c.needsSignIn, true);
    const methods = signInMethods(c.features.authMethods);
    assert.deepEqual(
      methods.map((m) => [m.id, m.kind, m.name]),
      [['reference-login', 'agent', 'Log in']],
    );
    const changes: boolean[] = [];
    c.onDidChangeAuth((v) => changes.push(v));
    await c.authenticate('reference-login');
    assert.equal(c.needsSignIn, false);
    const page = await c.listSessions({ cwd });
    assert.equal(page.sessions.length, 3);
    assert.deepEqual(changes, [false]);
  });

  it('refuses to send a terminal method to authenticate', async () => {
    const c = await start(refAgentConfig(freshStore(), ['--auth-terminal']));
    const [method] = signInMethods(c.features.authMethods);
    assert.equal(method?.kind, 'terminal');
    await assert.rejects(c.authenticate(method!.id), ProtocolError);
  });

  it('signs in with a terminal method: the agent program with the method args exits 0, and the next start lists', async () => {
    const config = refAgentConfig(freshStore(), ['--auth-terminal']);
    const c = await start(config);
    await assert.rejects(c.listSessions({ cwd }), AuthRequired);
    const method = signInMethods(c.features.authMethods).find((m) => m.kind === 'terminal')!;
    assert.deepEqual(method.args, ['--login']);
    // What the terminal runs: the configured command, the agent's args, then the method's.
    const launch = terminalLaunch(config, method);
    assert.equal(launch.command, config.command);
    assert.deepEqual(launch.args, [...config.args, '--login']);
    assert.equal(launch.env.ACP_REF_LOGIN, '1');
    const run = spawnSync(launch.command, launch.args, { env: { ...process.env, ...launch.env }, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const again = await start(config);
    assert.equal((await again.listSessions({ cwd })).sessions.length, 3);
  });

  it('a method with its command in _meta["terminal-auth"] (Copilot CLI): lists signed out, runs that command, and the next start opens sessions', async () => {
    const store = freshStore();
    const config = refAgentConfig(store, ['--auth-terminal-meta']);
    const c = await start(config);
    const page = await c.listSessions({ cwd });
    assert.equal(page.sessions.length, 3, 'sessions are listed without signing in');
    await assert.rejects(c.loadSession({ sessionId: page.sessions[0]!.sessionId, cwd, mcpServers: [] }), AuthRequired);
    const [method] = signInMethods(c.features.authMethods);
    assert.equal(method?.kind, 'terminal', 'a method with no type but a terminal command is run in a terminal');
    assert.equal(method?.label, 'Reference Login');
    // The agent's own command line, not the configured agent's with the args appended.
    const launch = terminalLaunch(config, method!);
    assert.equal(launch.command, process.execPath);
    assert.deepEqual(launch.args, [agentScript, '--store', store, '--login']);
    await assert.rejects(c.authenticate(method!.id), ProtocolError, 'never sent to authenticate');
    const run = spawnSync(launch.command, launch.args, { env: { ...process.env, ...launch.env }, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const again = await start(config);
    await again.loadSession({ sessionId: page.sessions[0]!.sessionId, cwd, mcpServers: [] });
  });

  it('signs out where the agent advertises logout: lists need sign-in again', async () => {
    const c = await start(refAgentConfig(freshStore(), ['--auth-required']));
    assert.equal(c.features.logout, true);
    await c.authenticate('reference-login');
    await c.listSessions({ cwd });
    await c.logout();
    await assert.rejects(c.listSessions({ cwd }), AuthRequired);
  });

  it('a wrong key fails clearly with the agent reason; the right one from secret storage works and never reaches the log', async () => {
    const store = freshStore();
    const wrong = await start({
      ...refAgentConfig(store, ['--auth-env', 'k-123456']),
      env: { ACP_REF_KEY: 'nope-999' },
    });
    const e = await wrong.listSessions({ cwd }).catch((x: unknown) => x);
    assert.ok(e instanceof AuthRequired);
    assert.match(e.detail, /ACP_REF_KEY is wrong/);

    const secrets = new Map([['REF_KEY', 'k-123456']]);
    const lookup = async (name: string) => secrets.get(name);
    // The expected key goes through the environment: arguments are logged, env values never.
    // --echo-key: the agent prints the key to stderr and sends it back in session/list's _meta.
    const withRef = {
      ...refAgentConfig(store),
      env: { ACP_REF_AGENT_ARGS: '--auth-env k-123456 --echo-key', ACP_REF_KEY: '${secret:REF_KEY}' },
    };
    await assert.rejects(
      resolveAgentEnv(withRef, async () => undefined),
      MissingSecret,
    );
    const logger = new MemoryLogger();
    const host = new AgentHost(withRef, {
      logger,
      clientInfo,
      trace: () => 'verbose',
      handlers: () => handlers,
      prepare: (config) => resolveAgentEnv(config, lookup),
    });
    open.push(host);
    const c = await host.connect();
    assert.equal(host.config.env.ACP_REF_KEY, '${secret:REF_KEY}', 'settings keep the reference');
    assert.equal((await c.listSessions({ cwd })).sessions.length, 3);
    assert.ok(
      logger.lines.some((l) => l.includes('session/list')),
      'the trace was written',
    );
    assert.ok(
      logger.lines.some((l) => l.includes('ACP_REF_KEY=[redacted]')),
      'the stderr echo reached the log, masked',
    );
    assert.ok(
      logger.lines.some((l) => l.includes('"echo":"key [redacted]"')),
      'the echo on the wire was traced, masked',
    );
    assert.deepEqual(
      logger.lines.filter((l) => l.includes('k-123456')),
      [],
      'the secret is not in the log',
    );
  });

  it("an env_var method: the key given at sign-in goes into the restarted agent's environment, authenticate passes, the key stays out of the log", async () => {
    const store = freshStore();
    // The expected key reaches the agent through ACP_REF_AGENT_ARGS, so it is not in its args.
    const config = { ...refAgentConfig(store), env: { ACP_REF_AGENT_ARGS: '--auth-env k-777-env' } };
    const signedIn: { env?: Record<string, string> } = {};
    const logger = new MemoryLogger();
    const host = new AgentHost(config, {
      logger,
      clientInfo,
      trace: () => 'verbose',
      handlers: () => handlers,
      prepare: async (c) => withSignInEnv(await resolveAgentEnv(c, async () => undefined), signedIn.env),
    });
    open.push(host);
    const first = await host.connect();
    const [method] = signInMethods(first.features.authMethods);
    assert.equal(method?.kind, 'env');
    assert.deepEqual(
      method?.vars?.map((v) => v.name),
      ['ACP_REF_KEY'],
    );
    await assert.rejects(first.listSessions({ cwd }), AuthRequired);
    await assert.rejects(first.authenticate(method!.id), AuthRequired, 'authenticate without the key fails clearly');

    signedIn.env = { ACP_REF_KEY: 'k-777-env' };
    await host.restart();
    const second = await host.connect();
    assert.notEqual(second.pid, first.pid);
    await second.authenticate(method!.id);
    assert.equal((await second.listSessions({ cwd })).sessions.length, 3);
    assert.deepEqual(
      logger.lines.filter((l) => l.includes('k-777-env')),
      [],
      'the key is not in the log',
    );
  });

  it('an AgentHost reports "needs sign-in" through its state event and clears it after success', async () => {
    const host = new AgentHost(refAgentConfig(freshStore(), ['--auth-required']), {
      logger: silentLogger,
      clientInfo,
      trace: () => 'off',
      handlers: () => handlers,
    });
    open.push(host);
    const c = await host.connect();
    let fired = 0;
    host.onDidChangeState(() => fired++);
    await assert.rejects(c.listSessions({ cwd }), AuthRequired);
    assert.equal(host.needsSignIn, true);
    await c.authenticate('reference-login');
    assert.equal(host.needsSignIn, false);
    assert.equal(fired, 2);
  });
});
