// The reference agent's contract, checked with the SDK's own client over real stdio, so every
// other suite can trust what it codes against.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  type ClientCapabilities,
  type ClientContext,
  type InitializeResponse,
  type ListSessionsResponse,
  ndJsonStream,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { seededTurn } from '../agent/content';
import { longReply } from '../agent/replies';
import { agentScript } from '../support/refAgent';
import { waitFor, quietFor } from '../support/wait';

interface Running {
  child: ChildProcess;
  agent: ClientContext;
  init: InitializeResponse;
  updates: SessionNotification[];
  stderr: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

async function start(
  store: string,
  args: string[] = [],
  options: { env?: Record<string, string>; capabilities?: ClientCapabilities; initialize?: boolean } = {},
): Promise<Running> {
  const child = spawn(process.execPath, [agentScript, '--store', store, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const updates: SessionNotification[] = [];
  const app = client({ name: 'reference-agent-test' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', () => ({ outcome: { outcome: 'selected', optionId: 'allow-once' } }))
    .onRequest('terminal/create', () => ({ terminalId: 'term-1' }))
    .onRequest('terminal/wait_for_exit', () => ({ exitCode: 0 }))
    .onRequest('terminal/release', () => ({}))
    .onRequest('fs/read_text_file', ({ params }) => ({ content: `contents of ${params.path}` }));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const agent = connection.agent;
  let init = {} as InitializeResponse;
  if (options.initialize !== false) {
    init = await agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: options.capabilities ?? { fs: { readTextFile: true, writeTextFile: false } },
      clientInfo: { name: 'test', version: '0' },
    });
  }
  return { child, agent, init, updates, stderr: () => stderr, exited };
}

function seed(store: string, cwds: string[], sessions: number, turns: number): void {
  execFileSync(process.execPath, [
    agentScript,
    'seed',
    '--store',
    store,
    ...cwds.flatMap((c) => ['--cwd', c]),
    '--sessions',
    String(sessions),
    '--turns',
    String(turns),
  ]);
}

async function listAll(agent: ClientContext, cwd?: string): Promise<ListSessionsResponse[]> {
  const pages: ListSessionsResponse[] = [];
  let cursor: string | undefined;
  do {
    const page = await agent.request('session/list', { ...(cwd ? { cwd } : {}), ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
    assert.ok(pages.length < 100, 'paging must end');
  } while (cursor);
  return pages;
}

const errorCode = (e: unknown) => (e as { code?: number }).code;
const kinds = (updates: SessionNotification[], sessionId: string) =>
  updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);

describe('reference agent', function () {
  this.timeout(20_000);
  const dir = mkdtempSync(join(tmpdir(), 'acp-ref-test-'));
  const store = join(dir, 'store');
  const cwdA = join(dir, 'proj');
  const cwdB = join(dir, 'proj-b');

  before(() => seed(store, [cwdA, cwdB], 120, 3));
  after(() => {
    for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid);
    rmSync(dir, { recursive: true, force: true });
  });

  it('advertises its capabilities', async () => {
    const { init } = await start(store);
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentInfo?.name, 'acp-reference-agent');
    assert.deepEqual(init.authMethods, []);
    const caps = init.agentCapabilities!;
    assert.equal(caps.loadSession, true);
    assert.equal(caps.promptCapabilities?.image, false);
    assert.equal(caps.promptCapabilities?.embeddedContext, true);
    for (const c of ['list', 'resume', 'close', 'delete'] as const) assert.deepEqual(caps.sessionCapabilities?.[c], {});
    const without = await start(store, ['--no-load', '--no-list']);
    assert.equal(without.init.agentCapabilities?.loadSession, false);
    assert.equal(without.init.agentCapabilities?.sessionCapabilities?.list, undefined);
    await assert.rejects(without.agent.request('session/list', {}), (e) => errorCode(e) === -32601);
  });

  it('advertises title, archive and fork unless withheld, and refuses what it withholds', async () => {
    const { init } = await start(store);
    for (const c of ['title', 'archive', 'fork'])
      assert.deepEqual((init.agentCapabilities?.sessionCapabilities as Record<string, unknown>)[c], {});
    const without = await start(store, ['--no-title', '--no-archive', '--no-fork']);
    const caps = without.init.agentCapabilities?.sessionCapabilities as Record<string, unknown>;
    assert.deepEqual([caps.title, caps.archive, caps.fork], [undefined, undefined, undefined]);
    const [first] = (await without.agent.request('session/list', { cwd: cwdA })).sessions;
    const id = first!.sessionId;
    for (const [method, params] of [
      ['session/set_title', { sessionId: id, title: 'x' }],
      ['session/archive', { sessionId: id }],
      ['session/unarchive', { sessionId: id }],
      ['session/fork', { sessionId: id, cwd: cwdA }],
    ] as const) {
      await assert.rejects(without.agent.request(method, params), (e) => errorCode(e) === -32601, method);
    }
    // Without the capability the filter means nothing: the agent lists as a stable agent does.
    const listed = await without.agent.request('session/list', { cwd: cwdA, archived: 'only' } as never);
    assert.equal(listed.sessions.length, 50);
    assert.ok(listed.sessions.every((s) => !('archived' in s)));
    const { agent } = await start(store);
    await assert.rejects(
      agent.request('session/list', { cwd: cwdA, archived: 'bogus' } as never),
      (e) => errorCode(e) === -32602,
      'an unknown filter is refused',
    );
  });

  it('seeds side chains, sub-agent threads and sessions nobody wrote in, marked in _meta', async () => {
    const marked = join(dir, 'marked');
    execFileSync(process.execPath, [
      agentScript,
      'seed',
      '--store',
      marked,
      '--cwd',
      cwdA,
      '--sessions',
      '4',
      '--turns',
      '1',
      '--sidechains',
      '1',
      '--subagents',
      '1',
      '--empty',
      '1',
    ]);
    const { agent } = await start(marked);
    const { sessions } = await agent.request('session/list', { cwd: cwdA });
    assert.equal(sessions.length, 7);
    const meta = sessions.map((s) => s._meta);
    assert.equal(meta.filter((m) => (m?.claudeCode as { isSidechain?: boolean })?.isSidechain === true).length, 1);
    assert.equal(meta.filter((m) => (m?.codex as { source?: string })?.source === 'subAgent').length, 1);
    const empty = sessions.filter((s) => s._meta?.messageCount === 0);
    assert.equal(empty.length, 1);
    assert.equal(empty[0]!.title, null);
    assert.ok(
      sessions.slice(0, 6).some((s) => s._meta?.claudeCode),
      'the marked ones sit among the first rows, not all at the end',
    );
  });

  it('lists every page newest first, and filters by exact cwd', async () => {
    const { agent } = await start(store);
    const pages = await listAll(agent);
    assert.deepEqual(
      pages.map((p) => p.sessions.length),
      [50, 50, 20],
    );
    assert.equal(pages.at(-1)!.nextCursor, undefined);
    const all = pages.flatMap((p) => p.sessions);
    assert.equal(new Set(all.map((s) => s.sessionId)).size, 120);
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].updatedAt! > all[i].updatedAt!, 'newest first');
    const onlyA = (await listAll(agent, cwdA)).flatMap((p) => p.sessions);
    assert.equal(onlyA.length, 60);
    assert.ok(
      onlyA.every((s) => s.cwd === cwdA),
      'no session of a cwd that merely starts the same',
    );
    assert.deepEqual((await agent.request('session/list', { cwd: join(dir, 'elsewhere') })).sessions, []);
    await assert.rejects(agent.request('session/list', { cursor: 'not a cursor!' }), (e) => errorCode(e) === -32602);
  });

  it('replays a loaded session in order before the response; resume replays nothing', async () => {
    const { agent, updates } = await start(store);
    const [first] = (await agent.request('session/list', { cwd: cwdA })).sessions;
    // Seed order is list order, so the newest session of cwdA is seed index 0.
    const expected = [0, 1, 2].flatMap((t) => seededTurn(cwdA, t, 0)).map((u) => u.sessionUpdate);
    await agent.request('session/load', { sessionId: first.sessionId, cwd: cwdA, mcpServers: [] });
    const got = kinds(updates, first.sessionId);
    assert.deepEqual(got.slice(0, 2), ['available_commands_update', 'session_info_update']);
    assert.deepEqual(got.slice(2), expected);
    updates.length = 0;
    await agent.request('session/resume', { sessionId: first.sessionId, cwd: cwdA });
    await quietFor(100);
    assert.equal(updates.length, 0);
    await assert.rejects(
      agent.request('session/load', { sessionId: 'sess_nope', cwd: cwdA, mcpServers: [] }),
      (e) => errorCode(e) === -32002,
    );
    await assert.rejects(
      agent.request('session/resume', { sessionId: 'sess_nope', cwd: cwdA }),
      (e) => errorCode(e) === -32002,
    );
  });

  it('streams every update kind for "all", titles the session and lists it first', async () => {
    const { agent, updates } = await start(store, [], { capabilities: { terminal: true, session: { notices: {} } } });
    await assert.rejects(
      agent.request('session/new', { cwd: 'relative', mcpServers: [] }),
      (e) => errorCode(e) === -32602,
    );
    const created = await agent.request('session/new', { cwd: cwdA, mcpServers: [] });
    assert.ok(created.modes?.availableModes.length);
    assert.equal(created.configOptions?.length, 2);
    const response = await agent.request('session/prompt', {
      sessionId: created.sessionId,
      prompt: [{ type: 'text', text: 'show me all of it' }],
    });
    assert.equal(response.stopReason, 'end_turn');
    const got = new Set(kinds(updates, created.sessionId));
    for (const kind of [
      'agent_message_chunk',
      'agent_thought_chunk',
      'tool_call',
      'tool_call_update',
      'plan',
      'available_commands_update',
      'current_mode_update',
      'config_option_update',
      'usage_update',
      'notice',
      'session_info_update',
    ]) {
      assert.ok(got.has(kind as never), `missing ${kind}`);
    }
    const content = updates.flatMap((u) =>
      u.update.sessionUpdate === 'tool_call_update' ? (u.update.content ?? []) : [],
    );
    assert.ok(content.some((c) => c.type === 'diff'));
    assert.ok(content.some((c) => c.type === 'terminal' && c.terminalId === 'term-1'));
    const info = updates.find((u) => u.update.sessionUpdate === 'session_info_update');
    assert.equal((info?.update as { title?: string }).title, 'show me all of it');
    const [top] = (await agent.request('session/list', { cwd: cwdA })).sessions;
    assert.equal(top.sessionId, created.sessionId);
    assert.equal(top.title, 'show me all of it');
  });

  it('asks permission, reads files through the client, and honours cancel', async () => {
    const { agent, updates } = await start(store);
    const { sessionId } = await agent.request('session/new', { cwd: cwdB, mcpServers: [] });
    const text = () =>
      updates
        .map((u) =>
          u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text'
            ? u.update.content.text
            : '',
        )
        .join('');
    await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'permission please, then read /etc/hostname' }],
    });
    assert.match(text(), /allow-once/);
    assert.match(text(), /contents of \/etc\/hostname/);
    updates.length = 0;
    const slow = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'be slow' }] });
    await waitFor('the slow reply streaming', () => kinds(updates, sessionId).includes('agent_message_chunk'));
    await agent.notify('session/cancel', { sessionId });
    assert.equal((await slow).stopReason, 'cancelled');
    const chunks = kinds(updates, sessionId).filter((k) => k === 'agent_message_chunk').length;
    assert.ok(chunks > 0 && chunks < 40, `${chunks} chunks before the cancel`);
  });

  it('streams the long reply in as many chunks as --reply-chunks asks', async () => {
    const { agent, updates } = await start(store, ['--reply-chunks', '299']);
    const { sessionId } = await agent.request('session/new', { cwd: cwdB, mcpServers: [] });
    await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'a long one' }] });
    const chunks = updates.flatMap((u) =>
      u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text'
        ? [u.update.content.text]
        : [],
    );
    assert.equal(chunks.length, 299);
    assert.equal(chunks.join(''), longReply());
  });

  it('deletes a session from the list and the store, seen by another agent on the same store', async () => {
    const { agent } = await start(store);
    const other = await start(store);
    const { sessionId } = await agent.request('session/new', { cwd: cwdB, mcpServers: [] });
    assert.equal((await agent.request('session/list', { cwd: cwdB })).sessions[0].sessionId, sessionId);
    assert.equal((await other.agent.request('session/list', { cwd: cwdB })).sessions[0].sessionId, sessionId);
    await agent.request('session/delete', { sessionId });
    assert.ok(!(await agent.request('session/list', { cwd: cwdB })).sessions.some((s) => s.sessionId === sessionId));
    assert.ok(
      !(await other.agent.request('session/list', { cwd: cwdB })).sessions.some((s) => s.sessionId === sessionId),
    );
  });

  it('repeats its cursor with --repeat-cursor and restarts with --invalid-cursor-code restart', async () => {
    const { agent } = await start(store, ['--repeat-cursor', '--invalid-cursor-code', 'restart']);
    const first = await agent.request('session/list', {});
    const second = await agent.request('session/list', { cursor: first.nextCursor! });
    assert.ok(first.nextCursor);
    assert.equal(second.nextCursor, first.nextCursor);
    const restarted = await agent.request('session/list', { cursor: '???' });
    assert.deepEqual(
      restarted.sessions.map((s) => s.sessionId),
      first.sessions.map((s) => s.sessionId),
    );
  });

  it('sends empty pages that still carry a cursor with --empty-pages', async () => {
    const skewed = join(dir, 'skewed');
    seed(skewed, [cwdB, cwdB, cwdB, cwdB, cwdB, cwdB, cwdB, cwdB, cwdB, cwdA], 40, 1);
    const { agent } = await start(skewed, [], { env: { ACP_REF_AGENT_ARGS: '--empty-pages --page-size 5' } });
    const pages = await listAll(agent, cwdA);
    assert.equal(pages.length, 8);
    assert.ok(
      pages.some((p) => p.sessions.length === 0 && p.nextCursor),
      'an empty page with a cursor',
    );
    assert.equal(pages.flatMap((p) => p.sessions).length, 4);
  });

  it('crashes, records and reports its start as asked', async () => {
    const startedFile = join(dir, 'started.txt');
    const recordFile = join(dir, 'record.ndjson');
    const crashing = await start(store, ['--crash-after', '2', '--started-file', startedFile, '--record', recordFile]);
    const mcpServers = [{ name: 'files', command: '/bin/true', args: [], env: [] }];
    await assert.rejects(crashing.agent.request('session/new', { cwd: cwdA, mcpServers }));
    assert.equal(await crashing.exited, 3);
    assert.match(crashing.stderr(), /reference agent: crashing on purpose/);
    assert.equal(readFileSync(startedFile, 'utf8'), `${crashing.child.pid}\n`);
    const recorded = readFileSync(recordFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; params: { mcpServers?: unknown } });
    assert.deepEqual(
      recorded.map((r) => r.method),
      ['initialize', 'session/new'],
    );
    assert.deepEqual(recorded[1].params.mcpServers, mcpServers);
  });

  it('sends half a replay after the load response with --late-updates', async () => {
    const { agent, updates } = await start(store, ['--late-updates']);
    const [first] = (await agent.request('session/list', { cwd: cwdB })).sessions;
    await agent.request('session/load', { sessionId: first.sessionId, cwd: cwdB, mcpServers: [] });
    const before = updates.length;
    // The rest follows the response; on a busy machine it can take a while to arrive.
    await waitFor('the rest of the replay', () => kinds(updates, first.sessionId).at(-1) === 'session_info_update');
    const got = kinds(updates, first.sessionId);
    assert.ok(before > 0 && before < got.length, `${before} of ${got.length} before the response`);
    assert.deepEqual(got.slice(-2), ['available_commands_update', 'session_info_update']);
  });

  it('hangs, mixes in garbage and sends a huge message as asked', async function () {
    // Three agents start one after the other: on a loaded machine each start takes seconds.
    this.timeout(60_000);
    const hung = await start(store, ['--hang', 'session/list']);
    const answer = hung.agent.request('session/list', {}).then(() => 'answered');
    assert.equal(await Promise.race([answer, quietFor(300).then(() => 'silent')]), 'silent');
    const noisy = await start(store, ['--garbage']);
    const quiet = console.error;
    console.error = () => undefined; // the SDK reports each garbage line; expected here
    try {
      assert.equal((await listAll(noisy.agent)).flatMap((p) => p.sessions).length >= 120, true);
      // The garbage after the last page is still on its way: the SDK's report of it stays muted.
      await quietFor(50);
    } finally {
      console.error = quiet;
    }
    const huge = await start(store, ['--huge-message']);
    await assert.rejects(huge.agent.request('session/list', {}));
  });

  it('requires authenticate with --auth-required, and runs as a child with --launcher', async () => {
    const startedFile = join(dir, 'launched.txt');
    const { agent, init, child, exited } = await start(store, [
      '--auth-required',
      '--launcher',
      '--started-file',
      startedFile,
    ]);
    assert.equal(init.authMethods?.length, 1);
    await assert.rejects(agent.request('session/list', {}), (e) => errorCode(e) === -32000);
    await agent.request('authenticate', { methodId: init.authMethods![0].id });
    assert.ok((await agent.request('session/list', {})).sessions.length > 0);
    const agentPid = Number(readFileSync(startedFile, 'utf8').trim());
    assert.ok(agentPid > 0 && agentPid !== child.pid, 'the agent is a child of the launcher');
    child.stdin!.end();
    assert.equal(await exited, 0);
  });

  it('exits cleanly when stdin closes', async () => {
    const running = await start(store);
    running.child.stdin!.end();
    assert.equal(await running.exited, 0);
  });

  it('exits when its client is gone, even when its stderr is broken too', async () => {
    // A client that died (an extension host killed outright) closes every pipe at once. Logging
    // that failure to a closed stderr fails again; the agent must leave, not spin on a CPU.
    const child = spawn(process.execPath, [agentScript, '--store', store], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stderr!.destroy();
    child.stdout!.destroy();
    child.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}\nnot json\n');
    // One that spins instead of leaving never exits: the test's timeout ends it.
    await exited;
  });
});
