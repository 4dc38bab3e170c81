// The demo of `npm start` (and of the README's pictures), as the reference agent serves it:
// two folders of distinct, realistic sessions from minutes to months old, some untitled, some
// long, whose histories show what the chat renders. Seeding is deterministic.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionInfo, SessionNotification } from '@agentclientprotocol/sdk';
import type { ClientHandlers } from '../../src/agent/clientApp';
import { AgentConnection } from '../../src/agent/connection';
import { silentLogger } from '../../src/agent/log';
import { SHOWCASE_TITLE } from '../agent/demo/catalogue';
import { agentScript, refAgentConfig, tempDir } from '../support/refAgent';

const handlers: ClientHandlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };
const NOW = '2025-06-02T09:30:00.000Z';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface World {
  folders: string[];
  workspaceFile: string;
  store: string;
  sessions: number;
}

function demo(root: string): World {
  return JSON.parse(
    execFileSync(process.execPath, [agentScript, 'demo', '--root', root, '--now', NOW], { encoding: 'utf8' }),
  ) as World;
}

/** Every file under `dir`, relative, with its contents, the world's root path made neutral. */
function snapshot(dir: string, root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dir, f);
    if (statSync(path).isFile()) out[f] = readFileSync(path, 'utf8').replaceAll(root, '<root>');
  }
  return out;
}

