import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderOf, PENDING_OPEN_MS, PendingOpens, readPendingOpen } from '../../../src/app/pendingOpens';

const open = { agentId: 'codex', sessionId: 's1', cwd: '/work/shop', index: 40, words: ['narwhal'] };

describe('pending opens (a session carried to the window that opens its folder)', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'acp-pending-')), 'pending');
  });

  it('matches the folder as each platform compares paths', () => {
    assert.equal(folderOf('C:\\Work\\Shop\\', ['d:\\x', 'c:/work/shop'], 'win32'), 'c:/work/shop');
    assert.equal(
      folderOf('\\\\?\\C:\\Work\\Shop', ['C:\\work\\shop'], 'win32'),
      'C:\\work\\shop',
      'the long-path form',
    );
    assert.equal(folderOf('C:\\Work\\Shop2', ['C:\\Work\\Shop'], 'win32'), undefined);
    assert.equal(folderOf('/Users/me/Shop/', ['/users/me/shop'], 'darwin'), '/users/me/shop');
    assert.equal(folderOf('/home/me/Shop', ['/home/me/shop'], 'linux'), undefined, 'case counts on Linux');
    assert.equal(folderOf('/home/me/shop/', ['/home/me/shop'], 'linux'), '/home/me/shop');
  });

  it('is taken once, by the window of its folder, with the message and words', async () => {
    const pending = new PendingOpens(dir, () => 1000);
    await pending.keep(open);
    assert.equal(await pending.take(['/work/other']), undefined, 'another folder leaves it');
    assert.deepEqual(await pending.take(['/work/other', '/work/shop/']), { ...open, at: 1000 });
    assert.equal(await pending.take(['/work/shop']), undefined, 'once only');
    assert.deepEqual(readdirSync(dir), [], 'nothing left behind');
  });

  it('is dropped once it waited too long', async () => {
    let now = 1000;
    const pending = new PendingOpens(dir, () => now);
    await pending.keep(open);
    now += PENDING_OPEN_MS + 1;
    assert.equal(await pending.take(['/work/shop']), undefined);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('opens once when two windows of the folder race for it', async () => {
    for (let round = 0; round < 20; round++) {
      const one = new PendingOpens(dir);
      const two = new PendingOpens(dir);
      await one.keep({ ...open, sessionId: `s${round}` });
      const taken = await Promise.all([one.take(['/work/shop']), two.take(['/work/shop'])]);
      assert.equal(taken.filter(Boolean).length, 1, `round ${round}: ${JSON.stringify(taken)}`);
    }
  });

  it('drops a file that is not a pending open, and reads none from bad text', async () => {
    const pending = new PendingOpens(dir);
    await pending.keep(open);
    writeFileSync(join(dir, 'junk.json'), '{"agentId": 3}');
    assert.equal((await pending.take(['/work/shop']))?.sessionId, 's1');
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(readPendingOpen('not json'), undefined);
    assert.equal(readPendingOpen('null'), undefined);
    assert.deepEqual(readPendingOpen(JSON.stringify({ ...open, index: -1, words: ['a', 2], at: 5 })), {
      agentId: 'codex',
      sessionId: 's1',
      cwd: '/work/shop',
      words: ['a'],
      at: 5,
    });
  });
});
