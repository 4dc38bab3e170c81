import * as assert from 'node:assert/strict';
import { Thread } from '../../../src/chat/thread';
import {
  agentChunk as agent,
  commandsUpdate,
  modeUpdate,
  noticeUpdate,
  planUpdate,
  sessionInfoUpdate,
  text,
  thoughtChunk as thought,
  toolCall,
  toolCallUpdate,
  usageUpdate,
  userChunk as user,
} from '../../support/builders/updates';
import type {
  MessageEntry,
  NoticeEntry,
  PermissionEntry,
  PlanEntryView,
  ThreadChange,
  ToolCallEntry,
} from '../../../src/protocol/entries';

function setup() {
  const logs: string[] = [];
  const thread = new Thread({ log: (m) => logs.push(m) });
  const changes: ThreadChange[] = [];
  thread.onDidChange((c) => changes.push(...c));
  return { thread, logs, changes };
}

const msg = (thread: Thread, i: number) => thread.entries[i] as MessageEntry;
const tool = (thread: Thread, i: number) => thread.entries[i] as ToolCallEntry;

describe('Thread', () => {
  describe('message chunks', () => {
    it('joins consecutive chunks of one type and reports only the appended text', () => {
      const { thread, changes } = setup();
      thread.apply(agent('Hel'));
      thread.apply(agent('lo'));
      assert.equal(thread.entries.length, 1);
      assert.equal(msg(thread, 0).text, 'Hello');
      assert.equal(msg(thread, 0).done, false);
      assert.deepEqual(changes[1], { kind: 'textAppended', index: 0, text: 'lo' });
    });

    it('starts a new entry on a chunk of another type and marks the previous one done', () => {
      const { thread, changes } = setup();
      thread.apply(user('Hi'));
      thread.apply(thought('hmm'));
      thread.apply(agent('Hello'));
      assert.deepEqual(
        thread.entries.map((e) => e.type),
        ['user', 'thought', 'agent'],
      );
      assert.equal(msg(thread, 0).done, true);
      assert.equal(msg(thread, 1).done, true);
      assert.equal(msg(thread, 2).done, false);
      // An ended message is not sent again (a long one would cross the webview channel twice).
      assert.deepEqual(
        changes.filter((c) => 'index' in c && c.index === 0),
        [
          { kind: 'entryAdded', index: 0, entry: { type: 'user', text: 'Hi', attachments: [], done: false } },
          { kind: 'messageEnded', index: 0 },
        ],
      );
    });

    it('starts a new entry when the messageId changes', () => {
      const { thread } = setup();
      thread.apply(agent('a', 'm1'));
      thread.apply(agent('b', 'm1'));
      thread.apply(agent('c', 'm2'));
      thread.apply(agent('d'));
      assert.equal(thread.entries.length, 2);
      assert.equal(msg(thread, 0).text, 'ab');
      assert.equal(msg(thread, 0).messageId, 'm1');
      assert.equal(msg(thread, 1).text, 'cd');
      assert.equal(msg(thread, 1).messageId, 'm2');
    });

    it('collects non-text blocks as attachments', () => {
      const { thread } = setup();
      thread.apply(agent('see '));
      thread.apply(agent({ type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' }));
      thread.apply(agent('this'));
      assert.equal(thread.entries.length, 1);
      assert.equal(msg(thread, 0).text, 'see this');
      assert.deepEqual(msg(thread, 0).attachments, [{ type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' }]);
    });

    it('emits copies that later chunks do not change', () => {
      const { thread, changes } = setup();
      thread.apply(agent('a'));
      thread.apply(agent('b'));
      const added = changes[0];
      assert.equal(added.kind === 'entryAdded' && (added.entry as MessageEntry).text, 'a');
    });
  });

  describe('tool calls', () => {
    const call = toolCall('t1', {
      title: 'Read a.ts',
      kind: 'read',
      status: 'pending',
      locations: [{ path: '/w/a.ts' }],
    });

    it('creates an entry with defaults', () => {
      const { thread } = setup();
      thread.apply(toolCall('t1', { title: 'Think' }));
      assert.deepEqual(thread.entries[0], {
        type: 'tool',
        toolCallId: 't1',
        title: 'Think',
        kind: 'other',
        status: 'pending',
        content: [],
        locations: [],
      });
    });

    it('merges only the fields an update carries; null means unchanged', () => {
      const { thread } = setup();
      thread.apply(call);
      thread.apply(toolCallUpdate('t1', { status: 'in_progress', title: null, locations: null }));
      assert.equal(tool(thread, 0).status, 'in_progress');
      assert.equal(tool(thread, 0).title, 'Read a.ts');
      assert.equal(tool(thread, 0).kind, 'read');
      assert.deepEqual(tool(thread, 0).locations, [{ path: '/w/a.ts' }]);
      const content = [{ type: 'content' as const, content: text('file body') }];
      thread.apply(toolCallUpdate('t1', { status: 'completed', content }));
      thread.apply(toolCallUpdate('t1', { content: [{ type: 'diff', path: '/w/a.ts', newText: 'x' }] }));
      assert.equal(tool(thread, 0).status, 'completed');
      assert.deepEqual(
        tool(thread, 0).content,
        [{ type: 'diff', path: '/w/a.ts', newText: 'x' }],
        'content is replaced, not appended',
      );
      assert.equal(thread.entries.length, 1);
    });

    it('keeps the diff a call shows when an update brings only its status', () => {
      const { thread } = setup();
      const diff = [{ type: 'diff' as const, path: '/w/a.ts', oldText: 'a', newText: 'b' }];
      thread.apply({ ...call, kind: 'edit', content: diff });
      thread.apply(toolCallUpdate('t1', { status: 'in_progress' }));
      thread.apply(toolCallUpdate('t1', { status: 'completed', content: null }));
      assert.equal(tool(thread, 0).status, 'completed');
      assert.deepEqual(tool(thread, 0).content, diff);
    });

    it('merges a resent tool_call into the existing entry', () => {
      const { thread, changes } = setup();
      thread.apply(call);
      thread.apply({ ...call, title: 'Read a.ts (1-20)', status: 'in_progress' });
      assert.equal(thread.entries.length, 1);
      assert.equal(tool(thread, 0).title, 'Read a.ts (1-20)');
      assert.equal(changes.at(-1)!.kind, 'entryChanged');
    });

    it('creates an entry for an update with an unknown toolCallId', () => {
      const { thread } = setup();
      thread.apply(toolCallUpdate('ghost', { status: 'completed' }));
      assert.deepEqual(thread.entries[0], {
        type: 'tool',
        toolCallId: 'ghost',
        title: 'Tool call',
        kind: 'other',
        status: 'completed',
        content: [],
        locations: [],
      });
    });

    it('maps a kind or status it does not know to a fallback instead of dropping the update', () => {
      const { thread } = setup();
      thread.apply({ ...call, kind: 'teleport' as never });
      thread.apply(toolCallUpdate('t1', { status: 'paused' as never, title: 'still here' }));
      assert.equal(tool(thread, 0).kind, 'other');
      assert.equal(tool(thread, 0).status, 'pending');
      assert.equal(tool(thread, 0).title, 'still here');
      assert.equal(thread.skipped, 0);
    });

    it('ends the open message, so text after a tool call is a new message', () => {
      const { thread } = setup();
      thread.apply(agent('Let me look.'));
      thread.apply(call);
      thread.apply(agent('Found it.'));
      assert.deepEqual(
        thread.entries.map((e) => e.type),
        ['agent', 'tool', 'agent'],
      );
      assert.equal(msg(thread, 0).done, true);
    });

    it('keeps the raw input and output, replaced only by an update that carries them', () => {
      const { thread } = setup();
      thread.apply({ ...call, rawInput: { path: '/w/a.ts' } });
      thread.apply(toolCallUpdate('t1', { status: 'completed', rawOutput: { lines: 20 } }));
      assert.deepEqual(tool(thread, 0).rawInput, { path: '/w/a.ts' });
      assert.deepEqual(tool(thread, 0).rawOutput, { lines: 20 });
      thread.apply(toolCallUpdate('t1', { rawOutput: 'done' }));
      assert.deepEqual(tool(thread, 0).rawInput, { path: '/w/a.ts' });
      assert.equal(tool(thread, 0).rawOutput, 'done');
    });

    it('keeps terminal output per terminal', () => {
      const { thread } = setup();
      thread.apply(call);
      assert.equal(thread.setTerminalOutput('t1', 'term1', { output: 'ok', truncated: false, exitCode: 0 }), true);
      assert.equal(thread.setTerminalOutput('nope', 'term1', { output: '', truncated: false }), false);
      assert.deepEqual(tool(thread, 0).terminalOutput, { term1: { output: 'ok', truncated: false, exitCode: 0 } });
    });
  });

  describe('plans', () => {
    const plan = (...names: string[]) => planUpdate(names);

    it('replaces the plan of the current turn in place', () => {
      const { thread, changes } = setup();
      thread.apply(user('do it'));
      thread.apply(plan('a'));
      thread.apply(agent('working'));
      thread.apply(plan('a', 'b'));
      assert.deepEqual(
        thread.entries.map((e) => e.type),
        ['user', 'plan', 'agent'],
      );
      assert.deepEqual(
        (thread.entries[1] as PlanEntryView).entries.map((e) => e.content),
        ['a', 'b'],
      );
      assert.equal(msg(thread, 2).done, false, 'an in-place plan update does not end the message');
      assert.deepEqual(changes.at(-1), { kind: 'entryChanged', index: 1, entry: thread.entries[1] });
    });

    it('starts a new plan entry after a new user message', () => {
      const { thread } = setup();
      thread.apply(plan('a'));
      thread.apply(user('next'));
      thread.apply(plan('b'));
      thread.addUserPrompt('third');
      thread.apply(plan('c'));
      assert.deepEqual(
        thread.entries.map((e) => e.type),
        ['plan', 'user', 'plan', 'user', 'plan'],
      );
      assert.deepEqual(
        (thread.entries[0] as PlanEntryView).entries.map((e) => e.content),
        ['a'],
      );
    });
  });

  describe('meta', () => {
    it('applies commands, mode, config options, title and usage', () => {
      const { thread, changes } = setup();
      thread.updateMeta({
        modes: {
          currentModeId: 'ask',
          availableModes: [
            { id: 'ask', name: 'Ask' },
            { id: 'code', name: 'Code' },
          ],
        },
      });
      thread.apply(commandsUpdate(['init']));
      thread.apply(modeUpdate('code'));
      thread.apply({
        sessionUpdate: 'config_option_update',
        configOptions: [
          { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
        ],
      });
      thread.apply(sessionInfoUpdate({ title: 'Fix the parser' }));
      thread.apply(usageUpdate(10, 100, { cost: { amount: 0.5, currency: 'USD' } }));
      assert.deepEqual(
        thread.meta.commands.map((c) => c.name),
        ['init'],
      );
      assert.equal(thread.meta.modes?.currentModeId, 'code');
      assert.equal(thread.meta.modes?.availableModes.length, 2);
      assert.equal(thread.meta.configOptions[0].id, 'model');
      assert.equal(thread.meta.title, 'Fix the parser');
      assert.deepEqual(thread.meta.usage, { used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } });
      assert.equal(thread.entries.length, 0);
      assert.ok(changes.every((c) => c.kind === 'metaChanged'));
      assert.equal(changes.length, 6);
    });

    it('keeps the title when absent, clears it on null; keeps the cost when absent, clears it on null', () => {
      const { thread, changes } = setup();
      thread.apply(sessionInfoUpdate({ title: 'T' }));
      thread.apply(sessionInfoUpdate({ updatedAt: '2025-01-01T00:00:00Z' }));
      assert.equal(thread.meta.title, 'T');
      assert.equal(changes.length, 1, 'an unchanged title fires nothing');
      thread.apply(sessionInfoUpdate({ title: null }));
      assert.equal(thread.meta.title, undefined);
      thread.apply(usageUpdate(1, 9, { cost: { amount: 1, currency: 'EUR' } }));
      thread.apply(usageUpdate(2, 9));
      assert.deepEqual(thread.meta.usage?.cost, { amount: 1, currency: 'EUR' });
      thread.apply(usageUpdate(3, 9, { cost: null }));
      assert.deepEqual(thread.meta.usage, { used: 3, size: 9 });
    });

    it('creates the mode state when a mode update comes first', () => {
      const { thread } = setup();
      thread.apply(modeUpdate('plan'));
      assert.deepEqual(thread.meta.modes, { currentModeId: 'plan', availableModes: [] });
    });
  });

  describe('notices and compaction', () => {
    it('adds notices, mapping an unknown severity to info', () => {
      const { thread } = setup();
      thread.apply(noticeUpdate('Rate limited', { severity: 'warning', description: 'Retrying' }));
      thread.apply(noticeUpdate('Hello', { severity: 'fyi', description: null }));
      assert.deepEqual(thread.entries, [
        { type: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying' },
        { type: 'notice', severity: 'info', title: 'Hello' },
      ]);
    });

    it('keeps one notice per compaction id, patched in place', () => {
      const { thread } = setup();
      thread.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' });
      thread.apply(agent('meanwhile'));
      thread.apply({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('Sum') });
      thread.apply({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('mary') });
      assert.deepEqual(thread.entries[0], {
        type: 'notice',
        severity: 'info',
        title: 'Compacting context…',
        description: 'Summary',
      });
      thread.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' });
      assert.deepEqual(thread.entries[0], {
        type: 'notice',
        severity: 'info',
        title: 'Context compacted',
        description: 'Summary',
      });
      thread.apply({
        sessionUpdate: 'compaction_update',
        compactionId: 'c1',
        status: 'failed',
        summary: [],
        error: 'too big',
      });
      assert.deepEqual(thread.entries[0], {
        type: 'notice',
        severity: 'error',
        title: 'Context compaction failed',
        description: 'too big',
      });
      thread.apply({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c2', content: text('x') });
      assert.equal(thread.entries.length, 3);
    });
  });

  describe('malformed updates', () => {
    const bad: unknown[] = [
      null,
      'agent_message_chunk',
      [],
      {},
      { sessionUpdate: 42 },
      { sessionUpdate: 'telepathy' },
      { sessionUpdate: 'agent_message_chunk' },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'hologram' } },
      { sessionUpdate: 'agent_message_chunk', content: text('x'), messageId: 7 },
      { sessionUpdate: 'tool_call', title: 'no id' },
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 3 },
      { sessionUpdate: 'tool_call_update', toolCallId: 't', content: 'nope' },
      { sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ type: 'diff', path: 'a' }] },
      { sessionUpdate: 'tool_call_update', toolCallId: 't', locations: [{ line: 1 }] },
      { sessionUpdate: 'plan', entries: [{ content: 'a' }] },
      { sessionUpdate: 'plan' },
      { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 1 }] },
      { sessionUpdate: 'current_mode_update' },
      { sessionUpdate: 'config_option_update', configOptions: {} },
      { sessionUpdate: 'session_info_update', title: 5 },
      { sessionUpdate: 'usage_update', used: '1', size: 2 },
      { sessionUpdate: 'usage_update', used: 1, size: 2, cost: { amount: 'x', currency: 'USD' } },
      { sessionUpdate: 'notice', severity: 'info' },
      { sessionUpdate: 'compaction_update', compactionId: 'c' },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: 'text' },
    ];

    it('skips each one with a counted log line and no change', () => {
      const { thread, logs, changes } = setup();
      for (const update of bad) assert.doesNotThrow(() => thread.apply(update));
      assert.equal(thread.skipped, bad.length);
      assert.equal(logs.length, bad.length);
      assert.match(logs[5], /unknown sessionUpdate "telepathy"/);
      assert.match(logs.at(-1)!, new RegExp(`\\(${bad.length} so far\\)`));
      assert.equal(thread.entries.length, 0);
      assert.equal(changes.length, 0);
    });

    it('keeps going after a bad update', () => {
      const { thread } = setup();
      thread.apply(agent('a'));
      thread.apply({ sessionUpdate: 'agent_message_chunk', content: 5 });
      thread.apply(agent('b'));
      assert.equal(msg(thread, 0).text, 'ab');
    });
  });

  describe('the turn', () => {
    it('does not duplicate a prompt the agent echoes, even after meta updates', () => {
      const { thread } = setup();
      thread.addUserPrompt('Fix the bug');
      thread.apply({ sessionUpdate: 'available_commands_update', availableCommands: [] });
      thread.apply(user('Fix the '));
      thread.apply(user('bug'));
      thread.apply(agent('On it.'));
      assert.deepEqual(
        thread.entries.map((e) => e.type),
        ['user', 'agent'],
      );
      assert.equal(msg(thread, 0).text, 'Fix the bug');
    });

    it('shows user chunks again once the agent has answered or the turn ended', () => {
      const { thread } = setup();
      thread.addUserPrompt('one');
      thread.apply(agent('ok'));
      thread.apply(user('from the agent'));
      thread.addUserPrompt('two');
      thread.markTurnEnded();
      thread.apply(user('replayed'));
      assert.deepEqual(
        thread.entries.map((e) => (e as MessageEntry).text),
        ['one', 'ok', 'from the agent', 'two', 'replayed'],
      );
    });

    it('marks the open message done at the end of a turn and leaves tool calls alone', () => {
      const { thread } = setup();
      thread.apply(toolCall('t', { title: 'Run', status: 'in_progress' }));
      thread.apply(agent('done'));
      thread.markTurnEnded();
      assert.equal(msg(thread, 1).done, true);
      assert.equal(tool(thread, 0).status, 'in_progress');
    });

    it('on interruption fails open tool calls, cancels pending permissions and adds a divider', () => {
      const { thread } = setup();
      thread.apply(toolCall('a', { title: 'A', status: 'completed' }));
      thread.apply(toolCall('b', { title: 'B', status: 'in_progress' }));
      thread.apply(toolCall('c', { title: 'C' }));
      thread.addPermission({
        requestId: 'r1',
        toolCallId: 'c',
        title: 'Allow C?',
        options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
      });
      thread.apply(agent('partial'));
      thread.markInterrupted();
      assert.deepEqual(
        thread.entries.slice(0, 3).map((e) => (e as ToolCallEntry).status),
        ['completed', 'failed', 'failed'],
      );
      assert.equal((thread.entries[3] as PermissionEntry).outcome, 'cancelled');
      assert.equal(msg(thread, 4).done, true);
      assert.deepEqual(thread.entries[5], { type: 'divider', text: 'Turn interrupted' });
      assert.equal(thread.resolvePermission('r1', { optionId: 'y' }), false);
    });

    it('leaves a call that an update completed or failed as it is when the turn is then cancelled', () => {
      const { thread } = setup();
      for (const id of ['done', 'broke', 'open']) thread.apply(toolCall(id, { title: id, status: 'in_progress' }));
      thread.apply(toolCallUpdate('done', { status: 'completed' }));
      thread.apply(toolCallUpdate('broke', { status: 'failed' }));
      thread.markInterrupted();
      assert.deepEqual(
        thread.entries.slice(0, 3).map((e) => (e as ToolCallEntry).status),
        ['completed', 'failed', 'failed'],
      );
      // Reopened by a later update, a call counts as open again.
      thread.apply(toolCallUpdate('done', { status: 'in_progress' }));
      thread.markInterrupted();
      assert.equal(tool(thread, 0).status, 'failed');
    });

    it('ends a turn the user stopped with "Stopped"', () => {
      const thread = new Thread();
      thread.apply(agent('partial'));
      thread.markInterrupted('Stopped');
      assert.deepEqual(thread.entries.at(-1), { type: 'divider', text: 'Stopped' });
    });

    it('resolves a permission once', () => {
      const { thread, changes } = setup();
      thread.addPermission({ requestId: 'r1', toolCallId: 't', title: 'Write?', options: [] });
      assert.equal(thread.resolvePermission('r1', { optionId: 'allow' }), true);
      assert.deepEqual((thread.entries[0] as PermissionEntry).outcome, { optionId: 'allow' });
      assert.equal(thread.resolvePermission('r1', 'cancelled'), false);
      assert.equal(thread.resolvePermission('unknown', 'cancelled'), false);
      assert.equal(changes.at(-1)!.kind, 'entryChanged');
    });

    it('adds dividers and notices from the client', () => {
      const { thread } = setup();
      assert.equal(thread.addDivider('Reconnected'), 0);
      assert.equal(thread.addNotice('warning', 'History is partial', '3 updates were dropped'), 1);
      assert.deepEqual((thread.entries[1] as NoticeEntry).description, '3 updates were dropped');
    });

    it('reports status changes', () => {
      const { thread, changes } = setup();
      thread.setStatus({ state: 'prompting' });
      assert.deepEqual(thread.status, { state: 'prompting' });
      assert.deepEqual(changes, [{ kind: 'statusChanged', status: { state: 'prompting' } }]);
    });

    it('reset drops the entries and the id maps, keeps meta and status', () => {
      const { thread, changes } = setup();
      thread.apply(sessionInfoUpdate({ title: 'T' }));
      thread.apply(toolCall('t', { title: 'Run' }));
      thread.apply(agent('x'));
      thread.reset();
      assert.equal(thread.entries.length, 0);
      assert.deepEqual(changes.at(-1), { kind: 'entriesCleared' });
      thread.apply(toolCallUpdate('t', { status: 'completed' }));
      assert.equal(thread.entries.length, 1);
      assert.equal(tool(thread, 0).title, 'Tool call');
      assert.equal(thread.meta.title, 'T');
    });

    it('snapshot is a copy', () => {
      const { thread } = setup();
      thread.apply(agent('a'));
      const snap = thread.snapshot();
      thread.apply(agent('b'));
      assert.equal((snap.entries[0] as MessageEntry).text, 'a');
      assert.equal(snap.entries.length, 1);
    });
  });
});