describe('The demo world', function () {
  this.timeout(60_000);
  const dir = tempDir();
  let world: World;
  let c: AgentConnection;
  const listed = new Map<string, SessionInfo[]>();

  before(async () => {
    world = demo(join(dir.path, 'a'));
    c = await AgentConnection.start({
      config: refAgentConfig(world.store),
      logger: silentLogger,
      handlers,
      clientInfo: { name: 'acp-client-test', version: '0.0.0' },
    });
    for (const cwd of world.folders) {
      const all: SessionInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await c.listSessions({ cwd, ...(cursor ? { cursor } : {}) });
        all.push(...page.sessions);
        cursor = page.nextCursor;
      } while (cursor);
      listed.set(cwd, all);
    }
  });
  after(async () => {
    await c?.stop();
    dir.cleanup();
  });

  it('is two folders in a workspace file, each with its own sessions', () => {
    const workspace = JSON.parse(readFileSync(world.workspaceFile, 'utf8')) as { folders: { path: string }[] };
    assert.deepEqual(
      workspace.folders.map((f) => f.path),
      world.folders,
    );
    assert.deepEqual(
      world.folders.map((f) => f.split('/').pop()),
      ['acme-webshop', 'acme-warehouse'],
    );
    for (const cwd of world.folders) {
      const sessions = listed.get(cwd)!;
      assert.ok(sessions.length >= 20, `${cwd}: ${sessions.length} sessions`);
      assert.ok(
        sessions.every((s) => s.cwd === cwd),
        'each listed in its own folder',
      );
    }
    assert.ok(listed.get(world.folders[0]!)!.length > 50, 'the first folder needs "Load more…"');
    assert.equal([...listed.values()].flat().length, world.sessions);
  });

  it('has distinct titles, a few untitled sessions, and a handful of long ones', () => {
    const all = [...listed.values()].flat();
    const titles = all.map((s) => s.title).filter((t): t is string => typeof t === 'string');
    assert.equal(new Set(titles).size, titles.length, 'no title twice');
    const untitled = all.filter((s) => s.title == null).length;
    assert.ok(untitled >= 3 && untitled <= 6, `${untitled} untitled`);
    const messages = all.map((s) => (s._meta as { messageCount: number }).messageCount);
    const long = messages.filter((m) => m >= 200).length;
    assert.ok(long >= 4 && long <= 8, `${long} long sessions`);
  });

  it('spans ages from minutes to months', () => {
    const ages = [...listed.values()].flat().map((s) => Date.parse(NOW) - Date.parse(s.updatedAt!));
    const within = (lo: number, hi: number) => ages.filter((a) => a >= lo && a < hi).length;
    assert.ok(within(0, 10 * MINUTE) >= 2, 'minutes');
    assert.ok(within(1 * 60 * MINUTE, DAY) >= 5, 'hours');
    assert.ok(within(DAY, 7 * DAY) >= 5, 'days');
    assert.ok(within(7 * DAY, 30 * DAY) >= 5, 'weeks');
    assert.ok(within(90 * DAY, 365 * DAY) >= 3, 'months');
  });

  it('replays chats with plans, thoughts, diffs, commands and their output, a declined command, and code in several languages', async () => {
    const updates: SessionNotification[] = [];
    const load = async (s: SessionInfo) => {
      const sub = c.router.register(s.sessionId, (n) => updates.push(n));
      try {
        await c.loadSession({ sessionId: s.sessionId, cwd: s.cwd, mcpServers: [] });
      } finally {
        sub.dispose();
      }
    };
    const all = [...listed.values()].flat();
    // The newest sessions of each folder (long ones included), then the README's chat.
    for (const list of listed.values())
      for (const s of list.filter((x) => x.title !== SHOWCASE_TITLE).slice(0, 15)) await load(s);
    const showcase = all.find((s) => s.title === SHOWCASE_TITLE)!;
    const before = updates.length;
    await load(showcase);
    const shown = updates.slice(before).map((n) => n.update);
    const kinds = new Set(shown.map((u) => u.sessionUpdate));
    for (const kind of ['user_message_chunk', 'agent_thought_chunk', 'plan', 'tool_call', 'agent_message_chunk'])
      assert.ok(kinds.has(kind as never), `the showcase has a ${kind}`);
    const contents = shown.flatMap((u) => (u.sessionUpdate === 'tool_call_update' ? (u.content ?? []) : []));
    assert.ok(contents.some((x) => x.type === 'diff'));
    assert.ok(shown.some((u) => u.sessionUpdate === 'tool_call' && u.kind === 'execute'));
    assert.ok(
      shown.some((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed'),
      'a declined command',
    );
    assert.ok(
      shown.some(
        (u) =>
          u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' && u.content.text.includes('| --- |'),
      ),
      'a table',
    );

    const text = updates
      .map((n) => n.update)
      .flatMap((u) =>
        u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text'
          ? [u.content.text]
          : u.sessionUpdate === 'tool_call_update'
            ? (u.content ?? []).flatMap((x) =>
                x.type === 'content' && x.content.type === 'text' ? [x.content.text] : [],
              )
            : [],
      )
      .join('\n');
    const fences = new Set([...text.matchAll(/^```(\w+)/gm)].map((m) => m[1]));
    for (const lang of ['ts', 'tsx', 'sql', 'css', 'bash', 'console', 'python', 'yaml'])
      assert.ok(fences.has(lang), `code in ${lang} (found ${[...fences].join(', ')})`);
  });

  it('points only at files that exist in its folders, so locations and diffs open', async () => {
    const paths = new Set<string>();
    const s = listed.get(world.folders[0]!)!.find((x) => x.title === SHOWCASE_TITLE)!;
    const sub = c.router.register(s.sessionId, (n) => {
      const u = n.update;
      if (u.sessionUpdate === 'tool_call') for (const l of u.locations ?? []) paths.add(l.path);
      if (u.sessionUpdate === 'tool_call_update')
        for (const x of u.content ?? []) if (x.type === 'diff') paths.add(x.path);
    });
    try {
      await c.loadSession({ sessionId: s.sessionId, cwd: s.cwd, mcpServers: [] });
    } finally {
      sub.dispose();
    }
    assert.ok(paths.size >= 3);
    for (const p of paths) assert.ok(existsSync(p), `${p} exists`);
  });

  it('is the same world on every seeding', () => {
    const again = demo(join(dir.path, 'b'));
    const a = snapshot(join(dir.path, 'a'), join(dir.path, 'a'));
    const b = snapshot(join(dir.path, 'b'), join(dir.path, 'b'));
    assert.deepEqual(Object.keys(b), Object.keys(a));
    for (const file of Object.keys(a)) assert.equal(b[file], a[file], file);
    assert.equal(again.sessions, world.sessions);
  });
});
