import * as assert from 'node:assert/strict';
import { openPlan, sameTime, type OpenFacts } from '../../../src/library/freshness';

const T = '2024-05-01T10:00:00.000Z';
const facts = (patch: Partial<OpenFacts> = {}): OpenFacts => ({
  kept: { complete: true, updatedAt: T, entries: 10 },
  listed: T,
  setting: { mode: 'auto', explicit: false },
  canResume: true,
  ...patch,
});

describe('library: when a kept transcript stands for the history', () => {
  it('shows it and resumes when it is whole and the agent lists the same updatedAt', () => {
    assert.deepEqual(openPlan(facts()), { kind: 'kept' });
    assert.deepEqual(openPlan(facts({ listed: '2024-05-01T10:00:00Z' })), { kind: 'kept' }, 'the same instant');
    assert.deepEqual(openPlan(facts({ canResume: undefined })), { kind: 'kept' }, 'the agent not started yet');
  });

  it('loads when the session moved on since it was kept', () => {
    assert.equal(openPlan(facts({ listed: '2024-05-01T10:00:01.000Z' })).kind, 'agent');
    assert.match((openPlan(facts({ listed: '2024-06-01T00:00:00Z' })) as { reason: string }).reason, /moved on/);
  });

  it('loads when it cannot tell: no time listed, no time kept', () => {
    assert.equal(openPlan(facts({ listed: undefined })).kind, 'agent');
    assert.equal(openPlan(facts({ listed: null })).kind, 'agent');
    assert.equal(openPlan(facts({ kept: { complete: true, entries: 3 } })).kind, 'agent');
  });

  it('loads when the kept copy is not the whole history, is empty, or missing', () => {
    assert.equal(openPlan(facts({ kept: { complete: false, updatedAt: T, entries: 10 } })).kind, 'agent');
    assert.equal(openPlan(facts({ kept: { complete: true, updatedAt: T, entries: 0 } })).kind, 'agent');
    assert.equal(openPlan(facts({ kept: undefined })).kind, 'agent');
  });

  it('loads when the agent cannot resume', () => {
    assert.equal(openPlan(facts({ canResume: false })).kind, 'agent');
  });

  it('keeps acp.openMode: "load" set by the user always loads; "resume" still shows the kept copy', () => {
    assert.equal(openPlan(facts({ setting: { mode: 'load', explicit: true } })).kind, 'agent');
    assert.equal(openPlan(facts({ setting: { mode: 'resume', explicit: true } })).kind, 'kept');
  });

  it('compares times as text first, then as instants', () => {
    assert.equal(sameTime('x', 'x'), true);
    assert.equal(sameTime('x', 'y'), false);
    assert.equal(sameTime('2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'), true);
  });
});
