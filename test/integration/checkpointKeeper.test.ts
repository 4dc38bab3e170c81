// The window's checkpoints as the app composes them: a chat with the reference agent whose
// prompts wait for the checkpoints, a changes row in the thread after a turn that changed files,
// the setting that turns it off, and a machine without git (said once, the chat works).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientFileSystem } from '../../src/agent/fileSystem';
import { AgentRegistry } from '../../src/agent/agentHost';
import { MemoryLogger, silentLogger } from '../../src/agent/log';
import { Emitter } from '../../src/base/event';
import { CheckpointKeeper } from '../../src/app/checkpointKeeper';
import type { CheckpointSettings, Settings, SettingsSource } from '../../src/app/settings';
import { ChatSession } from '../../src/chat/chatSession';
import { OpenSessions } from '../../src/chat/openSessions';
import { agentTerminals } from '../../src/chat/terminalFeed';
import { folderKey } from '../../src/checkpoints/shadowRepo';
import { DEFAULT_SKIP } from '../../src/checkpoints/skipRules';
import type { ChangesEntry } from '../../src/protocol/entries';
import { chatDeps, hostDeps } from '../support/chat';
import { git, watchWorker, writeFiles } from '../support/checkpoints';
import { refAgentConfig, seed, tempDir } from '../support/refAgent';
import { waitFor } from '../support/wait';

/** Settings with the checkpoints' part as given; the rest is not read by the keeper. */
class TestSettings implements SettingsSource {
  private readonly emitter = new Emitter<Settings>();
  readonly onDidChange = this.emitter.event;
  value: Settings;
  constructor(checkpoints: Partial<CheckpointSettings> = {}) {
    this.value = { checkpoints: settingsOf(checkpoints) } as Settings;
  }
  set(checkpoints: Partial<CheckpointSettings>): void {
    this.value = { checkpoints: settingsOf(checkpoints) } as Settings;
    this.emitter.fire(this.value);
  }
}

function settingsOf(c: Partial<CheckpointSettings>): CheckpointSettings {
  return {
    enabled: true,
    maxFileBytes: 5 * 1024 * 1024,
    skip: DEFAULT_SKIP,
    keepDays: 30,
    maxBytes: 2048 * 1024 * 1024,
    ...c,
  };
}

