import * as assert from 'node:assert/strict';
import type { LoadSessionResponse } from '@agentclientprotocol/sdk';
import {
  ShapeError,
  validateConfigOptionResult,
  validateListResult,
  validateNewSessionResult,
  validateSetupResult,
} from '../../../src/agent/validate';

const modes = {
  currentModeId: 'code',
  availableModes: [
    { id: 'ask', name: 'Ask' },
    { id: 'code', name: 'Code', description: 'Edit files' },
  ],
};
const select = {
  id: 'model',
  name: 'Model',
  type: 'select',
  currentValue: 'a',
  options: [
    { value: 'a', name: 'A' },
    { value: 'b', name: 'B' },
  ],
};
const toggle = { id: 'thinking', name: 'Think harder', type: 'boolean', currentValue: false };

function collect(): { notes: string[]; note: (l: string) => void } {
  const notes: string[] = [];
  return { notes, note: (l) => notes.push(l) };
}

describe('validate: session/list results', () => {
  const row = { sessionId: 's1', cwd: '/p', title: 'One' };

  it('keeps the rows and ends paging, with a note, when nextCursor is not a string', () => {
    for (const bad of [42, { next: 2 }, ['c'], true]) {
      const page = validateListResult({ sessions: [row], nextCursor: bad });
      assert.deepEqual(
        page.sessions.map((s) => s.sessionId),
        ['s1'],
        JSON.stringify(bad),
      );
      assert.equal(page.nextCursor, undefined);
      assert.match(page.pagingStopped ?? '', /"nextCursor" that is not a string .*paging stopped/);
    }
  });

  it('drops a row whose session id is empty, too long or not a string, and counts it', () => {
    const bad = [
      { ...row, sessionId: '' },
      { ...row, sessionId: 'x'.repeat(1025) },
      { ...row, sessionId: 7 },
      { cwd: '/p' },
      { ...row, cwd: 'relative/dir' },
      'row',
    ];
    const page = validateListResult({ sessions: [row, ...bad, { ...row, sessionId: 'x'.repeat(1024) }] });
    assert.deepEqual(
      page.sessions.map((s) => s.sessionId.length),
      [2, 1024],
    );
    assert.equal(page.dropped, bad.length);
  });

  it('reads nextCursor null (and absent, and empty) as the end, with no note', () => {
    for (const end of [{ nextCursor: null }, {}, { nextCursor: '' }]) {
      const page = validateListResult({ sessions: [row], ...end });
      assert.equal(page.nextCursor, undefined);
      assert.equal(page.pagingStopped, undefined);
      assert.equal(page.sessions.length, 1);
    }
    assert.equal(validateListResult({ sessions: [row], nextCursor: 'c2' }).nextCursor, 'c2');
  });

  it('refuses a page whose sessions is not an array', () => {
    for (const sessions of [undefined, null, {}, 's1', 3]) {
      assert.throws(
        () => validateListResult({ sessions }),
        (e: unknown) => e instanceof ShapeError && /no "sessions" array/.test(e.message),
      );
    }
    assert.throws(() => validateListResult(null), ShapeError);
  });

  it("reads a row's lineage where the agent reports it (top level or _meta), and drops what cannot be an id", () => {
    const { sessions } = validateListResult({
      sessions: [
        { sessionId: 'a', cwd: '/p', aliases: ['old', 'old', 7, '', 'a', 'x'.repeat(2000)], forkedFrom: 'root' },
        { sessionId: 'b', cwd: '/p', _meta: { aliases: ['older'], forkedFrom: 'a' } },
        { sessionId: 'c', cwd: '/p', aliases: 'not a list', forkedFrom: 42 },
        { sessionId: 'd', cwd: '/p', aliases: Array.from({ length: 100 }, (_, i) => `id${i}`), forkedFrom: 'd' },
      ],
    });
    assert.deepEqual(sessions[0]!.aliases, ['old'], 'strings only, once, not its own id, not over-long');
    assert.equal(sessions[0]!.forkedFrom, 'root');
    assert.deepEqual(sessions[1]!.aliases, ['older']);
    assert.equal(sessions[1]!.forkedFrom, 'a');
    assert.equal(sessions[2]!.aliases, undefined);
    assert.equal(sessions[2]!.forkedFrom, undefined);
    assert.equal(sessions[3]!.aliases!.length, 32, 'a hostile list is capped');
    assert.equal(sessions[3]!.forkedFrom, undefined, 'not forked from itself');
  });
});

