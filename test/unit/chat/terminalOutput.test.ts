import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/agent/log';
import { pinRoots } from '../../../src/agent/roots';
import type { AgentConfig } from '../../../src/agent/types';
import { ChangeBatcher } from '../../../src/chat/batcher';
import { TerminalViews } from '../../../src/chat/terminalViews';
import { Thread } from '../../../src/chat/thread';
import type { ThreadChange } from '../../../src/protocol/entries';
import {
  applyTerminalDelta,
  TERMINAL_VIEW_CHARS,
  type TerminalOutputDelta,
} from '../../../src/protocol/terminalOutput';
import { agentTerminals } from '../../../src/chat/terminalFeed';
import { waitFor } from '../../support/wait';
import { toolCallUpdate } from '../../support/builders/updates';

const delta = (text: string, extra: Partial<TerminalOutputDelta> = {}): TerminalOutputDelta => ({
  text,
  reset: false,
  truncated: false,
  ...extra,
});

function threadWithTerminal(): { thread: Thread; changes: ThreadChange[] } {
  const thread = new Thread();
  thread.apply({
    sessionUpdate: 'tool_call',
    toolCallId: 'run',
    title: 'npm test',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'term' }],
  });
  const changes: ThreadChange[] = [];
  thread.onDidChange((c) => changes.push(...c));
  return { thread, changes };
}

const shown = (thread: Thread) => {
  const entry = thread.entries.find((e) => e.type === 'tool');
  return entry?.type === 'tool' ? entry.terminalOutput?.term : undefined;
};

