import * as assert from 'node:assert/strict';
import { AgentRegistry } from '../../../src/agent/agentHost';
import { MemoryLogger, tagged, traceHint, TraceHint } from '../../../src/agent/log';
import type { TraceLevel } from '../../../src/agent/log';

/** A logger at a `vscode.LogLevel`, as the "ACP" LogOutputChannel is. */
class ChannelLike extends MemoryLogger {
  constructor(public logLevel: number) {
    super();
  }
}

describe('acp.trace and the channel log level', () => {
  it('hints how to see the traffic only when tracing is on and the channel hides trace lines', () => {
    assert.equal(traceHint('off', 3), undefined);
    assert.equal(traceHint('verbose', 1), undefined, 'already at Trace');
    assert.equal(traceHint('verbose', undefined), undefined, 'a logger that keeps everything');
    for (const level of [0, 2, 3, 4, 5]) {
      const hint = traceHint('messages', level);
      assert.ok(hint, `level ${level}`);
      assert.match(hint, /"Developer: Set Log Level…", choose "ACP", then "Trace"/);
    }
    assert.match(traceHint('verbose', 3)!, /log level is Info/);
  });

  it('says it once each time tracing is turned on', () => {
    const log = new ChannelLike(3);
    const hint = new TraceHint();
    const seq: TraceLevel[] = ['off', 'verbose', 'verbose', 'messages', 'off', 'messages'];
    for (const t of seq) hint.check(t, log);
    assert.equal(log.lines.filter((l) => l.startsWith('info acp.trace is')).length, 2);
  });

  it('reads the level through a tagged logger', () => {
    const log = new ChannelLike(2);
    const t = tagged(log, 'ref');
    assert.equal(t.logLevel, 2);
    log.logLevel = 1;
    assert.equal(t.logLevel, 1);
  });

  it('the agent registry gives the hint when a settings change turns tracing on', () => {
    const log = new ChannelLike(3);
    let trace: TraceLevel = 'off';
    const registry = new AgentRegistry({
      logger: log,
      clientInfo: { name: 't', version: '0' },
      trace: () => trace,
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
    });
    registry.update([], '');
    assert.equal(log.lines.length, 0);
    trace = 'verbose';
    registry.update([], '');
    registry.update([], '');
    assert.equal(
      log.lines.filter((l) => /acp.trace is "verbose".*hides the traffic/.test(l)).length,
      1,
      log.lines.join('\n'),
    );
    registry.dispose();
  });
});
