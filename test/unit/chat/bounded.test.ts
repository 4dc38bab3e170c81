import * as assert from 'node:assert/strict';
import { boundedValue, CUT_MARK, MAX_VALUE_DEPTH } from '../../../src/chat/bounded';
import { showableChanges, showableEntries, UNSHOWN_ENTRY } from '../../../src/chat/showable';
import { Thread } from '../../../src/chat/thread';
import type { ThreadChange, ThreadEntry, ToolCallEntry } from '../../../src/protocol/entries';
import { agentChunk } from '../../support/builders/updates';

/** `{"a":{"a":…1…}}`, `depth` levels, built from text as an agent sends it (JSON.stringify cannot make it). */
const nested = (depth: number): Record<string, unknown> => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

function depthOf(v: unknown): number {
  let depth = 0;
  while (typeof v === 'object' && v !== null) {
    v = (v as { a?: unknown }).a;
    depth++;
  }
  return depth;
}

describe('What the thread keeps of free-form agent JSON', () => {
  it('keeps a tool call whose raw input is nested 20,000 deep, cut so that every message to the panel serialises', () => {
    const thread = new Thread();
    const changes: ThreadChange[] = [];
    thread.onDidChange((c) => changes.push(...c));
    thread.apply({
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Nested input',
      kind: 'other',
      status: 'completed',
      rawInput: nested(20_000),
      rawOutput: nested(20_000),
    });
    thread.apply(agentChunk('after it'));
    const snapshot = JSON.stringify(thread.snapshot());
    JSON.stringify(changes);
    assert.ok(snapshot.includes('after it'), 'the rest of the chat is there');
    const tool = thread.entries[0] as ToolCallEntry;
    assert.equal(tool.title, 'Nested input');
    assert.equal(depthOf(tool.rawInput), MAX_VALUE_DEPTH);
    assert.ok(snapshot.includes(`"a":"${CUT_MARK}"`), 'the cut is marked');
  });

  it('bounds _meta anywhere in an update, and session-wide state and permission options too', () => {
    const thread = new Thread();
    thread.apply({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'hi', _meta: { deep: nested(20_000) } },
    });
    thread.apply({
      sessionUpdate: 'available_commands_update',
      availableCommands: [{ name: 'x', description: 'y', _meta: nested(20_000) }],
    });
    thread.updateMeta({
      configOptions: [{ id: 'm', name: 'M', type: 'boolean', currentValue: true, _meta: nested(20_000) }],
    });
    thread.addPermission({
      requestId: 'p',
      toolCallId: '',
      title: 'Allow?',
      options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once', _meta: nested(20_000) }],
    });
    JSON.stringify(thread.snapshot());
  });

  it('keeps a value within the bounds as it is, and cuts a long string and a long list', () => {
    const small = { command: 'ls', args: ['-la'], nested: { a: { b: [1, 2, { c: true }] } } };
    assert.equal(boundedValue(small), small, 'not copied');
    const long = boundedValue({ text: 'x'.repeat(100), list: Array.from({ length: 100 }, (_, i) => i) }, 10, 60) as {
      text: string;
      list?: unknown[];
    };
    assert.ok(long.text.length <= 61 && long.text.endsWith(CUT_MARK), long.text);
    const proto = boundedValue(
      JSON.parse('{"__proto__":{"polluted":1},"x":"y".repeat(1)}'.replace('"y".repeat(1)', `"${'y'.repeat(300)}"`)),
      5,
      50,
    );
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    assert.ok(Object.prototype.hasOwnProperty.call(proto, '__proto__'), 'a key named __proto__ stays data');
  });
});

describe('What the panel is sent when an entry cannot be serialised', () => {
  it('replaces only the entries that cannot be sent, in a snapshot and in changes', () => {
    const ok: ThreadEntry = { type: 'divider', text: 'fine' };
    const bad = {
      type: 'tool',
      toolCallId: 'x',
      title: 't',
      kind: 'other',
      status: 'completed',
      content: [],
      locations: [],
      rawInput: 1n,
    } as unknown as ThreadEntry;
    assert.deepEqual(showableEntries([ok, bad]), [ok, UNSHOWN_ENTRY]);
    const changes: ThreadChange[] = [
      { kind: 'entryAdded', index: 0, entry: bad },
      { kind: 'entryChanged', index: 1, entry: ok },
      { kind: 'textAppended', index: 2, text: 'more' },
    ];
    const shown = showableChanges(changes);
    JSON.stringify(shown);
    assert.deepEqual(shown[0], { kind: 'entryAdded', index: 0, entry: UNSHOWN_ENTRY });
    assert.equal(shown[1], changes[1]);
    assert.equal(shown[2], changes[2]);
  });
});
