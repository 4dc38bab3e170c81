import * as assert from 'node:assert/strict';
import type { ChatCapabilities } from '../../../src/protocol/messages';
import { panelTargetOf, readPanelTarget } from '../../../src/protocol/panelTarget';

const caps = {
  agentId: 'codex',
  sessionId: 's1',
  cwd: '/work/shop',
} as ChatCapabilities;

describe('the panel target a webview saves for a reload', () => {
  it('keeps a read-only copy read-only after a reload, and why', () => {
    const why = 'Codex no longer lists this session: this is the copy the session library keeps, read-only.';
    const saved = JSON.parse(JSON.stringify(panelTargetOf({ ...caps, readOnly: why }, 'Cart'))) as unknown;
    assert.deepEqual(readPanelTarget(saved), {
      agentId: 'codex',
      sessionId: 's1',
      cwd: '/work/shop',
      title: 'Cart',
      readOnly: why,
    });
    assert.equal(readPanelTarget(panelTargetOf(caps, undefined))?.readOnly, undefined, 'a live chat is not');
  });

  it('drops a reason that is not text, and caps a long one', () => {
    const base = { agentId: 'codex', sessionId: 's1', cwd: '/work/shop' };
    assert.equal(readPanelTarget({ ...base, readOnly: 3 })?.readOnly, undefined);
    assert.equal(readPanelTarget({ ...base, readOnly: '' })?.readOnly, undefined);
    assert.equal(readPanelTarget({ ...base, readOnly: 'x'.repeat(5000) })?.readOnly?.length, 1000);
  });
});
