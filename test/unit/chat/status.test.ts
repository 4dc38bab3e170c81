import * as assert from 'node:assert/strict';
import { ChatStatuses } from '../../../src/chat/status';

describe('ChatStatuses', () => {
  const setup = () => {
    const s = new ChatStatuses();
    const events: string[] = [];
    s.onDidChange((e) => events.push(`${e.agentId}/${e.sessionId}`));
    return { s, events };
  };

  it('shows a turn running, then "unseen" when it ends while the chat is hidden', () => {
    const { s, events } = setup();
    s.opened('a', 's1', false);
    assert.equal(s.activity('a', 's1'), 'idle');
    s.turnStarted('a', 's1');
    assert.equal(s.activity('a', 's1'), 'running');
    s.turnEnded('a', 's1', 'done');
    assert.equal(s.activity('a', 's1'), 'unseen');
    s.visible('a', 's1', true);
    assert.equal(s.activity('a', 's1'), 'idle', 'showing the chat clears unseen');
    assert.deepEqual(events, ['a/s1', 'a/s1', 'a/s1']);
  });

  it('is not "unseen" when the chat was visible, or the turn was cancelled', () => {
    const { s } = setup();
    s.opened('a', 's1', true);
    s.turnStarted('a', 's1');
    s.turnEnded('a', 's1', 'done');
    assert.equal(s.activity('a', 's1'), 'idle');
    s.visible('a', 's1', false);
    s.turnStarted('a', 's1');
    s.turnEnded('a', 's1', 'cancelled');
    assert.equal(s.activity('a', 's1'), 'idle');
  });

  it('counts sessions that need input, once per session however many requests wait', () => {
    const { s } = setup();
    s.opened('a', 's1', false);
    s.opened('b', 's1', false);
    s.turnStarted('a', 's1');
    const first = s.inputRequested('a', 's1');
    const second = s.inputRequested('a', 's1');
    const other = s.inputRequested('b', 's1');
    assert.equal(s.activity('a', 's1'), 'needsInput', 'input comes before running');
    assert.equal(s.needsInput, 2);
    first();
    first();
    assert.equal(s.needsInput, 2, 'one answered, one still waits; answering twice counts once');
    second();
    assert.equal(s.activity('a', 's1'), 'running');
    assert.equal(s.needsInput, 1);
    other();
    assert.equal(s.needsInput, 0);
  });

  it('shows a failed turn or a failed open until the next turn starts', () => {
    const { s } = setup();
    s.opened('a', 's1', true);
    s.turnStarted('a', 's1');
    s.turnEnded('a', 's1', 'failed');
    assert.equal(s.activity('a', 's1'), 'failed');
    s.visible('a', 's1', false);
    s.visible('a', 's1', true);
    assert.equal(s.activity('a', 's1'), 'failed', 'seeing it does not make it succeed');
    s.turnStarted('a', 's1');
    assert.equal(s.activity('a', 's1'), 'running');
    s.turnEnded('a', 's1', 'done');
    s.attachFailed('a', 's1');
    assert.equal(s.activity('a', 's1'), 'failed');
  });

  it('forgets a closed chat, with its waiting input, and ignores sessions not open here', () => {
    const { s, events } = setup();
    s.opened('a', 's1', false);
    s.inputRequested('a', 's1');
    s.closed('a', 's1');
    assert.equal(s.activity('a', 's1'), 'idle');
    assert.equal(s.needsInput, 0);
    const before = events.length;
    s.turnStarted('a', 'never-opened');
    const release = s.inputRequested('a', 'never-opened');
    release();
    s.closed('a', 'never-opened');
    assert.equal(s.needsInput, 0);
    assert.equal(events.length, before, 'no event for a session not open here');
  });

  it('fires only when what a row shows changes', () => {
    const { s, events } = setup();
    s.opened('a', 's1', true);
    s.visible('a', 's1', true);
    s.visible('a', 's1', false);
    assert.deepEqual(events, [], 'visibility alone changes nothing shown');
    s.opened('a', 's1', true);
    assert.equal(s.activity('a', 's1'), 'idle');
  });
});
