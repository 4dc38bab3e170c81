import assert from 'node:assert/strict';
import { ignoredLocalValue, machineValue, writtenValue } from '../../../src/app/machineScope';

// What the extension host's inspect() answered in code-server (a remote window) with acp.agents
// in the User settings only: first while the workbench did not know the setting's scope yet
// (the merged value holds the User value), then after (nothing anywhere).
const userAgents = [{ id: 'claude-code', command: 'npx' }];
const early = { globalValue: userAgents, globalLocalValue: userAgents, globalRemoteValue: undefined };
const later = { globalValue: undefined, globalLocalValue: undefined, globalRemoteValue: undefined };

describe('Settings of machine scope', () => {
  it('a remote window uses the Remote settings only: the same answer before and after the scope is known', () => {
    assert.equal(machineValue(early, true, userAgents), undefined, 'not the User value the merged value still has');
    assert.equal(machineValue(later, true, []), undefined);
    const remoteAgents = [{ id: 'r', command: 'x' }];
    assert.equal(machineValue({ ...early, globalRemoteValue: remoteAgents }, true, userAgents), remoteAgents);
  });

  it('a local window, or a host that does not report the remote value, uses the merged value', () => {
    assert.equal(machineValue(early, false, userAgents), userAgents);
    assert.equal(machineValue({ globalValue: userAgents }, true, userAgents), userAgents);
  });

  it('writes go where the window reads: the Remote value in a remote window, the User value locally', () => {
    assert.equal(writtenValue(early, true), undefined);
    assert.equal(writtenValue(early, false), userAgents);
  });

  it('the User value a remote window ignores, while the host still reports it', () => {
    assert.equal(ignoredLocalValue(early, true), userAgents);
    assert.equal(ignoredLocalValue(early, false), undefined);
    assert.equal(ignoredLocalValue(later, true), undefined);
  });
});
