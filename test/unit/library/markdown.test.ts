import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
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
  let md: string;
  before(async () => {
    md = await transcriptMarkdown({ title: 'Fix\nthe bug', sessionId: 'abc', agentName: 'Ref', cwd: '/p' }, entries);
  });

  it('heads the document with the title on one line and what identifies the session', () => {
    assert.match(md, /^# Fix the bug\n\nAgent: Ref {2}\nSession: `abc` {2}\nFolder: `\/p`\n/);
  });

  it('keeps messages as written, quoted, in order', () => {
    const user = md.indexOf('### User\n\n> Fix the **bug**');
    const agent = md.indexOf('### Agent\n\n> Done. Use ```js``` blocks.');
    assert.ok(user > 0 && agent > user);
  });

  it('folds thoughts and tool calls into details, their titles escaped', () => {
    assert.match(md, /<details>\n<summary>Thinking<\/summary>\n\n> Look at a.ts first\n\n<\/details>/);
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

/** The exported document as a reader's renderer reads it: markdown-it with raw HTML on, as VS Code's preview and GitHub take it. */
describe('library: Markdown export, read as a reader reads it', () => {
  const reader = new MarkdownIt({ html: true });
  const agent = (text: string): ThreadEntry => ({ type: 'agent', text, attachments: [], done: true });
  const user = (text: string): ThreadEntry => ({ type: 'user', text, attachments: [], done: true });
  const exported = (entries: ThreadEntry[]) => transcriptMarkdown({ title: 't', sessionId: 's' }, entries);

  /** The turn headings at the top level of the document, in order: what a reader takes for the turns. */
  function turns(doc: string): string[] {
    const tokens = reader.parse(doc, {});
    return tokens.flatMap((t, i) =>
      t.type === 'heading_open' && t.tag === 'h3' && t.level === 0 ? [tokens[i + 1]!.content] : [],
    );
  }
  /** Raw HTML and images a renderer would act on, other than the export's own `<details>` and `<summary>`. */
  function active(doc: string): string[] {
    return reader
      .parse(doc, {})
      .flatMap((t) => [
        ...(t.type === 'html_block' && !/^(<details>\n<summary>[^<]*<\/summary>|<\/details>)\n?$/.test(t.content)
          ? [t.content]
          : []),
        ...(t.children ?? [])
          .filter((c) => c.type === 'html_inline' || c.type === 'image')
          .map((c) => c.content || c.type),
      ]);
  }

  it('an unclosed code fence ends with its message: every later entry reads as before', async () => {
    const doc = await exported([
      agent('Here:\n\n```js\nconst a = 1;'),
      user('Next question'),
      agent('~~~\nunclosed tildes'),
      agent('Answer'),
    ]);
    assert.deepEqual(turns(doc), ['Agent', 'User', 'Agent', 'Agent']);
    const html = reader.render(doc);
    assert.match(html, /<code class="language-js">const a = 1;\n<\/code>/, 'the code still shows as code');
    assert.match(html, /<h3>User<\/h3>\n<blockquote>\n<p>Next question<\/p>/);
    assert.match(html, /<h3>Agent<\/h3>\n<blockquote>\n<p>Answer<\/p>/);
  });

  it('agent text cannot forge a turn: a "### User" in it stays inside its quote', async () => {
    const doc = await exported([
      agent('Sure.\n\n### User\n\nDelete everything\n\n### Agent\n\nDone\n\nUser\n===='),
      user('Thanks'),
      { type: 'thought', text: '</details>\n\n### User\n\nforged from a thought', attachments: [], done: true },
      {
        type: 'tool',
        toolCallId: 't',
        title: 'x\n\n### User\n\nforged from a title',
        kind: 'other',
        status: 'completed',
        content: [{ type: 'diff', path: 'a`\n\n### User\n\nb', newText: 'x' }],
        locations: [{ path: '/p\n\n### User' }],
      },
      { type: 'plan', entries: [{ content: 'step\n\n### User\n\nforged', priority: 'low', status: 'pending' }] },
      { type: 'notice', severity: 'error', title: 'failed\n\n### User', description: 'line\n\n### User\n<b>x</b>' },
      {
        type: 'permission',
        requestId: 'r1',
        toolCallId: 't',
        title: 'run\n\n### User',
        options: [],
        outcome: 'cancelled',
      },
    ]);
    assert.deepEqual(turns(doc), ['Agent', 'User']);
    assert.deepEqual(active(doc), []);
    assert.equal(reader.render(doc).match(/<details>/g)?.length, 2, 'the thought and the tool call, each whole');
  });

  it('raw HTML in agent text shows as text and reaches no further than its entry', async () => {
    const doc = await exported([
      agent('<!-- hides the rest'),
      agent('</details></blockquote><img src="https://tracker.example/p.png"> and <b>bold</b>'),
      agent('<div>\n\n    <img src=x>\n\n<!-- x -->\n    <img src=y>'),
      user('<script>alert(1)</script>'),
      agent('Still here'),
    ]);
    assert.deepEqual(active(doc), []);
    assert.deepEqual(turns(doc), ['Agent', 'Agent', 'Agent', 'User', 'Agent']);
    const html = reader.render(doc);
    assert.ok(!/<img|<script|<!--|<b>/.test(html), html);
    assert.match(html, /&lt;b&gt;bold&lt;\/b&gt;/, 'the markup shows as written');
    assert.match(html, /<p>Still here<\/p>/);
  });

  it('keeps code as written: "<" in code spans and blocks, and in plain text, shows as typed', async () => {
    const text =
      'Use `Array<string>` and ``a ` <b>`` here; a < b.\n\n```html\n<div class="x">![i](https://t.example/i.png)</div>\n```\n\n    <indented>';
    const doc = await exported([agent(text)]);
    assert.deepEqual(active(doc), []);
    const html = reader.render(doc);
    assert.match(html, /<code>Array&lt;string&gt;<\/code>/);
    assert.match(html, /<code>a ` &lt;b&gt;<\/code>/);
    assert.match(html, /a &lt; b\./);
    assert.match(
      html,
      /<code class="language-html">&lt;div class=&quot;x&quot;&gt;!\[i\]\(https:\/\/t.example\/i.png\)&lt;\/div&gt;\n<\/code>/,
    );
    assert.match(html, /<pre><code>&lt;indented&gt;\n<\/code><\/pre>/);
  });

  it('turns images into links, so reading the document fetches nothing', async () => {
    const doc = await exported([
      agent(
        '![pixel](https://tracker.example/a.png) and ![ref][r] and <img src="//x.example/b.png">\n\n[r]: https://tracker.example/r.png',
      ),
      agent('| a | b |\n| - | - |\n| ![c](https://t.example/c.png) | `x | <img src=y>` |'),
      agent('| a |\n| - |\n| \\![escaped](https://t.example/e.png) \\\\![d](https://t.example/d.png) |'),
    ]);
    assert.deepEqual(active(doc), []);
    const html = reader.render(doc);
    assert.match(
      html,
      /!<a href="https:\/\/tracker.example\/a.png">pixel<\/a>/,
      'marked with its "!", the address kept as a link',
    );
    assert.ok(!/<img/.test(html));
  });
});
