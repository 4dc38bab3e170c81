// A chat whose agent wants sign-in (-32000): the banner offers "Sign in to …" instead of a bare
// error, and what failed (the attach, a reattach, a prompt) goes again once signed in.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRegistry } from '../../src/agent/agentHost';
import { ChatSession } from '../../src/chat/chatSession';
import { chatDeps, hostOf, registryWith } from '../support/chat';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

describe('Sign-in inside a chat', function () {
  this.timeout(40_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const registries: AgentRegistry[] = [];

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 3, 1);
  });
  afterEach(async () => {
    for (const r of registries.splice(0)) {
      await r.stopAll();
      r.dispose();
    }
  });
  after(() => dir.cleanup());

  function setup() {
    const registry = registryWith(refAgentConfig(store, ['--auth-required']));
    registries.push(registry);
    return registry;
  }

  /** The session ids, listed after signing in once (the agent refuses to list before). */
  async function sessionIds(registry: AgentRegistry): Promise<string[]> {
    const c = await hostOf(registry).connect();
    await c.authenticate('reference-login');
    const ids = (await c.listSessions({ cwd })).sessions.map((s) => s.sessionId);
    await c.logout();
    return ids;
  }

  const signInBanner = (chat: ChatSession) => {
    const s = chat.thread.status;
    return s.state === 'error' && s.signIn === true && s.canRetry;
  };

  it('an attach refused for want of sign-in offers "Sign in to …", and after signing in Retry attaches', async () => {
    const registry = setup();
    const [id] = await sessionIds(registry);
    const chat = new ChatSession(registry, { agentId: 'ref', sessionId: id!, cwd }, chatDeps());
    await chat.attach('load');
    assert.ok(signInBanner(chat), JSON.stringify(chat.thread.status));
    assert.equal(chat.capabilities().canPrompt, false);

    await (await hostOf(registry).connect()).authenticate('reference-login');
    await chat.retry();
    assert.equal(chat.thread.status.state, 'idle');
    assert.ok(chat.capabilities().canPrompt);
    chat.dispose();
  });

  it('a prompt refused mid-chat keeps the prompt, offers sign-in, and is sent once signed in', async () => {
    const registry = setup();
    const [, id] = await sessionIds(registry);
    const c = await hostOf(registry).connect();
    await c.authenticate('reference-login');
    const chat = new ChatSession(registry, { agentId: 'ref', sessionId: id!, cwd }, chatDeps());
    await chat.attach('resume');
    await c.logout();

    await chat.prompt('hello after signing out');
    assert.ok(signInBanner(chat), JSON.stringify(chat.thread.status));
    assert.deepEqual(
      chat.thread.entries.map((e) => e.type),
      ['user'],
      'the prompt stays; no "Turn interrupted" for a turn that never ran',
    );

    await c.authenticate('reference-login');
    await chat.retry();
    await waitFor(
      'the reply',
      () => chat.thread.status.state === 'idle' && chat.thread.entries.some((e) => e.type === 'agent'),
    );
    assert.equal(
      chat.thread.entries.filter((e) => e.type === 'user').length,
      1,
      'the prompt is sent again, not shown twice',
    );
    assert.ok(chat.thread.entries.some((e) => e.type === 'agent' && e.text.includes('hello after signing out')));
    chat.dispose();
  });

  it('a reattach after a crash that the restarted agent refuses for want of sign-in offers sign-in too', async () => {
    const registry = setup();
    const [, , id] = await sessionIds(registry);
    const host = hostOf(registry);
    const c = await host.connect();
    await c.authenticate('reference-login');
    const chat = new ChatSession(registry, { agentId: 'ref', sessionId: id!, cwd }, chatDeps());
    await chat.attach('resume');
    process.kill(c.pid!, 'SIGKILL');
    // The restarted agent has forgotten the sign-in, as a real one whose token expired.
    await waitFor('the sign-in banner after the automatic reattach', () => signInBanner(chat), 15_000);
    await (await host.connect()).authenticate('reference-login');
    await chat.retry();
    assert.equal(chat.thread.status.state, 'idle');
    assert.ok(chat.capabilities().canPrompt);
    chat.dispose();
  });
});
