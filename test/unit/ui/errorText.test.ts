import * as assert from 'node:assert/strict';
import { AgentExited, ErrorCodes, ProtocolError } from '../../../src/agent/errors';
import { describeError } from '../../../src/ui/errorText';

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
});
