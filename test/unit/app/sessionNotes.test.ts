import * as assert from 'node:assert/strict';
import { sessionNote, sessionNotes } from '../../../src/app/sessionNotes';
import type { Library } from '../../../src/library/library';
import type { Scope } from '../../../src/library/types';

describe("Resume Session's note on what a session changed, cost and ran", () => {
  it('says files and lines changed, the cost and the active time, each only when known', () => {
    const changes = { files: 3, added: 40, deleted: 2, turns: 2 };
    const stats = { cost: { amount: 0.75, currency: 'USD' }, activeMs: 12 * 60_000 };
    assert.equal(sessionNote(stats, changes), '3 files +40 −2 · USD 0.75 · 12 min active');
    assert.equal(sessionNote(undefined, { ...changes, files: 1 }), '1 file +40 −2');
    assert.equal(sessionNote({ activeMs: 40_000 }, undefined), '40 s active');
    assert.equal(
      sessionNote({}, { files: 0, added: 0, deleted: 0, turns: 1 }),
      undefined,
      'a turn that changed nothing',
    );
  });

  it("reads the folders' sessions at once, and answers per row by agent and session id", async () => {
    const reads: Scope[] = [];
    const library = {
      sessions: (scope: Scope) => {
        reads.push(scope);
        return Promise.resolve([
          { agentId: 'a', sessionId: 's1', stats: { activeMs: 60_000 } },
          { agentId: 'b', sessionId: 's1', stats: { cost: { amount: 2, currency: 'EUR' } } },
        ]);
      },
    } as unknown as Library;
    const changes = {
      sessionSummaries: () => Promise.resolve(new Map([['s1', { files: 2, added: 5, deleted: 1, turns: 1 }]])),
    };
    const noteOf = await sessionNotes({ library, changes }, ['/p']);
    assert.equal(noteOf('a', 's1'), '2 files +5 −1 · 1 min active');
    assert.equal(noteOf('b', 's1'), '2 files +5 −1 · EUR 2.00');
    assert.equal(noteOf('a', 'none'), undefined);
    assert.deepEqual(reads, [{ cwd: '/p' }], "only the folder's sessions");
    await sessionNotes({ library }, ['/p'], 'everything');
    assert.deepEqual(reads.at(-1), {}, 'every folder when the list shows everything kept');
    const failing = {
      sessions: () => Promise.reject(new Error('the library is closed')),
    } as unknown as Library;
    assert.equal(
      (await sessionNotes({ library: failing }, ['/p']))('a', 's1'),
      undefined,
      'a failed read notes nothing',
    );
  });
});
