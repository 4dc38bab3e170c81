import * as assert from 'node:assert/strict';
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { PermissionRequests } from '../../../src/chat/permissions';
import { Thread } from '../../../src/chat/thread';
import type { PermissionEntry, ToolCallEntry } from '../../../src/protocol/entries';

const path = '/home/dev/project/src/protected.ts';
const diff = {
  type: 'diff' as const,
  path,
  oldText: 'export const locked = true;\n',
  newText: 'export const locked = false;\n',
};
const options: RequestPermissionRequest['options'] = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

function request(toolCall: Record<string, unknown>): RequestPermissionRequest {
  return { sessionId: 's1', toolCall: toolCall as RequestPermissionRequest['toolCall'], options };
}

function setup() {
  const logs: string[] = [];
  const thread = new Thread({ log: (m) => logs.push(m) });
  return { thread, logs, permissions: new PermissionRequests(thread) };
}

describe('Permission requests in the thread', () => {
  it('merges what the request says about an announced tool call into its entry: diff, input, kind, locations', () => {
    const { thread, permissions } = setup();
    thread.apply({
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: `Edit ${path}`,
      kind: 'other',
      status: 'pending',
    });
    void permissions.request(
      request({
        toolCallId: 't1',
        kind: 'edit',
        content: [diff],
        rawInput: { path, unlock: true },
        locations: [{ path, line: 1 }],
      }),
      new AbortController().signal,
    );
    assert.deepEqual(
      thread.entries.map((e) => e.type),
      ['tool', 'permission'],
    );
    const tool = thread.entries[0] as ToolCallEntry;
    assert.deepEqual(tool.content, [diff], 'the user sees the diff they approve');
    assert.deepEqual(tool.rawInput, { path, unlock: true });
    assert.equal(tool.kind, 'edit');
    assert.deepEqual(tool.locations, [{ path, line: 1 }]);
    assert.equal(tool.title, `Edit ${path}`, 'fields the request does not carry stay');
    const card = thread.entries[1] as PermissionEntry;
    assert.equal(card.toolCallId, 't1');
    assert.equal(card.title, `Edit ${path}`, 'the card takes the announced title when the request has none');
  });

  it('creates the tool call before the card when the agent did not announce it', () => {
    const { thread, permissions } = setup();
    void permissions.request(
      request({ toolCallId: 't9', title: 'Run rm -rf build', kind: 'execute', rawInput: { command: 'rm -rf build' } }),
      new AbortController().signal,
    );
    assert.deepEqual(
      thread.entries.map((e) => e.type),
      ['tool', 'permission'],
    );
    const tool = thread.entries[0] as ToolCallEntry;
    assert.equal(tool.toolCallId, 't9');
    assert.equal(tool.kind, 'execute');
    assert.deepEqual(tool.rawInput, { command: 'rm -rf build' });
    assert.equal((thread.entries[1] as PermissionEntry).title, 'Run rm -rf build');
  });

  it('still shows the card when the tool call fields are malformed, and logs the skipped merge', () => {
    const { thread, logs, permissions } = setup();
    void permissions.request(request({ toolCallId: 't2', content: 'not a list' }), new AbortController().signal);
    assert.deepEqual(
      thread.entries.map((e) => e.type),
      ['permission'],
    );
    assert.equal((thread.entries[0] as PermissionEntry).title, 'The agent asks for permission');
    assert.equal(logs.length, 1);
  });

  it("answers each request exactly once: the user's choice, cancelAll, or the agent's abort", async () => {
    const { thread, permissions } = setup();
    const answers: RequestPermissionResponse[] = [];
    const abort = new AbortController();
    const a = permissions
      .request(request({ toolCallId: 'a' }), new AbortController().signal)
      .then((r) => answers.push(r));
    const b = permissions.request(request({ toolCallId: 'b' }), abort.signal).then((r) => answers.push(r));
    const c = permissions
      .request(request({ toolCallId: 'c' }), new AbortController().signal)
      .then((r) => answers.push(r));
    permissions.answer('perm-1', 'allow-once');
    abort.abort();
    permissions.cancelAll();
    permissions.answer('perm-1', 'reject');
    await Promise.all([a, b, c]);
    assert.deepEqual(answers, [
      { outcome: { outcome: 'selected', optionId: 'allow-once' } },
      { outcome: { outcome: 'cancelled' } },
      { outcome: { outcome: 'cancelled' } },
    ]);
    const cards = thread.entries.filter((e): e is PermissionEntry => e.type === 'permission');
    assert.deepEqual(
      cards.map((e) => e.outcome),
      [{ optionId: 'allow-once' }, 'cancelled', 'cancelled'],
    );
    assert.equal(permissions.size, 0);
  });
});
