import * as assert from 'node:assert/strict';
import { diffLines, splitLines, withContext } from '../../../src/webview/lineDiff';

const show = (oldText: string, newText: string): string[] => diffLines(oldText, newText).map((l) => `${l.op}${l.text}`);

describe('line diff', () => {
  it('splits lines without a phantom last line', () => {
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('a\r\nb\n'), ['a', 'b']);
    assert.deepEqual(splitLines('a\n\n'), ['a', '']);
  });

  it('marks added, removed and kept lines', () => {
    assert.deepEqual(show('a\nb\nc\n', 'a\nB\nc\nd\n'), [' a', '-b', '+B', ' c', '+d']);
    assert.deepEqual(show('', 'new\n'), ['+new']);
    assert.deepEqual(show('old\n', ''), ['-old']);
    assert.deepEqual(show('x\ny\n', 'x\ny\n'), [' x', ' y']);
  });

  it('finds the longest common subsequence in the middle', () => {
    assert.deepEqual(show('1\na\nb\nc\n2\n', '1\nb\nX\nc\n2\n'), [' 1', '-a', ' b', '+X', ' c', ' 2']);
  });

  it('falls back to remove-then-add for huge middles', () => {
    const a = Array.from({ length: 700 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 700 }, (_, i) => `b${i}`).join('\n');
    const lines = diffLines(a, b);
    assert.equal(lines.length, 1400);
    assert.equal(lines[0].op, '-');
    assert.equal(lines[1399].op, '+');
  });

  it('keeps three lines of context and counts the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const after = [...before];
    after[10] = 'changed';
    const rows = withContext(diffLines(before.join('\n'), after.join('\n')));
    assert.deepEqual(rows[0], { op: 'skip', count: 7 });
    assert.deepEqual(rows.filter((r) => r.op !== 'skip').length, 8);
    assert.deepEqual(rows[rows.length - 1], { op: 'skip', count: 6 });
  });
});
