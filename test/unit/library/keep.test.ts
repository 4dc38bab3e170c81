import * as assert from 'node:assert/strict';
import { Redactor } from '../../../src/agent/redact';
import {
  MAX_DIFF_TEXT,
  MAX_INLINE_DATA,
  MAX_RAW_JSON,
  capEntry,
  keepEntry,
  searchText,
  toolPaths,
} from '../../../src/library/keep';
import type { MessageEntry, ThreadEntry, ToolCallEntry } from '../../../src/protocol/entries';

const tool = (patch: Partial<ToolCallEntry> = {}): ToolCallEntry => ({
  type: 'tool',
  toolCallId: 't1',
  title: 'Edit src/a.ts',
  kind: 'edit',
  status: 'completed',
  content: [],
  locations: [],
  ...patch,
});
const message = (
  type: MessageEntry['type'],
  text: string,
  attachments: MessageEntry['attachments'] = [],
): MessageEntry => ({
  type,
  text,
  attachments,
  done: true,
});
const asIs = (json: string) => json;

describe('library: what is kept of an entry', () => {
  it('drops inline image data past the cap and says so, keeping small images whole', () => {
    const big = 'A'.repeat(MAX_INLINE_DATA + 4);
    const small = 'B'.repeat(100);
    const kept = capEntry(
      message('user', 'look', [
        { type: 'image', mimeType: 'image/png', data: big },
        { type: 'image', mimeType: 'image/png', data: small },
      ]),
    ) as MessageEntry;
    const [a, b] = kept.attachments as Array<{ data: string; _meta?: Record<string, unknown> }>;
    assert.equal(a!.data, '');
    assert.match(String(a!._meta?.['acp-client/notKept']), new RegExp(`${big.length} characters`));
    assert.equal(b!.data, small);
  });

  it('drops a large embedded blob and caps diffs and raw values of tool calls', () => {
    const kept = capEntry(
      tool({
        content: [
          { type: 'diff', path: '/p/a.ts', oldText: 'x'.repeat(MAX_DIFF_TEXT + 10), newText: 'short' },
          {
            type: 'content',
            content: { type: 'resource', resource: { uri: 'file:///b', blob: 'C'.repeat(MAX_INLINE_DATA + 1) } },
          },
        ],
        rawInput: { path: '/p/a.ts' },
        rawOutput: { text: 'y'.repeat(MAX_RAW_JSON) },
      }),
    ) as ToolCallEntry;
    const diff = kept.content[0] as { oldText: string; newText: string };
    assert.equal(diff.oldText.startsWith('x'.repeat(MAX_DIFF_TEXT)), true);
    assert.match(diff.oldText, /10 more characters not kept/);
    assert.equal(diff.newText, 'short');
    const blob = kept.content[1] as { content: { resource: { blob: string } } };
    assert.equal(blob.content.resource.blob, '');
    assert.deepEqual(kept.rawInput, { path: '/p/a.ts' });
    assert.match(String(kept.rawOutput), /^\(not kept: \d+ characters\)$/);
  });

  it('masks secrets as the log does: known values anywhere and values under secret-looking keys', () => {
    const redactor = new Redactor(['sk-live-123456']);
    const kept = keepEntry(
      tool({ title: 'Call API with sk-live-123456', rawInput: { apiKey: 'another-secret-value', url: 'https://x' } }),
      (json) => redactor.json(json),
    )!;
    assert.doesNotMatch(kept.json, /sk-live-123456|another-secret-value/);
    assert.match(kept.json, /\[redacted\]/);
    assert.match(kept.text, /Call API with \[redacted\]/);
    assert.equal((JSON.parse(kept.json) as ToolCallEntry).rawInput !== undefined, true);
  });

  it('keeps nothing of an entry whose redaction leaves text that is not JSON', () => {
    // A "secret" that spans the JSON syntax: masking it breaks the object.
    const redactor = new Redactor(['"type":"']);
    assert.equal(
      keepEntry(message('agent', 'hello'), (json) => redactor.json(json)),
      undefined,
    );
  });

  it('searches messages, tool titles and paths, notices; not thoughts, plans or tool output', () => {
    assert.equal(searchText(message('user', 'find the bug')), 'find the bug');
    assert.equal(searchText(message('thought', 'secret thinking')), '');
    assert.equal(
      searchText(
        tool({
          title: 'Edit',
          locations: [{ path: '/p/a.ts' }],
          content: [
            { type: 'diff', path: '/p/b.ts', newText: 'body text' },
            { type: 'content', content: { type: 'text', text: 'tool output' } },
          ],
        }),
      ),
      'Edit\n/p/a.ts\n/p/b.ts',
    );
    assert.equal(searchText({ type: 'plan', entries: [] }), '');
    const notice: ThreadEntry = { type: 'notice', severity: 'error', title: 'Failed', description: 'ENOENT' };
    assert.equal(searchText(notice), 'Failed\nENOENT');
    assert.equal(
      searchText(message('user', 'see', [{ type: 'resource_link', name: 'spec.md', uri: 'file:///p/spec.md' }])),
      'see\nspec.md\nfile:///p/spec.md',
    );
  });

  it('lists the paths a tool call touched once each: locations and diffs', () => {
    assert.deepEqual(
      toolPaths(
        tool({
          locations: [{ path: '/p/a.ts', line: 3 }, { path: '/p/a.ts' }, { path: '' }],
          content: [{ type: 'diff', path: '/p/b.ts', newText: '' }],
        }),
      ),
      ['/p/a.ts', '/p/b.ts'],
    );
    const kept = keepEntry(tool({ locations: [{ path: '/p/c.ts' }] }), asIs)!;
    assert.deepEqual(kept.paths, ['/p/c.ts']);
    assert.deepEqual(keepEntry(message('agent', 'no tool'), asIs)!.paths, []);
  });
});