describe('The window keeps checkpoints of its chats', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  let folder: string;
  let store: string;
  const disposers: (() => Promise<void> | void)[] = [];
  const at = (rel: string) => join(folder, rel);

  beforeEach(() => {
    dir = tempDir('acp-cp-keeper-');
    folder = join(dir.path, 'project');
    store = join(dir.path, 'store');
    mkdirSync(folder);
    seed(store, [folder], 1, 0);
    writeFiles(folder, { 'src/a.ts': 'export const a = 1;\n', 'notes.txt': 'keep me\n' });
    git(folder, ['init', '-q']);
  });
  afterEach(async () => {
    for (const d of disposers.splice(0).reverse()) await d();
    dir.cleanup();
  });

  /** A window's keeper and a chat on `folder` whose prompts wait for it. */
  async function window(settings: TestSettings, promptWaitMs?: number) {
    const told: string[] = [];
    const log = new MemoryLogger();
    const keeper = new CheckpointKeeper({
      storageDir: join(dir.path, 'global'),
      // Watched, as in the extension.
      watchWorker,
      settings,
      log,
      unavailable: (m) => told.push(m),
      ...(promptWaitMs === undefined ? {} : { promptWaitMs }),
    });
    const sessions = new OpenSessions();
    const fs = new ClientFileSystem({ rootsFor: (id) => sessions.rootsFor('ref', id), logger: silentLogger });
    const registry = new AgentRegistry({
      ...hostDeps(),
      handlers: (config) => ({
        ...sessions.handlersFor(config.id),
        fs,
        terminals: agentTerminals(config, silentLogger, sessions),
      }),
    });
    registry.update([refAgentConfig(store)], 'ref');
    const chat = new ChatSession(
      registry,
      { agentId: 'ref', cwd: folder },
      { ...chatDeps(), beforePrompt: keeper.beforePrompt },
    );
    sessions.add(chat);
    disposers.push(async () => {
      await sessions.close(chat);
      await registry.stopAll();
      registry.dispose();
      sessions.dispose();
      // A prune or a packing started by the turns may still write in the storage.
      await keeper.settled();
      keeper.dispose();
    });
    await chat.attach('new');
    return { keeper, chat, told, log, registry };
  }

  const changesRows = (chat: ChatSession) => chat.thread.entries.filter((e): e is ChangesEntry => e.type === 'changes');

  it("adds a row with the turn's figures, marking the file no tool call named", async () => {
    const { keeper, chat } = await window(new TestSettings());
    await chat.prompt(`write ${at('src/a.ts')} shell write ${at('out.txt')}`);
    await keeper.settled();
    const rows = changesRows(chat);
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.deepEqual(
      [row.folder, row.files, row.added, row.deleted, row.unnamed, row.unnamedCount],
      [folder, 2, 2, 1, ['out.txt'], 1],
    );
    assert.equal(chat.thread.entries.at(-1), row, 'the row comes after the turn');
    const [turn] = await keeper.turns.turns(folder, chat.sessionId!);
    assert.equal(turn!.turn, row.turn, 'the row names the turn the journal keeps');
    assert.ok(!chat.thread.entries.some((e) => e.type === 'notice'), 'a checkpoint in time: nothing to say');
  });

  it('says so after a turn whose checkpoint came after the prompt went', async () => {
    // No wait at all: the prompt always goes before the checkpoint is taken.
    const { keeper, chat } = await window(new TestSettings(), 0);
    await chat.prompt(`write ${at('src/a.ts')}`);
    await keeper.settled();
    const notices = chat.thread.entries.filter((e) => e.type === 'notice');
    assert.equal(notices.length, 1);
    const notice = notices[0]!;
    assert.equal(notice.severity, 'warning');
    assert.equal(notice.title, 'The checkpoint of project before this turn came late');
    assert.match(notice.description ?? '', /longer than the 0 s a prompt waits/);
    assert.equal(chat.thread.entries.at(-1), notice, 'after the turn and its changes');
    const [turn] = await keeper.turns.turns(folder, chat.sessionId!);
    assert.equal(turn!.late, true, 'the journal says so too');
  });

  it('takes a folder’s snapshot ahead when a prompt is begun, recording nothing, and the turn still starts from the prompt', async () => {
    const { keeper, chat } = await window(new TestSettings());
    keeper.prepare(chat);
    keeper.prepare(chat);
    await keeper.settled();
    assert.ok(existsSync(join(dir.path, 'global', 'checkpoints', folderKey(folder))), 'the snapshot was taken');
    assert.deepEqual(await keeper.checkpoints.history(folder), [], 'nothing recorded');
    // Changed by the user after the snapshot ahead, before the prompt: not the turn's.
    writeFiles(folder, { 'notes.txt': 'changed by hand\n' });
    await chat.prompt(`write ${at('src/a.ts')}`);
    await keeper.settled();
    const rows = changesRows(chat);
    assert.equal(rows.length, 1);
    assert.deepEqual([rows[0]!.files, rows[0]!.unnamed], [1, []], 'only what the turn wrote');
  });

  it('adds no row for a turn that changed nothing', async () => {
    const { keeper, chat } = await window(new TestSettings());
    await chat.prompt('hello');
    await keeper.settled();
    assert.deepEqual(changesRows(chat), []);
    assert.equal((await keeper.turns.turns(folder, chat.sessionId!)).length, 1, 'the turn is recorded all the same');
  });

  it('takes no checkpoint with acp.checkpoints.enabled off, and takes them again once it is on', async () => {
    const settings = new TestSettings({ enabled: false });
    const { keeper, chat } = await window(settings);
    await chat.prompt(`write ${at('src/a.ts')}`);
    await keeper.settled();
    assert.deepEqual(changesRows(chat), []);
    assert.equal(existsSync(join(dir.path, 'global', 'checkpoints')), false, 'nothing was written');
    settings.set({ enabled: true });
    await chat.prompt(`write ${at('notes.txt')}`);
    await keeper.settled();
    assert.equal(changesRows(chat).length, 1);
  });

  it('says once that git is missing, and the chat works as without checkpoints', async () => {
    const { keeper, chat, told, log } = await window(new TestSettings({ gitPath: join(dir.path, 'no-git') }));
    await chat.prompt(`write ${at('src/a.ts')}`);
    await chat.prompt(`write ${at('notes.txt')}`);
    await keeper.settled();
    await waitFor('the agent to have written both files', () => chat.thread.status.state === 'idle');
    assert.equal(told.length, 1, 'said once');
    assert.match(told[0]!, /git/i);
    assert.match(told[0]!, /everything else works/);
    assert.deepEqual(changesRows(chat), []);
    assert.equal(
      chat.thread.entries.filter((e) => e.type === 'tool').length >= 2,
      true,
      'both turns ran their tool calls',
    );
    assert.equal(
      log.lines.filter((l) => /checkpoint of/.test(l)).length,
      0,
      'no failure per turn in the log beside the one notice',
    );
  });

  it("finds a message's checkpoint after a reload: the session loaded again, by the message's text", async () => {
    const { keeper, chat } = await window(new TestSettings());
    await chat.prompt(`write ${at('src/a.ts')}`);
    await chat.prompt(`write ${at('notes.txt')}`);
    await chat.prompt(`write ${at('src/a.ts')}`);
    await keeper.settled();
    const turns = await keeper.turns.turns(folder, chat.sessionId!);
    assert.equal(turns.length, 3);

    // Another window: a keeper of the same storage, the session loaded from the agent.
    const other = await window(new TestSettings());
    const loaded = new ChatSession(
      other.registry,
      { agentId: 'ref', cwd: folder, sessionId: chat.sessionId! },
      chatDeps(),
    );
    disposers.push(() => loaded.close());
    await loaded.attach('load');
    const users = loaded.thread.entries.flatMap((e, i) => (e.type === 'user' ? [i] : []));
    assert.equal(users.length, 3, 'the history replayed');
    const plan = await other.keeper.planMessageRestore(loaded, users[2]!);
    assert.deepEqual(plan.missing, []);
    assert.equal(plan.folders[0]!.before, turns[2]!.before, 'the third message, not the first of the same text');
    assert.deepEqual(
      plan.folders[0]!.changes.map((c) => c.path),
      ['src/a.ts'],
    );
    const first = await other.keeper.planMessageRestore(loaded, users[0]!);
    assert.equal(first.folders[0]!.before, turns[0]!.before);
    assert.deepEqual(
      await other.keeper.sessionSummary(chat.sessionId!, [folder]),
      { files: 2, added: 3, deleted: 3, turns: 3 },
      "another window reads the session's figures from the journal",
    );
    assert.equal(
      await other.keeper.sessionSummary(chat.sessionId!, [dir.path]),
      undefined,
      'nothing for a folder never checkpointed',
    );
    assert.equal(
      existsSync(join(dir.path, 'global', 'checkpoints', folderKey(dir.path))),
      false,
      'and nothing created for it',
    );
  });

  it('prunes by the settings, sparing the checkpoint an Undo Restore needs', async () => {
    const settings = new TestSettings();
    const { keeper, chat } = await window(settings);
    await chat.prompt(`write ${at('src/a.ts')}`);
    await chat.prompt(`write ${at('notes.txt')}`);
    await keeper.settled();
    const users = chat.thread.entries.flatMap((e, i) => (e.type === 'user' ? [i] : []));
    const plan = await keeper.planMessageRestore(chat, users[0]!);
    const done = await keeper.restore(chat, plan);
    const restored = readFileSync(at('src/a.ts'), 'utf8');
    assert.equal(restored, 'export const a = 1;\n');
    settings.set({ maxBytes: 1 });
    await keeper.prune();
    const kept = (await keeper.checkpoints.history(folder)).filter((r) => r.kind === 'checkpoint');
    // The undo's tree is the same as the second turn's after-checkpoint: one id, two records.
    assert.deepEqual(
      [...new Set(kept.map((r) => r.kind === 'checkpoint' && r.id))],
      [done.undo[0]!.id],
      'past the size limit only the checkpoint Undo Restore needs is kept',
    );
    await keeper.undoRestore(chat, done);
    assert.match(readFileSync(at('src/a.ts'), 'utf8'), /acp-reference-agent/, 'Undo Restore still works');
  });
});
