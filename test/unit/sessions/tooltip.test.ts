import * as assert from 'node:assert/strict';
import { toRow } from '../../../src/sessions/rows';
import { escapeMarkdown, tooltipMarkdown } from '../../../src/sessions/tooltip';

/** The text a reader sees: backslash escapes removed. */
const unescape = (md: string) => md.replace(/\\(.)/g, '$1');

describe('tooltipMarkdown', () => {
  it('shows title, id, folder, cwd and the updated time', () => {
    const md = tooltipMarkdown(
      toRow({ sessionId: 'sess_1', cwd: '/home/me/project', title: 'Fix build', updatedAt: '2025-10-29T14:22:15Z' }),
      'project',
    );
    const text = unescape(md);
    assert.ok(text.includes('**Fix build**'));
    assert.ok(text.includes('sess_1'));
    assert.ok(text.includes('Folder: project'));
    assert.ok(text.includes('/home/me/project'));
    assert.ok(text.includes('2025-10-29T14:22:15.000Z'));
  });

  it('escapes Markdown and HTML in agent text', () => {
    const md = tooltipMarkdown(
      toRow({
        sessionId: 'id](javascript:alert(1))',
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
      toRow({
        sessionId: 's',
        cwd: '/p',
        _meta: { obj: { x: 1 }, list: [1], a: 1, b: true, c: 'multi\nline', d: null, e: 'e', f: 'f', g: 'g' },
      }),
      'p',
    );
    const text = unescape(md);
    assert.ok(text.includes('a: 1') && text.includes('b: true') && text.includes('c: multi line'));
    assert.ok(text.includes('e: e') && text.includes('f: f') && !text.includes('g: g'));
    assert.ok(!text.includes('obj') && !text.includes('list'));
  });

  it('omits the time when there is none', () => {
    assert.ok(!tooltipMarkdown(toRow({ sessionId: 's', cwd: '/p', updatedAt: 'nope' }), 'p').includes('Updated'));
  });

  it('escapeMarkdown leaves letters and spaces alone', () => {
    assert.equal(escapeMarkdown('plain text 123'), 'plain text 123');
    assert.equal(escapeMarkdown('a_b*c'), 'a\\_b\\*c');
  });
});
