import * as assert from 'node:assert/strict';
import { parseAgents, sameLaunch } from '../../../src/agent/config';

const good = { id: 'ref', command: '/usr/bin/agent' };

describe('parseAgents: acp.agents as the user wrote it', () => {
  it('reads a minimal entry with the defaults filled in', () => {
    assert.deepEqual(parseAgents([good]), {
      agents: [
        {
          id: 'ref',
          name: 'ref',
          command: '/usr/bin/agent',
          args: [],
          env: {},
          mcpServers: [],
          allowFileWrites: true,
          allowTerminals: true,
        },
      ],
      problems: [],
    });
    const full = parseAgents([
      {
        ...good,
        name: '  Reference  ',
        args: ['--acp'],
        env: { A: '1' },
        allowFileWrites: false,
        allowTerminals: false,
      },
    ]).agents[0]!;
    assert.equal(full.name, 'Reference');
    assert.deepEqual(full.args, ['--acp']);
    assert.deepEqual(full.env, { A: '1' });
    assert.equal(full.allowFileWrites, false);
    assert.equal(full.allowTerminals, false);
    assert.equal(parseAgents([{ ...good, name: '   ' }]).agents[0]!.name, 'ref', 'a blank name falls back to the id');
  });

  it('has nothing to say about an absent setting, and one problem for a setting that is not an array', () => {
    assert.deepEqual(parseAgents(undefined), { agents: [], problems: [] });
    assert.deepEqual(parseAgents(null), { agents: [], problems: [] });
    assert.deepEqual(parseAgents({ id: 'ref' }), {
      agents: [],
      problems: [{ index: -1, message: 'acp.agents must be an array of agents.' }],
    });
  });

  const bad: [string, unknown, RegExp][] = [
    ['not an object', 'ref', /must be an object/],
    ['null', null, /must be an object/],
    ['an array', [good], /must be an object/],
    ['no id', { command: '/a' }, /"id" must be/],
    ['an id with a space', { ...good, id: 'my agent' }, /"id" must be/],
    ['no command', { id: 'a' }, /"command" must be a non-empty string/],
    ['a blank command', { ...good, command: '  ' }, /"command" must be a non-empty string/],
    ['args not an array', { ...good, args: '--acp' }, /"args" must be an array of strings/],
    ['args with a number', { ...good, args: ['--port', 8080] }, /"args" must be an array of strings/],
    ['env an array', { ...good, env: ['A=1'] }, /"env" must be an object/],
    ['env null', { ...good, env: null }, /"env" must be an object/],
    ['env with a number', { ...good, env: { PORT: 8080 } }, /"env.PORT" must be a string/],
    ['a name that is not a string', { ...good, name: 7 }, /"name" must be a string/],
    ['allowFileWrites as a string', { ...good, allowFileWrites: 'no' }, /"allowFileWrites" must be true or false/],
    ['allowTerminals as a number', { ...good, allowTerminals: 0 }, /"allowTerminals" must be true or false/],
  ];
  for (const [what, entry, message] of bad) {
    it(`drops an entry with ${what}, naming it, and keeps the others`, () => {
      const { agents, problems } = parseAgents([entry, { ...good, id: 'other' }]);
      assert.deepEqual(
        agents.map((a) => a.id),
        ['other'],
      );
      assert.equal(problems.length, 1, JSON.stringify(problems));
      assert.equal(problems[0]!.index, 0);
      assert.match(problems[0]!.message, /^acp\.agents\[0\]: /);
      assert.match(problems[0]!.message, message);
    });
  }

  it('keeps the first of two entries with one id and says so', () => {
    const { agents, problems } = parseAgents([good, { ...good, command: '/other' }]);
    assert.deepEqual(
      agents.map((a) => a.command),
      ['/usr/bin/agent'],
    );
    assert.deepEqual(problems, [
      { index: 1, message: 'acp.agents[1]: the id "ref" is used twice; the first entry wins.' },
    ]);
    // A dropped entry does not claim its id: a later good one with it is kept.
    const later = parseAgents([{ id: 'ref' }, { ...good, command: '/later' }]);
    assert.deepEqual(
      later.agents.map((a) => a.command),
      ['/later'],
    );
  });
});

describe('sameLaunch: whether a settings change restarts the agent', () => {
  const base = parseAgents([{ ...good, args: ['a'], env: { A: '1', B: '2' } }]).agents[0]!;
  it('is the same launch for the same command, args, env (in any order), name and switches', () => {
    const again = parseAgents([{ ...good, env: { B: '2', A: '1' }, args: ['a'] }]).agents[0]!;
    assert.equal(sameLaunch(base, again), true);
    assert.equal(sameLaunch(base, { ...base, mcpServers: [{ name: 'x', command: '/x', args: [], env: [] }] }), true);
  });
  for (const [what, change] of [
    ['command', { command: '/other' }],
    ['name', { name: 'Other' }],
    ['args', { args: ['b'] }],
    ['one more arg', { args: ['a', 'b'] }],
    ['env', { env: { A: '1', B: '3' } }],
    ['allowFileWrites', { allowFileWrites: false }],
    ['allowTerminals', { allowTerminals: false }],
  ] as const) {
    it(`is another launch when the ${what} changes`, () => {
      assert.equal(sameLaunch(base, { ...base, ...change }), false);
    });
  }
});
