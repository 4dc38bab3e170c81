import * as assert from 'node:assert/strict';
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import { readFeatures } from '../../../src/agent/capabilities';
import {
  checkEmptyResult,
  ShapeError,
  validateForkResult,
  validateListResult,
  validateSetTitleResult,
} from '../../../src/agent/validate';

function collect(): { notes: string[]; note: (l: string) => void } {
  const notes: string[] = [];
  return { notes, note: (l) => notes.push(l) };
}

const init = (sessionCapabilities: Record<string, unknown>): InitializeResponse =>
  ({ protocolVersion: 1, agentCapabilities: { sessionCapabilities } }) as InitializeResponse;

describe('capabilities: the unstable session-management methods', () => {
  it('reads title, archive and fork as advertised by an object', () => {
    const f = readFeatures(init({ title: {}, archive: {}, fork: { _meta: { x: 1 } } }));
    assert.deepEqual([f.title, f.archive, f.fork], [true, true, true]);
  });

  it('treats absent, null and false as not advertised', () => {
    for (const v of [undefined, null, false]) {
      const f = readFeatures(init({ title: v, archive: v, fork: v }));
      assert.deepEqual([f.title, f.archive, f.fork], [false, false, false], String(v));
    }
    const none = readFeatures({ protocolVersion: 1 } as InitializeResponse);
    assert.deepEqual([none.title, none.archive, none.fork], [false, false, false]);
  });
});

describe('validate: session/set_title results', () => {
  it('shows the title the agent stored, which may differ from the one sent', () => {
    const { notes, note } = collect();
    assert.equal(validateSetTitleResult({ title: 'Trimmed' }, '  Trimmed  ', note), 'Trimmed');
    assert.deepEqual(notes, []);
  });

  it('falls back to the title sent, with a note, when the result names none or a bad one', () => {
    for (const result of [{}, null, undefined, 'ok', { title: 42 }, { title: '' }, { title: '   ' }, { title: null }]) {
      const { notes, note } = collect();
      assert.equal(validateSetTitleResult(result, 'Sent', note), 'Sent', JSON.stringify(result));
      assert.equal(notes.length, 1, JSON.stringify(result));
      assert.match(notes[0]!, /showing the one sent/);
    }
  });
});

describe('validate: session/fork results', () => {
  it('needs a session id, named after the method', () => {
    for (const bad of [null, {}, { sessionId: '' }, { sessionId: 7 }, []]) {
      assert.throws(
        () => validateForkResult(bad),
        (e: unknown) => {
          assert.ok(e instanceof ShapeError);
          assert.match(e.message, /^session\/fork returned no session id$/);
          return true;
        },
      );
    }
  });

  it('refuses an id over 1024 characters (it would be a key everywhere)', () => {
    assert.throws(() => validateForkResult({ sessionId: 'x'.repeat(1025) }), /over 1024 characters/);
  });

  it('keeps usable modes and drops unusable ones with a note, as session/new does', () => {
    const { notes, note } = collect();
    const ok = validateForkResult({ sessionId: 'f1', modes: { currentModeId: 'a', availableModes: 'no' } }, note);
    assert.equal(ok.sessionId, 'f1');
    assert.equal(ok.modes, undefined);
    assert.equal(notes.length, 1);
  });
});

describe('validate: archive results and the archived flag', () => {
  it('notes a result that is not an object, and accepts {} and null quietly', () => {
    const { notes, note } = collect();
    checkEmptyResult({}, note);
    checkEmptyResult(null, note);
    checkEmptyResult(undefined, note);
    assert.deepEqual(notes, []);
    checkEmptyResult('archived', note);
    checkEmptyResult([1], note);
    assert.equal(notes.length, 2);
  });

  it('keeps a boolean "archived" on listed rows and drops any other value', () => {
    const page = validateListResult({
      sessions: [
        { sessionId: 'a', cwd: '/p', archived: true },
        { sessionId: 'b', cwd: '/p', archived: false },
        { sessionId: 'c', cwd: '/p', archived: 'yes' },
        { sessionId: 'd', cwd: '/p', archived: null },
      ],
    });
    assert.deepEqual(
      page.sessions.map((s) => s.archived),
      [true, false, undefined, undefined],
    );
    assert.equal(page.dropped, 0, 'a bad flag costs the flag, not the row');
  });
});
