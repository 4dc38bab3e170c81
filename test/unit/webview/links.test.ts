import * as assert from 'node:assert/strict';
import { classifyHref } from '../../../src/webview/links';

describe('link targets', () => {
  it('sends web and vscode links to the host as links', () => {
    for (const href of [
      'https://example.com/a?b#c',
      'http://x',
      'mailto:a@b.c',
      'vscode://acp-tools.acp-client/open',
      'HTTPS://EXAMPLE.COM',
    ]) {
      assert.deepEqual(classifyHref(href), { kind: 'link', href });
    }
  });

  it('opens file URIs and paths as locations, with a line when given', () => {
    assert.deepEqual(classifyHref('file:///home/a.ts#L12'), { kind: 'location', path: 'file:///home/a.ts', line: 12 });
    assert.deepEqual(classifyHref('src/a.ts'), { kind: 'location', path: 'src/a.ts' });
    assert.deepEqual(classifyHref('src/a.ts#L42'), { kind: 'location', path: 'src/a.ts', line: 42 });
    assert.deepEqual(classifyHref('/abs/my%20file.ts:7:3'), { kind: 'location', path: '/abs/my file.ts', line: 7 });
    assert.deepEqual(classifyHref('C:\\work\\a.ts'), { kind: 'location', path: 'C:\\work\\a.ts' });
  });

  it('ignores anchors, empty links and every other scheme', () => {
    for (const href of [
      null,
      '',
      '  ',
      '#top',
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'blob:x',
      'chrome://settings',
      'command:workbench.action.quit',
    ]) {
      assert.equal(classifyHref(href), undefined, String(href));
    }
  });
});
