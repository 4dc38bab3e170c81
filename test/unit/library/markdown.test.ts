import * as assert from 'node:assert/strict';
import { fence, transcriptMarkdown, unifiedDiff } from '../../../src/library/markdown';
import type { ThreadEntry } from '../../../src/protocol/entries';

describe('library: Markdown export', () => {
  const entries: ThreadEntry[] = [
    { type: 'user', text: 'Fix the **bug**', attachments: [], done: true },
    { type: 'thought', text: 'Look at a.ts first', attachments: [], done: true },
    {
      type: 'tool',
      toolCallId: 't1',
      title: 'Edit <a.ts>',
      kind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: '/p/a.ts', oldText: 'one\ntwo\nthree\n', newText: 'one\n2\nthree\n' }],
      locations: [{ path: '/p/a.ts' }],
    },
    {
      type: 'tool',
      toolCallId: 't2',
      title: 'Run tests',
      kind: 'execute',
      status: 'failed',
      content: [{ type: 'terminal', terminalId: 'term' }],
      locations: [],
      terminalOutput: { term: { output: 'FAIL 1 test\n', truncated: false, exitCode: 1 } },
    },
    { type: 'agent', text: 'Done. Use ```js``` blocks.', attachments: [], done: true },
    { type: 'plan', entries: [{ content: 'Edit', priority: 'high', status: 'completed' }] },
    { type: 'divider', text: 'Turn interrupted' },
  ];
  const md = transcriptMarkdown({ title: 'Fix\nthe bug', sessionId: 'abc', agentName: 'Ref', cwd: '/p' }, entries);

  it('heads the document with the title on one line and what identifies the session', () => {
    assert.match(md, /^# Fix the bug\n\nAgent: Ref {2}\nSession: `abc` {2}\nFolder: `\/p`\n/);
  });

  it('keeps messages as written, in order', () => {
    const user = md.indexOf('### User\n\nFix the **bug**');
    const agent = md.indexOf('### Agent\n\nDone. Use ```js``` blocks.');
    assert.ok(user > 0 && agent > user);
  });

  it('folds thoughts and tool calls into details, their titles escaped', () => {
    assert.match(md, /<details>\n<summary>Thinking<\/summary>\n\nLook at a.ts first\n\n<\/details>/);
    assert.match(md, /<summary>Tool: Edit &lt;a.ts&gt; \(completed\)<\/summary>/);
    assert.match(md, /<summary>Tool: Run tests \(failed\)<\/summary>\n\n```console\nFAIL 1 test\n```\n\nExit code 1/);
  });

  it('shows a diff as a fenced diff block with its header and context', () => {
    assert.ok(md.includes('```diff\n--- a//p/a.ts\n+++ b//p/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n```'), md);
  });

  it('diffs a new file as all added, and leaves out far context', () => {
    assert.equal(
      unifiedDiff('n.ts', null, 'a\nb\n'),
      '```diff\n--- /dev/null\n+++ b/n.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n```',
    );
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const diff = unifiedDiff('f', old, old.replace('l10', 'ten'));
    assert.match(diff, /@@ -8,7 \+8,7 @@\n l7\n l8\n l9\n-l10\n\+ten\n l11\n l12\n l13\n```$/);
  });

  it('plans as checklists, dividers as rules', () => {
    assert.match(md, /\*\*Plan\*\*\n\n- \[x\] Edit/);
    assert.match(md, /---\n\n\*Turn interrupted\*/);
  });

  it('fences code with more backticks than it holds', () => {
    assert.equal(fence('a ``` b'), '````\na ``` b\n````');
    assert.equal(fence('x', 'json'), '```json\nx\n```');
  });
});
