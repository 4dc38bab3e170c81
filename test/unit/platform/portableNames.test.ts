import * as assert from 'node:assert/strict';
import { unportableName } from '../../../src/platform/portableNames';

describe('Names Windows reads as another file or a device', () => {
  it('refuses trailing dots and spaces, saying what Windows would write instead', () => {
    assert.match(
      unportableName('tasks.json.') ?? '',
      /ends with a dot, which Windows drops \("tasks\.json" would be written\)/,
    );
    assert.match(unportableName('tasks.json ') ?? '', /ends with a space/);
    assert.match(unportableName('tasks.json. .') ?? '', /"tasks\.json" would be written/);
    assert.ok(unportableName('.vscode.'));
  });

  it('refuses NTFS streams, backslashes and the characters no Windows name holds', () => {
    assert.match(unportableName('tasks.json::$DATA') ?? '', /NTFS stream/);
    assert.match(unportableName('config:x') ?? '', /NTFS stream/);
    assert.match(unportableName('.vscode\\tasks.json') ?? '', /folder separator/);
    for (const name of ['a<b', 'a>b', 'a"b', 'a|b', 'a?b', 'a*b', 'a\u0001b', 'a\u001fb'])
      assert.match(unportableName(name) ?? '', /no Windows file name can hold/, name);
  });

  it('refuses device names in any case and with any extension', () => {
    for (const name of [
      'CON',
      'nul',
      'Aux',
      'PRN',
      'COM1',
      'com9',
      'LPT1',
      'lpt¹',
      'COM²',
      'nul.txt',
      'NUL .txt',
      'con.tar.gz',
      'CONIN$',
      'conout$.log',
    ])
      assert.match(unportableName(name) ?? '', /device name/, name);
  });

  it('lets ordinary names through, including ones that only start like a device', () => {
    for (const name of [
      'tasks.json',
      '.vscode',
      '.git',
      'console.log',
      'CONFIG',
      'nul_test.ts',
      'com10',
      'lpt',
      'aux-data',
      'a.b.c',
      '.env',
      'ünïcode',
      'name with spaces.md',
    ])
      assert.equal(unportableName(name), undefined, name);
  });
});
