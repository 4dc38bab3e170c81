import * as assert from 'node:assert/strict';
import { shownName } from '../../../src/sessions/display';
import { sessionRow } from '../../support/builders/sessions';

describe('shownName', () => {
  const titled = sessionRow('sess_1234abcd', { title: 'Fix the\nlogin bug' });
  const untitled = sessionRow('sess_1234abcd', { title: null });

  it('shows the agent title when the user gave no name', () => {
    assert.deepEqual(shownName(titled, undefined), { label: 'Fix the login bug', named: false });
    assert.deepEqual(shownName(untitled, ''), { label: 'Untitled session · sess_123', named: false });
  });

  it('shows the user name, saying how the agent still knows the session', () => {
    assert.deepEqual(shownName(titled, 'Login'), {
      label: 'Login',
      named: true,
      note: 'The agent still knows it as “Fix the login bug”.',
    });
    assert.deepEqual(shownName(untitled, 'Login'), {
      label: 'Login',
      named: true,
      note: 'The agent has no title for this session.',
    });
  });

  it('says nothing more when the agent stored the same name', () => {
    const stored = sessionRow('s', { title: 'Login' });
    assert.deepEqual(shownName(stored, 'Login'), { label: 'Login', named: true });
  });
});