describe('terminal output in the chat', () => {
  it('sends only what was appended, not the whole output again', () => {
    const { thread, changes } = threadWithTerminal();
    const views = new TerminalViews(thread);
    views.show('term', delta('a'.repeat(5000)));
    views.show('term', delta('b'.repeat(10)));
    assert.equal(shown(thread)?.output, 'a'.repeat(5000) + 'b'.repeat(10));
    const last = changes.at(-1)!;
    assert.equal(last.kind, 'terminalAppended');
    assert.equal(
      last.kind === 'terminalAppended' && last.delta.text,
      'b'.repeat(10),
      'the second change carries ten characters, not 5,010',
    );
  });

  it('keeps the newest output, marks the cut, and shows an exit by code or by signal', () => {
    let state = applyTerminalDelta(undefined, delta('x'.repeat(TERMINAL_VIEW_CHARS - 5)));
    assert.equal(state.truncated, false);
    state = applyTerminalDelta(state, delta('0123456789'));
    assert.equal(state.output.length, TERMINAL_VIEW_CHARS);
    assert.ok(state.output.endsWith('0123456789'));
    assert.equal(state.truncated, true);
    state = applyTerminalDelta(state, delta('fresh', { reset: true }));
    assert.deepEqual(state, { output: 'fresh', truncated: false });
    state = applyTerminalDelta(state, delta('', { exitCode: null, signal: 'SIGTERM' }));
    assert.deepEqual(state, { output: 'fresh', truncated: false, exitCode: null, signal: 'SIGTERM' });
  });

  it('keeps output that arrives before a tool call names the terminal, and forgets a released terminal', () => {
    const thread = new Thread();
    const views = new TerminalViews(thread);
    views.show('early', delta('started\n'));
    views.show('gone', delta('never shown\n'));
    assert.equal(views.size, 2);
    thread.apply({
      sessionUpdate: 'tool_call',
      toolCallId: 'c',
      title: 'build',
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: 'early' }],
    });
    const entry = thread.entries[0];
    assert.equal(entry?.type === 'tool' && entry.terminalOutput?.early?.output, 'started\n');
    views.show('early', delta('done\n', { exitCode: 0 }));
    assert.equal(entry?.type === 'tool' && entry.terminalOutput?.early?.output, 'started\ndone\n');
    views.release('early');
    views.release('gone');
    assert.equal(views.size, 0, 'released terminals leave nothing behind');
  });

  it('joins deltas in a batch, and a full entry change drops the deltas it already holds', () => {
    const batches: ThreadChange[][] = [];
    const batcher = new ChangeBatcher((c) => batches.push(c), {
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    });
    const { thread } = threadWithTerminal();
    thread.onDidChange((c) => batcher.push(c));
    thread.appendTerminalOutput('run', 'term', delta('one '));
    thread.appendTerminalOutput('run', 'term', delta('two '));
    batcher.flushNow();
    assert.deepEqual(batches.pop(), [
      { kind: 'terminalAppended', index: 0, terminalId: 'term', delta: delta('one two ') },
    ]);

    thread.apply(toolCallUpdate('run', { title: 'npm test (1)' }));
    thread.appendTerminalOutput('run', 'term', delta('three '));
    thread.apply(toolCallUpdate('run', { status: 'completed' }));
    thread.appendTerminalOutput('run', 'term', delta('four'));
    batcher.flushNow();
    const batch = batches.pop()!;
    assert.deepEqual(
      batch.map((c) => c.kind),
      ['entryChanged', 'terminalAppended'],
    );
    // Applied in order, the batch leaves each piece of output once.
    let state =
      batch[0]!.kind === 'entryChanged' && batch[0]!.entry.type === 'tool'
        ? batch[0]!.entry.terminalOutput?.term
        : undefined;
    if (batch[1]!.kind === 'terminalAppended') state = applyTerminalDelta(state, batch[1]!.delta);
    assert.equal(state?.output, 'one two three four');
  });

  describe('from a running command', function () {
    this.timeout(15_000);
    let root: string;
    before(() => (root = mkdtempSync(join(tmpdir(), 'acp-term-'))));
    after(() => rmSync(root, { recursive: true, force: true }));

    function setup() {
      const deltas: TerminalOutputDelta[] = [];
      const released: string[] = [];
      const sessions = {
        terminalOutput: (_a: string, _s: string, _t: string, d: TerminalOutputDelta) => void deltas.push(d),
        terminalReleased: (_a: string, _s: string, terminalId: string) => void released.push(terminalId),
        onDidCloseSession: () => ({ dispose() {} }),
      };
      const config: AgentConfig = { id: 'ref', name: 'Ref', command: 'x', args: [], env: {} };
      const terminals = agentTerminals(config, new MemoryLogger(), sessions);
      return { terminals, deltas, released };
    }

    it('sends each printed line once, in deltas of what is new, then the exit', async () => {
      const { terminals, deltas, released } = setup();
      // Three bursts of ten lines, each printed once the chat was sent the one before: however
      // loaded the machine, they cannot all arrive in one delta.
      const go = join(root, 'go-');
      const script = [
        `const fs = require('fs'); const go = ${JSON.stringify(go)}; let burst = 0;`,
        'function print() {',
        '  for (let i = 0; i < 10; i++) process.stdout.write(`line ${burst * 10 + i}\\n`);',
        '  if (++burst === 3) return;',
        '  const wait = setInterval(() => { if (fs.existsSync(go + burst)) { clearInterval(wait); print(); } }, 5);',
        '}',
        'print();',
      ].join('\n');
      const { terminalId } = await terminals.create(
        { sessionId: 's', command: process.execPath, args: ['-e', script] },
        pinRoots([root]),
      );
      const sent = () => deltas.map((d) => d.text).join('');
      for (const burst of [1, 2]) {
        while (!sent().includes(`line ${burst * 10 - 1}\n`)) await new Promise((r) => setTimeout(r, 10));
        writeFileSync(go + burst, '');
      }
      const exit = await terminals.waitForExit({ sessionId: 's', terminalId });
      assert.equal(exit.exitCode, 0);
      await waitFor('the exit sent', () => deltas.some((d) => d.exitCode !== undefined), 5000);
      terminals.release({ sessionId: 's', terminalId });
      const expected = Array.from({ length: 30 }, (_, i) => `line ${i}\n`).join('');
      assert.ok(deltas.length >= 3, `several deltas while it ran (${deltas.length})`);
      assert.equal(sent(), expected, 'every character once: nothing resent');
      assert.ok(deltas.every((d) => !d.reset));
      assert.equal(deltas.find((d) => d.exitCode !== undefined)?.exitCode, 0);
      assert.deepEqual(released, [terminalId]);
      terminals.dispose();
    });

    it('resets to the newest output when more arrives than the chat keeps, and reports a kill by signal', async () => {
      const { terminals, deltas } = setup();
      const script = `process.stdout.write('y'.repeat(${TERMINAL_VIEW_CHARS * 3})); setInterval(() => {}, 1000);`;
      const { terminalId } = await terminals.create(
        { sessionId: 's', command: process.execPath, args: ['-e', script] },
        pinRoots([root]),
      );
      await waitFor('its output', () => deltas.some((d) => d.text), 5000);
      await terminals.kill({ sessionId: 's', terminalId });
      await waitFor('the kill sent', () => deltas.some((d) => d.signal !== undefined), 5000);
      terminals.release({ sessionId: 's', terminalId });
      const state = deltas.reduce((s, d) => applyTerminalDelta(s, d), applyTerminalDelta(undefined, delta('')));
      assert.ok(
        deltas.some((d) => d.reset && d.truncated),
        'a reset marks the front as cut',
      );
      assert.ok(deltas.every((d) => d.text.length <= TERMINAL_VIEW_CHARS));
      assert.equal(state.output, 'y'.repeat(TERMINAL_VIEW_CHARS));
      assert.equal(state.truncated, true);
      // Windows has no signals: a command ended by the client is reported killed.
      assert.equal(state.signal, process.platform === 'win32' ? 'SIGKILL' : 'SIGTERM');
      terminals.dispose();
    });
  });
});
