import * as assert from 'node:assert/strict';
import {
  AgentExited,
  AgentTimedOut,
  AuthRequired,
  Cancelled,
  CannotList,
  ErrorCodes,
  MissingSecret,
  ProtocolError,
  StartRefused,
} from '../../../src/agent/errors';
import { describeError } from '../../../src/app/errorText';

describe('error text', () => {
  it('adds the reason an agent put in `data` when its message says only "Internal error"', () => {
    // Gemini CLI's answer to a load of a session it cannot find.
    const e = new ProtocolError('Gemini CLI', 'session/load', 'Internal error', ErrorCodes.InternalError, {
      details: 'Invalid session identifier "1234".\n  Searched for sessions in /home/dev/.gemini/tmp/proj/chats',
    });
    assert.equal(
      describeError(e),
      'Gemini CLI could not complete session/load: Internal error (Invalid session identifier "1234". Searched for sessions in /home/dev/.gemini/tmp/proj/chats)',
    );
  });

  it('takes a string `data` as the reason, and does not repeat what the message says already', () => {
    assert.equal(
      describeError(
        new ProtocolError(
          'Codex',
          'session/list',
          'Internal error',
          ErrorCodes.InternalError,
          'failed to list sessions',
        ),
      ),
      'Codex could not complete session/list: Internal error (failed to list sessions)',
    );
    assert.equal(
      describeError(new ProtocolError('A', 'session/new', 'disk full', -32000, 'disk full')),
      'A could not complete session/new: disk full',
    );
    assert.equal(
      describeError(new ProtocolError('A', 'session/new', 'Internal error', -32603, { other: 1 })),
      'A could not complete session/new: Internal error',
    );
  });

  it('keeps a hostile or huge `data` to one clean line of at most 300 characters', () => {
    const text = describeError(
      new ProtocolError('A', 'session/load', '', -32603, { details: `\u202Eevil\u0007${'x'.repeat(1000)}` }),
    );
    assert.ok(!/[\u0000-\u001f\u202a-\u202e]/.test(text));
    assert.ok(text.length < 400, `capped (${text.length})`);
  });

  it('says an unknown session is unknown, whatever the agent wrote', () => {
    assert.equal(
      describeError(new ProtocolError('A', 'session/load', 'Resource not found', ErrorCodes.ResourceNotFound)),
      'A does not know this session any more.',
    );
  });

  it('tells a start that failed from a crash', () => {
    assert.match(
      describeError(new AgentExited('A', null, null, '', 'the command "nope" was not found')),
      /^A could not be started: the command "nope" was not found\. Check "acp\.agents"/,
    );
    assert.equal(
      describeError(new AgentExited('A', 3, null, '')),
      'A stopped (exit code 3). The log has its last output.',
    );
  });

  it("says each error in one sentence, the error's own, with what to do in VS Code where that helps", () => {
    const cases: [Error, string][] = [
      [new AgentTimedOut('A', 'session/list', 30_000), 'A did not answer session/list within 30 seconds.'],
      [
        new AuthRequired('A', 'Authentication required: the API key is wrong'),
        'Sign in to A to continue (A says: the API key is wrong): choose "Sign in to A" in the Sessions view or run "ACP: Sign In".',
      ],
      [
        new AuthRequired('A', ''),
        'Sign in to A to continue: choose "Sign in to A" in the Sessions view or run "ACP: Sign In".',
      ],
      [
        new MissingSecret('KEY', 'A (env.KEY)'),
        'the secret "KEY" used by A (env.KEY) is not set. Run "ACP: Set Agent Secret" to store it.',
      ],
      [
        new StartRefused('A was not started: this workspace is not trusted.'),
        'A was not started: this workspace is not trusted.',
      ],
      [new CannotList('A'), 'A cannot list sessions.'],
      [new Cancelled('session/load'), 'Cancelled.'],
      [new AgentExited('A', null, 'SIGKILL', ''), 'A stopped (signal SIGKILL). The log has its last output.'],
      [
        new AgentExited('A', 0, null, '').because('sent a message over 32 MiB'),
        'A sent a message over 32 MiB. The log has the details.',
      ],
    ];
    for (const [e, text] of cases) assert.equal(describeError(e), text, e.name);
  });

  it("keeps an agent's words in our sentences to one clean line", () => {
    const text = describeError(new AuthRequired('A', `\u202Eevil\nline${'x'.repeat(1000)}`));
    assert.ok(!/[\u0000-\u001f\u202a-\u202e]/.test(text));
    assert.ok(text.length < 500, `capped (${text.length})`);
  });

  it('words a start that never ran once: the row says the part after the name', () => {
    const e = new AgentExited('A', null, null, '', 'the command "nope" was not found');
    assert.equal(e.startProblem, 'the command "nope" was not found. Check "acp.agents" in your settings.');
    assert.equal(e.message, `A could not be started: ${e.startProblem}`);
    assert.equal(describeError(e), e.message);
    assert.equal(new AgentExited('A', 1, null, '').startProblem, undefined);
  });
});