describe('validate: modes and config options of new, load, resume and set_config_option', () => {
  it('keeps well-formed modes and options as they are, without notes', () => {
    const { notes, note } = collect();
    const r = validateSetupResult<LoadSessionResponse>(
      'session/load',
      { modes, configOptions: [select, toggle] },
      note,
    );
    assert.deepEqual(r.modes, modes);
    assert.deepEqual(r.configOptions, [select, toggle]);
    assert.deepEqual(notes, []);
  });

  it('drops modes that are not { id, name } and keeps the others', () => {
    const { notes, note } = collect();
    const r = validateSetupResult<LoadSessionResponse>(
      'session/load',
      { modes: { ...modes, availableModes: [...modes.availableModes, { id: 7, name: 'Bad' }, 'plain', { id: 'x' }] } },
      note,
    );
    assert.deepEqual(
      r.modes?.availableModes.map((m) => m.id),
      ['ask', 'code'],
    );
    assert.match(notes.join('\n'), /dropped 3 of 5 modes/);
  });

  it('drops a modes state of the wrong shape whole, and keeps the config options', () => {
    for (const bad of [
      { currentModeId: 3, availableModes: [] },
      { currentModeId: 'a', availableModes: 'ask' },
      'code',
      { currentModeId: 'a', availableModes: [{ id: 1 }] },
    ]) {
      const { notes, note } = collect();
      const r = validateSetupResult<LoadSessionResponse>(
        'session/resume',
        { modes: bad, configOptions: [toggle] },
        note,
      );
      assert.equal(r.modes, undefined, JSON.stringify(bad));
      assert.deepEqual(r.configOptions, [toggle]);
      assert.ok(
        notes.some((n) => /dropped "modes"/.test(n)),
        notes.join('\n'),
      );
    }
  });

  it('drops config options of the wrong shape one by one, with a note each', () => {
    const { notes, note } = collect();
    const bad = [
      { id: 'noName', type: 'boolean', currentValue: true },
      { id: 'b', name: 'B', type: 'boolean', currentValue: 'yes' },
      { id: 's', name: 'S', type: 'select', currentValue: 1, options: [] },
      { id: 'o', name: 'O', type: 'select', currentValue: 'a', options: 'a,b' },
      { id: 'e', name: 'E', type: 'select', currentValue: 'a', options: [{ value: 1, name: 'One' }] },
      { id: 'k', name: 'K', type: 'slider', currentValue: 3 },
      null,
    ];
    const r = validateSetupResult<LoadSessionResponse>(
      'session/load',
      { configOptions: [select, ...bad, toggle] },
      note,
    );
    assert.deepEqual(
      r.configOptions?.map((o) => o.id),
      ['model', 'thinking'],
    );
    assert.equal(notes.length, bad.length, notes.join('\n'));
    assert.ok(notes.some((n) => /unknown type "slider"/.test(n)));
  });

  it('keeps the good values of a select and of its groups', () => {
    const grouped = {
      id: 'g',
      name: 'Grouped',
      type: 'select',
      currentValue: 'a',
      options: [
        {
          group: 'one',
          name: 'One',
          options: [
            { value: 'a', name: 'A' },
            { value: 2, name: 'Bad' },
          ],
        },
        { group: 'two', name: 'Two', options: 'none' },
      ],
    };
    const r = validateSetupResult<LoadSessionResponse>('session/load', {
      configOptions: [grouped, { ...select, options: [...select.options, { name: 'no value' }] }],
    });
    assert.deepEqual(r.configOptions?.[0], {
      ...grouped,
      options: [{ group: 'one', name: 'One', options: [{ value: 'a', name: 'A' }] }],
    });
    assert.deepEqual(r.configOptions?.[1], select);
  });

  it('drops configOptions that are not an array', () => {
    const { notes, note } = collect();
    const r = validateSetupResult<LoadSessionResponse>('session/load', { modes, configOptions: { model: 'a' } }, note);
    assert.equal(r.configOptions, undefined);
    assert.deepEqual(r.modes, modes);
    assert.match(notes.join('\n'), /"configOptions": it is not an array/);
  });

  it('checks session/new the same way, keeping the session id', () => {
    const { notes, note } = collect();
    const r = validateNewSessionResult({ sessionId: 's9', modes: 'code', configOptions: [toggle, 5] }, note);
    assert.equal(r.sessionId, 's9');
    assert.equal(r.modes, undefined);
    assert.deepEqual(r.configOptions, [toggle]);
    assert.equal(notes.length, 2);
    assert.throws(() => validateNewSessionResult({ modes }), ShapeError);
  });

  it('checks the set_config_option result, and leaves the options alone when it is not an object', () => {
    const { notes, note } = collect();
    assert.deepEqual(validateConfigOptionResult({ configOptions: [select, { id: 'x' }] }, note).configOptions, [
      select,
    ]);
    assert.equal(notes.length, 1);
    assert.equal(validateConfigOptionResult(null, note).configOptions, undefined);
    assert.match(notes[1]!, /not an object/);
  });
});

describe('validate: session/new results', () => {
  it('refuses a result without a usable session id: the session could never be addressed', () => {
    for (const result of [{ sessionId: '' }, { sessionId: 42 }, {}, null, 'sess']) {
      assert.throws(() => validateNewSessionResult(result), ShapeError, JSON.stringify(result));
    }
    assert.equal(validateNewSessionResult({ sessionId: 's' }).sessionId, 's');
  });
});
