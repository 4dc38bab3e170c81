import assert from 'node:assert/strict';
import type { TurnRecord } from '../../../src/checkpoints/journal';
import { journalPath, messageOfTurn, sessionsChanging, sessionsTouching } from '../../../src/checkpoints/touching';
import { promptDigest } from '../../../src/checkpoints/turns';

const turn = (sessionId: string, prompt: string, at: number, paths: string[]): TurnRecord => ({
  kind: 'turn',
  sessionId,
  turn: `${sessionId}-${at}`,
  at,
  before: 'a'.repeat(40),
  after: 'b'.repeat(40),
  prompt: promptDigest(prompt),
  files: paths.length,
  added: 1,
  deleted: 0,
  paths,
  unnamed: [],
  ranCommands: false,
});

describe('Sessions that touched a file, from a checkpoint journal', () => {
  it('names a file inside the folder as the journal does, on POSIX and on Windows', () => {
    assert.equal(journalPath('/w/app', '/w/app/src/cart.ts', 'linux'), 'src/cart.ts');
    assert.equal(journalPath('C:\\w\\app', 'C:\\w\\app\\src\\cart.ts', 'win32'), 'src/cart.ts');
    assert.equal(journalPath('/w/app', '/w/other/cart.ts', 'linux'), undefined, 'outside the folder');
    assert.equal(journalPath('/w/app', '/w/app', 'linux'), undefined, 'the folder itself');
    assert.equal(journalPath('C:\\w\\app', 'D:\\w\\app\\x.ts', 'win32'), undefined, 'another drive');
  });

  it('finds each session once, by its first turn that changed the file, the most recent first', () => {
    const records = [
      turn('s1', 'go', 1, ['a.ts']),
      turn('s1', 'go', 2, ['src/cart.ts']),
      turn('s2', 'build it', 3, ['src/cart.ts', 'b.ts']),
      turn('s1', 'again', 5, ['src/cart.ts']),
      turn('s3', 'other', 6, ['src/cart.tsx']),
    ];
    assert.deepEqual(
      sessionsTouching(records, 'src/cart.ts').map((t) => [t.sessionId, t.at, t.nth, t.prompt]),
      [
        ['s1', 5, 1, promptDigest('go')],
        ['s2', 3, 0, promptDigest('build it')],
      ],
    );
    assert.deepEqual(sessionsTouching(records, 'nothing.ts'), []);
  });

  it("finds the user message of the turn: the n-th message of the prompt's text", () => {
    const entries = [
      { type: 'user', text: 'go' },
      { type: 'agent', text: 'done' },
      { type: 'user', text: 'go' },
      { type: 'tool' },
      { type: 'user', text: 'other' },
    ];
    assert.equal(messageOfTurn(entries, { prompt: promptDigest('go'), nth: 1 }), 2);
    assert.equal(messageOfTurn(entries, { prompt: promptDigest('go'), nth: 0 }), 0);
    assert.equal(messageOfTurn(entries, { prompt: promptDigest('go'), nth: 2 }), undefined, 'not kept that far');
  });

  it('finds the sessions whose turns changed a file whose path holds a typed part (file:)', () => {
    const records = [
      turn('s1', 'go', 1, ['src/Cart.ts']),
      turn('s2', 'go', 2, ['README.md']),
      turn('s1', 'go', 3, ['src/cart.ts']),
    ];
    assert.deepEqual(sessionsChanging(records, 'cart.ts'), [{ sessionId: 's1', path: 'src/Cart.ts' }]);
    assert.deepEqual(sessionsChanging(records, 'nothing'), []);
  });
});
