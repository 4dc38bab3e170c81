import assert from 'node:assert/strict';
import { describeTerminalLaunch, signInMethods, terminalLaunch } from '../../../src/agent/auth';
import { withSignInEnv } from '../../../src/agent/secrets';

describe('Sign-in methods', () => {
  it('reads agent-handled (no type) and terminal methods, leaving unknown kinds out', () => {
    const methods = signInMethods([
      { id: 'oauth', name: 'Log in with a browser', description: 'Opens a page' },
      { id: 'tui', type: 'terminal', name: 'Log in in a terminal', args: ['--login'], env: { MODE: 'login' } },
      { id: 'future', type: 'elicitation', name: 'Later' } as never,
    ]);
    assert.deepEqual(methods, [
      { id: 'oauth', name: 'Log in with a browser', description: 'Opens a page', kind: 'agent', args: [], env: {} },
      { id: 'tui', name: 'Log in in a terminal', kind: 'terminal', args: ['--login'], env: { MODE: 'login' } },
    ]);
  });

  it('reads a method with its command in _meta["terminal-auth"] (Copilot CLI) as a terminal method with that command', () => {
    const copilot = {
      id: 'copilot-login',
      name: 'Log in with Copilot CLI',
      description: 'Run `copilot login` in the terminal',
      _meta: { 'terminal-auth': { command: '/usr/lib/copilot/copilot', args: ['login', 7], label: 'Copilot Login' } },
    };
    const [m] = signInMethods([copilot]);
    assert.deepEqual(m, {
      id: 'copilot-login',
      name: 'Log in with Copilot CLI',
      description: 'Run `copilot login` in the terminal',
      kind: 'terminal',
      command: '/usr/lib/copilot/copilot',
      label: 'Copilot Login',
      args: ['login'],
      env: {},
    });
    const config = { id: 'c', name: 'Copilot', command: 'copilot', args: ['--acp', '--stdio'], env: { A: '1' } };
    assert.deepEqual(terminalLaunch(config, m!), {
      command: '/usr/lib/copilot/copilot',
      args: ['login'],
      env: { A: '1' },
    });
  });

  it("describes all of what a terminal sign-in runs: the program, every variable the agent sets in full, the names of the user's own", () => {
    const [m] = signInMethods([
      {
        id: 'x',
        name: 'Log in',
        _meta: {
          'terminal-auth': {
            command: '/opt/agent bin/login',
            args: ['--user', 'a\u202Egnp.exe', 'two\nlines'],
            env: {
              PATH: '/tmp/evil:/usr/bin',
              NODE_OPTIONS: '--require /tmp/x.js',
              BASH_ENV: '/tmp/rc',
              SECRET: 'over',
            },
          },
        },
      },
    ]);
    const config = { id: 'c', name: 'C', command: 'agent', args: [], env: { SECRET: 'kept-out', TOKEN: 's3cr3t' } };
    assert.deepEqual(describeTerminalLaunch(config, m!), {
      commandLine: '"/opt/agent bin/login" --user "a\\u202Egnp.exe" "two\\nlines"',
      agentEnv: ['PATH=/tmp/evil:/usr/bin', 'NODE_OPTIONS=--require /tmp/x.js', 'BASH_ENV=/tmp/rc', 'SECRET=over'],
      ownEnv: ['TOKEN'],
      agentProgram: true,
    });
    const [typed] = signInMethods([
      { id: 't', type: 'terminal', name: 'T', args: ['--login'], env: { X: 'a\u0007b' } },
    ]);
    assert.deepEqual(describeTerminalLaunch(config, typed!), {
      commandLine: 'agent --login',
      agentEnv: ['X=a\\u0007b'],
      ownEnv: ['SECRET', 'TOKEN'],
      agentProgram: false,
    });
  });

  it('leaves a method agent-handled when its _meta["terminal-auth"] names no usable command; a typed terminal method keeps its own shape', () => {
    const bad = [
      { id: 'a', name: 'A', _meta: { 'terminal-auth': { args: ['login'] } } },
      { id: 'b', name: 'B', _meta: { 'terminal-auth': { command: '   ' } } },
      { id: 'c', name: 'C', _meta: { 'terminal-auth': { command: 42 } } },
      { id: 'd', name: 'D', _meta: { 'terminal-auth': 'copilot login' } },
      { id: 'e', name: 'E', _meta: null },
    ];
    assert.deepEqual(
      signInMethods(bad as never).map((m) => [m.id, m.kind, m.command]),
      bad.map((m) => [m.id, 'agent', undefined]),
    );
    const both = {
      id: 'pi',
      type: 'terminal',
      name: 'Log in',
      args: ['--login'],
      _meta: { 'terminal-auth': { command: 'pi', args: ['login'] } },
    };
    const [m] = signInMethods([both] as never);
    assert.equal(m?.command, undefined, 'the typed form runs the agent with its args');
    assert.deepEqual(m?.args, ['--login']);
  });

  it('reads env_var methods (Codex: "Use OPENAI_API_KEY") with their variables, secret by default', () => {
    const methods = signInMethods([
      {
        id: 'openai-api-key',
        type: 'env_var',
        name: 'Use OPENAI_API_KEY',
        vars: [{ name: 'OPENAI_API_KEY' }],
        link: 'https://platform.openai.com/api-keys',
      },
      {
        id: 'two',
        type: 'env_var',
        name: 'Two',
        vars: [
          { name: 'HOST', label: 'Host name', secret: false },
          { name: 'TOKEN', optional: true },
        ],
        link: 'javascript:alert(1)',
      },
      { id: 'bad-name', type: 'env_var', name: 'Bad', vars: [{ name: 'A; rm -rf /' }] },
      { id: 'no-vars', type: 'env_var', name: 'None', vars: [] },
    ] as never);
    assert.deepEqual(methods, [
      {
        id: 'openai-api-key',
        name: 'Use OPENAI_API_KEY',
        kind: 'env',
        args: [],
        env: {},
        vars: [{ name: 'OPENAI_API_KEY', secret: true, optional: false }],
        link: 'https://platform.openai.com/api-keys',
      },
      // Only an https link is shown; a variable with a name no shell could set drops the method.
      {
        id: 'two',
        name: 'Two',
        kind: 'env',
        args: [],
        env: {},
        vars: [
          { name: 'HOST', label: 'Host name', secret: false, optional: false },
          { name: 'TOKEN', secret: true, optional: true },
        ],
      },
    ]);
  });

  it('starts the agent with the signed-in values over its configured env, all of them redacted', () => {
    const launch = {
      config: { id: 'c', name: 'C', command: 'codex-acp', args: [], env: { OPENAI_API_KEY: 'old', OTHER: 'x' } },
      secrets: ['s1'],
    };
    const out = withSignInEnv(launch, { OPENAI_API_KEY: 'sk-new', EMPTY: '' });
    assert.deepEqual(out.config.env, { OPENAI_API_KEY: 'sk-new', OTHER: 'x', EMPTY: '' });
    assert.deepEqual(out.secrets, ['s1', 'sk-new']);
    assert.deepEqual(withSignInEnv(launch, undefined), { config: launch.config, secrets: ['s1'] });
  });

  it('runs the configured agent with the method args appended and its env over the agent env', () => {
    const [m] = signInMethods([{ id: 'tui', type: 'terminal', name: 'T', args: ['--login'], env: { B: '2', C: '3' } }]);
    const config = { id: 'x', name: 'X', command: 'npx', args: ['-y', 'adapter'], env: { A: '1', B: '1' } };
    assert.deepEqual(terminalLaunch(config, m!), {
      command: 'npx',
      args: ['-y', 'adapter', '--login'],
      env: { A: '1', B: '2', C: '3' },
    });
  });
});
