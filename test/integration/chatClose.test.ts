// Closing a chat and cancelling what it waits for, checked against what the reference agent
// received (--record): nothing is left open on the agent's side, and the status line says what
// is under way.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { AgentRegistry } from '../../src/agent/agentHost';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { ChatSession } from '../../src/chat/chatSession';
import type { LoadingPhase } from '../../src/protocol/entries';
import { chatDeps, hostDeps, hostOf, methods, recorded, registryWith } from '../support/chat';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor, quietFor } from '../support/wait';

describe('Closing a chat and cancelling its attach', function () {
  this.timeout(40_000);
  const dir = tempDir();
  const store = join(dir.path, 'store');
  const cwd = join(dir.path, 'project');
  const registries: AgentRegistry[] = [];
  let n = 0;
  let sessionId = '';

  before(() => {
    mkdirSync(cwd);
    seed(store, [cwd], 3, 2);
  });
  afterEach(async () => {
    for (const r of registries.splice(0)) {
      await r.stopAll();
      r.dispose();
    }
  });
  after(() => dir.cleanup());

  function setup(switches: string[], permissions: Parameters<typeof hostDeps>[0] = {}) {
    const record = join(dir.path, `record-${++n}.jsonl`);
    const registry = registryWith(refAgentConfig(store, ['--record', record, ...switches]), hostDeps(permissions));
    registries.push(registry);
    return { registry, record };
  }

  /** A seeded session; the last one listed is never prompted by these tests. */
  async function listed(registry: AgentRegistry, last = false): Promise<string> {
    const sessions = (await (await hostOf(registry).connect()).listSessions({ cwd })).sessions;
    if (last) return sessions.at(-1)!.sessionId;
    sessionId ||= sessions[0]!.sessionId;
    return sessionId;
  }

  const phases = (chat: ChatSession) => {
    const seen: (LoadingPhase | undefined)[] = [];
    chat.thread.onDidChange((cs) =>
      cs.forEach((c) => c.kind === 'statusChanged' && c.status.state === 'loading' && seen.push(c.status.phase)),
    );
    return seen;
  };

  it('closed while the agent is still starting: neither session/load nor session/new goes out', async () => {
    const { registry, record } = setup(['--delay', '400']);
    const existing = new ChatSession(registry, { agentId: 'ref', sessionId: 'sess-listed-before', cwd }, chatDeps());
    const fresh = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    const attaching = [existing.attach('load'), fresh.attach('new')];
    await Promise.all([existing.close(), fresh.close()]);
    await Promise.all(attaching);
    await hostOf(registry).connect();
    await quietFor(600);
    assert.deepEqual(methods(record), [], 'nothing but initialize reached the agent');
    assert.equal(fresh.sessionId, undefined);
  });

  it('closed while session/new is under way: the session, once created, is closed', async () => {
    const { registry, record } = setup(['--delay', '300']);
    await hostOf(registry).connect();
    const chat = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    let created = false;
    chat.onDidCreateSession(() => (created = true));
    const attaching = chat.attach('new');
    await waitFor('session/new sent', () => methods(record).includes('session/new'));
    await chat.close();
    await attaching;
    const close = recorded(record).find((m) => m.method === 'session/close');
    assert.ok(chat.sessionId, 'the agent created it');
    assert.equal(close?.params.sessionId, chat.sessionId, 'and heard session/close for it');
    assert.equal(created, false, 'a closed panel does not take the new session');
  });

  it('closed during a load: the load stops and session/close follows it', async () => {
    const { registry, record } = setup(['--load-delay', '2000']);
    const chat = new ChatSession(registry, { agentId: 'ref', sessionId: await listed(registry), cwd }, chatDeps());
    const attaching = chat.attach('load');
    await waitFor('session/load sent', () => methods(record).includes('session/load'));
    const started = Date.now();
    await chat.close();
    await attaching;
    assert.ok(Date.now() - started < 1500, 'close does not wait for the replay');
    assert.deepEqual(
      methods(record).filter((m) => m.startsWith('session/')),
      ['session/list', 'session/load', 'session/close'],
    );
  });

  it('closed with a permission card pending: the card is answered "cancelled", then session/cancel, then session/close', async () => {
    const perms: { handler?: ClientHandlers['requestPermission'] } = {};
    const { registry, record } = setup([], perms);
    const chat = new ChatSession(registry, { agentId: 'ref', sessionId: await listed(registry), cwd }, chatDeps());
    let answered: Promise<RequestPermissionResponse> | undefined;
    perms.handler = (params, signal) => (answered = chat.requestPermission(params, signal));
    await chat.attach('resume');
    void chat.prompt('ask permission please');
    await waitFor('the permission card', () => chat.thread.entries.some((e) => e.type === 'permission'));
    await chat.close();
    assert.deepEqual(await answered, { outcome: { outcome: 'cancelled' } });
    const tail = methods(record).filter((m) => m === 'session/cancel' || m === 'session/close');
    assert.deepEqual(tail, ['session/cancel', 'session/close']);
  });

  it('says what it waits for: starting the agent, "Starting session…" for new, "Resuming…" for resume', async () => {
    const { registry } = setup(['--delay', '150']);
    const fresh = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    const seenNew = phases(fresh);
    await fresh.attach('new');
    assert.deepEqual(seenNew, ['connect', 'new']);
    const resumed = new ChatSession(registry, { agentId: 'ref', sessionId: await listed(registry), cwd }, chatDeps());
    const seenResume = phases(resumed);
    await resumed.attach('resume');
    assert.deepEqual(seenResume, ['connect', 'resume']);
    fresh.dispose();
    resumed.dispose();
  });

  it('Cancel during session/new really cancels it: the request is withdrawn and Retry starts again', async () => {
    const { registry, record } = setup(['--hang', 'session/new']);
    await hostOf(registry).connect();
    const chat = new ChatSession(registry, { agentId: 'ref', cwd }, chatDeps());
    const attaching = chat.attach('new');
    await waitFor('session/new sent', () => methods(record).includes('session/new'));
    chat.cancelLoad();
    await attaching;
    const status = chat.thread.status;
    assert.equal(status.state, 'error');
    assert.match(status.state === 'error' ? status.message : '', /Starting the session was cancelled/);
    assert.ok(status.state === 'error' && status.canRetry);
    await waitFor('the agent told with $/cancel_request', () => methods(record).includes('$/cancel_request'), 3000);
    chat.dispose();
  });

  it('cancelling a resume says so, without a "History is partial" divider', async () => {
    const { registry, record } = setup(['--hang', 'session/resume']);
    const chat = new ChatSession(registry, { agentId: 'ref', sessionId: await listed(registry), cwd }, chatDeps());
    await chat.attach('load');
    const entries = chat.thread.entries.length;
    const attaching = chat.attach('resume');
    await waitFor('session/resume sent', () => methods(record).includes('session/resume'));
    chat.cancelLoad();
    await attaching;
    assert.ok(
      !chat.thread.entries.some((e) => e.type === 'divider' && /partial/i.test(e.text)),
      'a resume replays nothing, so nothing is partial',
    );
    assert.equal(chat.thread.entries.length, entries, 'the history shown stays');
    const status = chat.thread.status;
    assert.match(status.state === 'error' ? status.message : '', /Resuming the session was cancelled/);
    chat.dispose();
  });

  it('"Open with history" on a panel opened by resume loads the history into it', async () => {
    const { registry, record } = setup([]);
    const chat = new ChatSession(
      registry,
      { agentId: 'ref', sessionId: await listed(registry, true), cwd },
      chatDeps(),
    );
    await chat.attach('resume');
    assert.equal(chat.thread.entries.length, 0);
    await chat.openWithHistory();
    assert.equal(chat.history, 'loaded');
    assert.equal(chat.thread.entries.filter((e) => e.type === 'user').length, 2);
    await chat.openWithHistory();
    assert.equal(methods(record).filter((m) => m === 'session/load').length, 1, 'a loaded panel is only revealed');
    chat.dispose();
  });
});
