import * as assert from 'node:assert/strict';
import { escapeMarkdown, metaLabel, tooltipMarkdown, tooltipTime } from '../../../src/sessions/tooltip';
import { sessionRow } from '../../support/builders/sessions';

/** The text a reader sees: backslash escapes removed. */
const unescape = (md: string) => md.replace(/\\(.)/g, '$1');

describe('tooltipMarkdown', () => {
  it('shows title, id, folder, cwd and the updated time in one format', () => {
    const md = tooltipMarkdown(
      sessionRow('sess_1', { cwd: '/home/me/project', title: 'Fix build', updatedAt: '2025-10-29T14:22:15Z' }),
      'project',
    );
    const text = unescape(md);
    assert.ok(text.includes('**Fix build**'));
    assert.ok(text.includes('sess_1'));
    assert.ok(text.includes('Folder: project — /home/me/project'));
    assert.ok(text.includes(`Updated ${tooltipTime(Date.parse('2025-10-29T14:22:15Z'))}`));
    assert.ok(!text.includes('2025-10-29T'), 'no second, raw time format');
  });

  it('escapes Markdown and HTML in agent text', () => {
    const md = tooltipMarkdown(
      sessionRow('id](javascript:alert(1))', {
        cwd: '/p/<img src=x onerror=alert(1)>',
        title: '[click](https://evil.example) **bold** <script>x</script> `code` # h',
        _meta: { 'a[b]': '![img](http://x/y.png)' },
      }),
      '*folder*',
    );
    assert.ok(!/(^|[^\\])[[\]<>`*!]/.test(md.replace(/^\*\*|\*\*$/gm, '')), md);
    assert.ok(unescape(md).includes('[click](https://evil.example)'));
  });

  it('shows at most five primitive _meta values, sanitised', () => {
    const md = tooltipMarkdown(
      sessionRow('s', {
        _meta: { obj: { x: 1 }, list: [1], a: 1, b: true, c: 'multi\nline', d: null, e: 'e', f: 'f', g: 'g' },
      }),
      'p',
    );
    const text = unescape(md);
    assert.ok(text.includes('A: 1') && text.includes('B: yes') && text.includes('C: multi line'));
    assert.ok(text.includes('E: e') && text.includes('F: f') && !text.includes('G: g'));
    assert.ok(!text.includes('obj') && !text.includes('list'));
  });

  it('writes _meta keys as words, never the raw key', () => {
    assert.equal(metaLabel('messageCount'), 'Message count');
    assert.equal(metaLabel('message_count'), 'Message count');
    assert.equal(metaLabel('gitBranch'), 'Git branch');
    const text = unescape(tooltipMarkdown(sessionRow('s', { _meta: { messageCount: 12 } }), 'p'));
    assert.ok(text.includes('Message count: 12') && !text.includes('messageCount'), text);
  });

  it('omits the time when there is none', () => {
    assert.ok(!tooltipMarkdown(sessionRow('s', { updatedAt: 'nope' }), 'p').includes('Updated'));
  });

  it('escapeMarkdown leaves letters and spaces alone', () => {
    assert.equal(escapeMarkdown('plain text 123'), 'plain text 123');
    assert.equal(escapeMarkdown('a_b*c'), 'a\\_b\\*c');
  });

  it("says a session's lineage: the other ids it goes by, and the session it was forked from by its title", () => {
    const row = sessionRow('s2', { cwd: '/p', aliases: ['a1', 'a2'], forkedFrom: 's1', _meta: { forkedFrom: 's1' } });
    const text = unescape(tooltipMarkdown(row, 'p', { forkedFrom: 'Plan the release' }));
    assert.ok(text.includes('Also known as: a1, a2'));
    assert.ok(text.includes('Forked from: Plan the release'));
    assert.equal(text.split('Forked from').length, 2, 'said once, not again from _meta');
    const many = sessionRow('s3', { cwd: '/p', aliases: ['1', '2', '3', '4', '5', '6', '7'], forkedFrom: 'gone' });
    const t2 = unescape(tooltipMarkdown(many, 'p'));
    assert.ok(t2.includes('Also known as: 1, 2, 3, 4, 5 and 2 more'));
    assert.ok(t2.includes('Forked from: gone'), 'the id when the session is not listed');
  });
});
