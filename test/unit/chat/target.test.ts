import * as assert from 'node:assert/strict';
import { chatTarget } from '../../../src/chat/target';
import { sessionRow } from '../../support/builders/sessions';

describe('chatTarget', () => {
  it('carries what the agent listed: id, cwd, directories and title', () => {
    const row = sessionRow('s1', { cwd: '/p', additionalDirectories: ['/q'], title: 'Fix the build' });
    assert.deepEqual(chatTarget('ref', row), {
      agentId: 'ref',
      sessionId: 's1',
      cwd: '/p',
      additionalDirectories: ['/q'],
      title: 'Fix the build',
    });
  });

  it('leaves out a title the agent cleared (null) and directories it left out', () => {
    const target = chatTarget('ref', { sessionId: 's2', cwd: '/p', title: null });
    assert.equal(target.title, undefined);
    assert.equal(target.additionalDirectories, undefined);
    assert.equal(target.sessionId, 's2');
  });
});
