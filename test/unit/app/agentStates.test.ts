import assert from 'node:assert/strict';
import { displayState, summarize } from '../../../src/app/agentStates';

describe('Agent states in the view and the status bar', () => {
  it('shows "needs sign-in" only for a running agent', () => {
    assert.equal(displayState('ready', true), 'signIn');
    assert.equal(displayState('ready', false), 'ready');
    assert.equal(displayState('starting', true), 'starting');
    assert.equal(displayState('failed', false), 'failed');
    assert.equal(displayState('stopped', false), 'stopped');
  });

  it('says "failed to start" for an agent that never answered, and "stopped" for one that ran', () => {
    assert.equal(displayState('failed', false, true), 'startFailed');
    assert.equal(displayState('failed', false, false), 'failed');
    const never = summarize([{ name: 'A', state: 'startFailed' }]);
    assert.equal(never.text, '$(error) ACP: 1 failed to start');
    assert.equal(never.tooltip, 'A: failed to start');
    assert.equal(summarize([{ name: 'A', state: 'failed' }]).tooltip, 'A: stopped');
  });

  it('summarises: sign-in first, then stopped, starting, and the number ready', () => {
    assert.equal(
      summarize([
        { name: 'A', state: 'ready' },
        { name: 'B', state: 'ready' },
      ]).text,
      '$(hubot) ACP: 2 ready',
    );
    assert.equal(
      summarize([
        { name: 'A', state: 'ready' },
        { name: 'B', state: 'starting' },
      ]).text,
      '$(loading~spin) ACP: starting…',
    );
    assert.equal(
      summarize([
        { name: 'A', state: 'signIn' },
        { name: 'B', state: 'failed' },
      ]).text,
      '$(account) ACP: sign in to A',
    );
    assert.equal(
      summarize([
        { name: 'A', state: 'signIn' },
        { name: 'B', state: 'signIn' },
      ]).text,
      '$(account) ACP: 2 need sign-in',
    );
    assert.equal(
      summarize([
        { name: 'A', state: 'failed' },
        { name: 'B', state: 'ready' },
      ]).text,
      '$(error) ACP: 1 stopped',
    );
    assert.equal(summarize([{ name: 'A', state: 'stopped' }]).text, '$(hubot) ACP');
    assert.equal(
      summarize([
        { name: 'A', state: 'ready' },
        { name: 'B', state: 'signIn' },
      ]).tooltip,
      'A: ready\nB: needs sign-in',
    );
  });
});
