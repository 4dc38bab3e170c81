import assert from 'node:assert/strict';
import { namedPaths, ranCommands } from '../../../src/checkpoints/toolPaths';
import { relativeKey } from '../../../src/platform/pathKey';
import { promptDigest } from '../../../src/checkpoints/turns';
import type { ToolCallEntry } from '../../../src/protocol/entries';

const tool = (over: Partial<ToolCallEntry>): ToolCallEntry => ({
  type: 'tool',
  toolCallId: 't',
  title: 't',
  kind: 'edit',
  status: 'completed',
  content: [],
  locations: [],
  ...over,
});

describe('Files a turn’s tool calls named', () => {
  it('takes locations, diff paths and path-like raw input, inside the folder only', () => {
    const named = namedPaths(
      [
        tool({ locations: [{ path: '/w/src/a.ts' }, { path: '/elsewhere/x.ts' }] }),
        tool({ content: [{ type: 'diff', path: '/w/src/b.ts', newText: 'b' }] }),
        tool({ rawInput: { file_path: '/w/c.ts', edits: [{ filePath: 'rel/d.ts' }], command: 'rm /w/e.ts' } }),
        tool({ rawInput: { from: '/w/old.ts', to: '/w/new.ts', paths: ['/w/f.ts', '/w/../g.ts'] } }),
      ],
      ['/w'],
      'linux',
    );
    assert.deepEqual([...named].sort(), ['c.ts', 'f.ts', 'new.ts', 'old.ts', 'rel/d.ts', 'src/a.ts', 'src/b.ts']);
  });

  it('matches Windows paths without case, under either spelling of the folder', () => {
    const named = namedPaths(
      [tool({ locations: [{ path: 'C:\\Work\\Src\\A.ts' }] })],
      ['c:\\work', 'D:\\real'],
      'win32',
    );
    assert.deepEqual([...named], ['src/a.ts']);
    assert.equal(relativeKey('Src/A.ts', 'win32'), 'src/a.ts');
    assert.equal(relativeKey('Src/A.ts', 'linux'), 'Src/A.ts');
  });

  it('knows a turn ran commands from an execute tool or terminal content', () => {
    assert.equal(ranCommands([tool({ kind: 'edit' })]), false);
    assert.equal(ranCommands([tool({ kind: 'execute' })]), true);
    assert.equal(ranCommands([tool({ kind: 'other', content: [{ type: 'terminal', terminalId: 'x' }] })]), true);
  });

  it('digests a prompt the same way every time', () => {
    assert.equal(promptDigest('fix the parser'), promptDigest('fix the parser'));
    assert.notEqual(promptDigest('fix the parser'), promptDigest('fix the parser.'));
    assert.match(promptDigest(''), /^[0-9a-f]{16}$/);
  });
});
