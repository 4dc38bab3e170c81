// Checkpoints around the turns of real chats with the reference agent: what each turn changed,
// whoever wrote it (the client's fs/write_text_file, the agent's own process, a command in a
// client terminal, the user), and a restore of a turn undone, byte for byte.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods } from '../support/chat';
import { waitFor } from '../support/wait';
import { type CheckpointedChat, CheckpointWindow } from '../support/checkpointedChat';
import { checkpointsIn, git, treeState, watchWorker, writeFiles } from '../support/checkpoints';
import { seed, tempDir } from '../support/refAgent';

describe('Checkpoints around the turns of a chat', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  let folder: string;
  let storage: string;
  let store: string;
  const windows: CheckpointWindow[] = [];
  const at = (rel: string) => join(folder, rel);

  beforeEach(() => {
    dir = tempDir('acp-cp-chat-');
    folder = join(dir.path, 'project');
    storage = join(dir.path, 'storage');
    store = join(dir.path, 'store');
    mkdirSync(folder);
    seed(store, [folder], 1, 0);
    writeFiles(folder, {
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'docs/old.md': '# Old\n',
      'notes.txt': 'keep me\n',
      'data.bin': Buffer.from([0, 159, 146, 150, 0]),
    });
    git(folder, ['init', '-q']);
    git(folder, ['add', '-A']);
    git(folder, ['commit', '-qm', 'start']);
  });
  afterEach(async () => {
    const all = windows.splice(0);
    for (const w of all) await w.dispose();
    dir.cleanup();
    assert.deepEqual(
      all.flatMap((w) => w.errors),
      [],
      'no checkpoint failed',
    );
  });

  function window(switches: string[] = [], options: ConstructorParameters<typeof CheckpointWindow>[3] = {}) {
    const w = new CheckpointWindow(store, checkpointsIn(storage, { watchWorker }), switches, options);
    windows.push(w);
    return w;
  }

  async function turn(c: CheckpointedChat, prompt: string) {
    const ended = c.nextTurn();
    await c.chat.prompt(prompt);
    const [changes] = await ended;
    assert.ok(changes, 'the turn has changes in its folder');
    return changes;
  }

  it('restores the second turn of a two-turn session and undoes the restore, byte for byte', async () => {
    const w = window();
    const c = await w.open(folder);
    await turn(c, `write ${at('src/a.ts')} disk write ${at('src/new.ts')}`);
    const afterFirst = treeState(folder);
    const second = await turn(
      c,
      [
        `disk write ${at('src/a.ts')}`,
        `shell write ${at('src/b.ts')}`,
        `disk readonly ${at('src/b.ts')}`,
        `disk delete ${at('docs/old.md')}`,
        `disk rename ${at('notes.txt')} ${at('moved.txt')}`,
        `disk write ${at('data.bin')}`,
      ].join(' '),
    );
    const afterSecond = treeState(folder);
    assert.notDeepEqual(afterSecond, afterFirst);
    assert.equal(statSync(at('src/b.ts')).mode & 0o222, 0, 'the agent made it read-only');

    const result = await w.checkpoints.restore(folder, second.before, { sessionId: c.chat.sessionId });
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.kept, []);
    assert.deepEqual(treeState(folder), afterFirst, 'as it was after the first turn');
    const undone = await w.checkpoints.restore(folder, result.undo.id);
    assert.deepEqual(undone.failed, []);
    assert.deepEqual(treeState(folder), afterSecond, 'the restore undone');

    const turns = await w.turns.turns(folder, c.chat.sessionId!);
    assert.deepEqual(
      turns.map((t) => t.files),
      [2, 6],
    );
    assert.equal(turns[1]!.before, second.before);
    assert.equal(
      git(folder, ['status', '--porcelain', '--', 'src/a.ts']).trim(),
      'M src/a.ts',
      "the user's git sees the files, not us",
    );
  });

  it('shows exactly what a turn changed: the fs write, the disk write, the command', async () => {
    const w = window();
    const c = await w.open(folder);
    const changes = await turn(c, `write ${at('src/a.ts')} disk write ${at('src/b.ts')} shell write ${at('out.txt')}`);
    assert.deepEqual(
      changes.files.map((f) => [f.path, f.status, f.named]),
      [
        ['out.txt', 'added', false],
        ['src/a.ts', 'modified', true],
        ['src/b.ts', 'modified', true],
      ],
    );
    assert.equal(changes.ranCommands, true);
    assert.equal(changes.files.find((f) => f.path === 'out.txt')!.added, 1);
    assert.deepEqual([changes.added, changes.deleted], [3, 2], 'one line replaced in each of two files, one new line');
    const a = changes.files.find((f) => f.path === 'src/a.ts')!;
    assert.equal((await w.checkpoints.read(folder, a.before!.blob))!.toString(), 'export const a = 1;\n');
    assert.match((await w.checkpoints.read(folder, a.after!.blob))!.toString(), /written by acp-reference-agent/);
  });

  it('tells apart a file the user changed during the turn: no tool call names it', async () => {
    const w = window();
    const c = await w.open(folder);
    const go = join(dir.path, 'go');
    const ended = c.nextTurn();
    const prompt = c.chat.prompt(`disk write ${at('src/a.ts')} wait for ${go}`);
    await waitFor('the agent to write', () => readFileSync(at('src/a.ts'), 'utf8').includes('acp-reference-agent'));
    writeFileSync(at('notes.txt'), 'the user typed this\n');
    writeFileSync(go, '');
    await prompt;
    const [changes] = await ended;
    assert.deepEqual(
      changes!.files.map((f) => [f.path, f.named]),
      [
        ['notes.txt', false],
        ['src/a.ts', true],
      ],
    );
    assert.equal(changes!.ranCommands, false, 'no command ran: the user wrote it');
    const [record] = await w.turns.turns(folder, c.chat.sessionId!);
    assert.deepEqual(record!.unnamed, ['notes.txt']);
    assert.deepEqual(await w.turns.sessionsTouching(folder, 'src/a.ts'), [c.chat.sessionId]);
  });

  it("sends the prompt only once its checkpoint is taken: the agent's first write is never in it", async () => {
    const record = join(dir.path, 'record.jsonl');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding = false;
    const w = window(['--record', record], {
      beforePrompt: async () => {
        holding = true;
        await held;
      },
    });
    const c = await w.open(folder);
    const ended = c.nextTurn();
    const prompt = c.chat.prompt(`disk write ${at('src/a.ts')}`);
    await waitFor('the checkpoint before the prompt', () => holding);
    // A request after the prompt would reach the agent after it: once it is answered, a prompt
    // sent already would be on record.
    await c.chat.host!.connection!.listSessions({ cwd: folder });
    assert.ok(!methods(record).includes('session/prompt'), 'the prompt waits for the checkpoint');
    assert.equal(readFileSync(at('src/a.ts'), 'utf8'), 'export const a = 1;\n');
    release();
    await prompt;
    const [changes] = await ended;
    const a = changes!.files.find((f) => f.path === 'src/a.ts')!;
    assert.equal((await w.checkpoints.read(folder, a.before!.blob))!.toString(), 'export const a = 1;\n');
    assert.equal(changes!.late, false);
  });

  it('lets the prompt go when its checkpoint takes longer than the wait, and marks the turn late', async () => {
    const w = window([], { waitMs: 0 });
    const c = await w.open(folder);
    const changes = await turn(c, `disk write ${at('src/a.ts')}`);
    assert.equal(changes.late, true);
    const [record] = await w.turns.turns(folder, c.chat.sessionId!);
    assert.equal(record!.late, true, 'the journal says the checkpoint may hold the first writes');
  });

  it('takes the checkpoint of a prompt sent during a restore after the restore', async () => {
    const w = window();
    const c = await w.open(folder);
    const first = await turn(c, `disk write ${at('src/a.ts')}`);
    const restoring = w.checkpoints.restore(folder, first.before);
    const next = await turn(c, `disk write ${at('src/b.ts')}`);
    await restoring;
    assert.deepEqual(
      await w.checkpoints.diff(folder, first.before, next.before),
      [],
      'the checkpoint before the next prompt holds the restored files',
    );
    assert.deepEqual(
      next.files.map((f) => f.path),
      ['src/b.ts'],
      "the restore's own writes are not this turn's",
    );
  });

  it('gives each of two sessions in one folder the changes of its own turns', async () => {
    const w = window();
    const one = await w.open(folder);
    const two = await w.open(folder);
    const a = await turn(one, `disk write ${at('src/a.ts')}`);
    const b = await turn(two, `disk write ${at('src/b.ts')}`);
    assert.deepEqual(
      a.files.map((f) => f.path),
      ['src/a.ts'],
    );
    assert.deepEqual(
      b.files.map((f) => f.path),
      ['src/b.ts'],
    );
    const net = await w.turns.sessionChanges(folder, one.chat.sessionId!);
    assert.deepEqual(
      net.map((f) => f.path),
      ['src/a.ts', 'src/b.ts'],
      "a session's net changes run to now: the other session's turn shows in them (the README says so)",
    );
  });
});
