import * as assert from 'node:assert/strict';
import { ChatStatuses } from '../../../src/chat/status';

const idle = { running: false, waiting: 0, failed: false };
const running = { running: true, waiting: 0, failed: false };

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
    s.report('a', 's1', running);
    assert.equal(s.activity('a', 's1'), 'running');
    s.report('a', 's1', idle);
    assert.equal(s.activity('a', 's1'), 'unseen');
    s.visible('a', 's1', true);
    assert.equal(s.activity('a', 's1'), 'idle', 'showing the chat clears unseen');
    assert.deepEqual(events, ['a/s1', 'a/s1', 'a/s1']);
  });

  it('is not "unseen" when the chat was visible as the turn ended', () => {
    const { s } = setup();
    s.opened('a', 's1', true);
    s.report('a', 's1', running);
    s.report('a', 's1', idle);
    assert.equal(s.activity('a', 's1'), 'idle');
  });

  it('clears "unseen" when the next turn starts', () => {
    const { s } = setup();
    s.opened('a', 's1', false);
    s.report('a', 's1', running);
    s.report('a', 's1', idle);
    s.report('a', 's1', running);
    assert.equal(s.activity('a', 's1'), 'running');
    s.visible('a', 's1', true);
    s.report('a', 's1', idle);
    assert.equal(s.activity('a', 's1'), 'idle');
  });

  it('counts sessions that need input, once per session however many requests wait', () => {
    const { s } = setup();
    s.opened('a', 's1', false);
    s.opened('b', 's1', false);
    s.report('a', 's1', { running: true, waiting: 2, failed: false });
    s.report('b', 's1', { running: true, waiting: 1, failed: false });
    assert.equal(s.activity('a', 's1'), 'needsInput', 'input comes before running');
    assert.equal(s.needsInput, 2);
    s.report('a', 's1', { running: true, waiting: 1, failed: false });
    assert.equal(s.needsInput, 2, 'one answered, one still waits');
    s.report('a', 's1', running);
    assert.equal(s.activity('a', 's1'), 'running');
    assert.equal(s.needsInput, 1);
    s.report('b', 's1', running);
    assert.equal(s.needsInput, 0);
  });

  it('shows a failed turn or a failed open until it no longer holds, and a failure is not "unseen"', () => {
    const { s } = setup();
    s.opened('a', 's1', false);
    s.report('a', 's1', running);
    s.report('a', 's1', { running: false, waiting: 0, failed: true });
    assert.equal(s.activity('a', 's1'), 'failed');
    s.visible('a', 's1', true);
    assert.equal(s.activity('a', 's1'), 'failed', 'seeing it does not make it succeed');
    s.report('a', 's1', running);
    assert.equal(s.activity('a', 's1'), 'running');
  });

  it('forgets a closed chat with its waiting input, and ignores sessions not open here', () => {
    const { s, events } = setup();
    s.opened('a', 's1', false);
    s.report('a', 's1', { running: true, waiting: 1, failed: false });
    s.closed('a', 's1');
    assert.equal(s.activity('a', 's1'), 'idle');
    assert.equal(s.needsInput, 0);
    const before = events.length;
    s.report('a', 'never-opened', { running: true, waiting: 3, failed: false });
    s.visible('a', 'never-opened', true);
    s.closed('a', 'never-opened');
    assert.equal(s.needsInput, 0);
    assert.equal(events.length, before, 'no event for a session not open here');
  });

  it('fires only when what a row shows changes', () => {
    const { s, events } = setup();
    s.opened('a', 's1', true);
    s.visible('a', 's1', true);
    s.visible('a', 's1', false);
    s.report('a', 's1', idle);
    assert.deepEqual(events, [], 'nothing shown changed');
    s.opened('a', 's1', true);
    assert.equal(s.activity('a', 's1'), 'idle');
  });
});
