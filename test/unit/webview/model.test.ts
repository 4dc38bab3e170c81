import * as assert from 'node:assert/strict';
import { readLinks, ThreadModel } from '../../../src/webview/model';

const caps = {
  canPrompt: true,
  canCancel: true,
  canQueue: false,
  canSetMode: false,
  canSetConfig: false,
  agentName: 'A',
  agentId: 'a',
  sessionId: 's',
  cwd: '/',
  history: 'new' as const,
};

describe('webview thread model', () => {
  it('applies changes in order and reports what they touched', () => {
    const model = new ThreadModel();
    model.reset({
      thread: {
        entries: [{ type: 'user', text: 'hi', attachments: [], done: true }],
        meta: { commands: [], configOptions: [] },
        status: { state: 'idle' },
      },
      capabilities: caps,
      queue: { items: [], paused: false },
    });
    const touched = model.apply([
      { kind: 'entryAdded', index: 1, entry: { type: 'agent', text: 'Hel', attachments: [], done: false } },
      { kind: 'textAppended', index: 1, text: 'lo\n\nWor' },
      { kind: 'entryChanged', index: 0, entry: { type: 'user', text: 'hi!', attachments: [], done: true } },
      { kind: 'entryAdded', index: 9, entry: { type: 'divider', text: 'out of order: dropped' } },
      { kind: 'statusChanged', status: { state: 'prompting' } },
    ]);
    assert.equal(touched.added, 1);
    assert.deepEqual([...touched.replaced], [0]);
    assert.deepEqual([...touched.appended], []);
    assert.equal(touched.status, true);
    assert.equal(model.entries.length, 2);
    assert.equal((model.entries[1] as { text: string }).text, 'Hello\n\nWor');
    assert.equal(model.streams.get(1)?.stableEnd, 'Hello\n\n'.length);

    const next = model.apply([
      { kind: 'textAppended', index: 1, text: 'ld' },
      { kind: 'entryChanged', index: 1, entry: { type: 'agent', text: 'Hello\n\nWorld', attachments: [], done: true } },
    ]);
    assert.deepEqual([...next.appended], [1]);
    assert.deepEqual([...next.replaced], [1]);
    assert.equal(model.streams.has(1), false, 'a finished message has no splitter');

    // A message that ends without being sent again keeps its text and its splitter's work.
    model.apply([{ kind: 'entryAdded', index: 2, entry: { type: 'agent', text: 'Lo', attachments: [], done: false } }]);
    const stream = model.streams.get(2);
    const ended = model.apply([
      { kind: 'textAppended', index: 2, text: 'ng' },
      { kind: 'messageEnded', index: 2 },
      { kind: 'messageEnded', index: 0 },
    ]);
    assert.deepEqual([...ended.replaced], [2]);
    assert.deepEqual(model.entries[2], { type: 'agent', text: 'Long', attachments: [], done: true });
    assert.equal(model.streams.has(2), false);
    assert.equal(model.finished.get(2), stream, 'its splitter is kept to finish the rendering in place');
  });

  it('drops every entry on entriesCleared; entries added after it in the batch are new', () => {
    const model = new ThreadModel();
    const entries = [0, 1, 2].map((i) => ({ type: 'agent' as const, text: `old ${i}`, attachments: [], done: i < 2 }));
    model.reset({
      thread: { entries, meta: { commands: [], configOptions: [] }, status: { state: 'idle' } },
      capabilities: caps,
      queue: { items: [], paused: false },
    });
    assert.equal(model.streams.size, 1);
    const touched = model.apply([
      { kind: 'textAppended', index: 2, text: ' more' },
      { kind: 'entriesCleared' },
      { kind: 'entryAdded', index: 0, entry: { type: 'user', text: 'new', attachments: [], done: true } },
    ]);
    assert.equal(touched.cleared, true);
    assert.equal(touched.added, 1);
    assert.deepEqual([...touched.replaced], []);
    assert.deepEqual([...touched.appended], []);
    assert.deepEqual(
      model.entries.map((e) => (e as { text: string }).text),
      ['new'],
    );
    assert.equal(model.streams.size, 0);
  });

  it('takes the header links of a snapshot, well-formed ones only', () => {
    const model = new ThreadModel();
    const link = { direction: 'from' as const, agentId: 'a', sessionId: 's0', text: 'Continued from A — Cart' };
    model.reset({
      thread: { entries: [], meta: { commands: [], configOptions: [] }, status: { state: 'idle' } },
      capabilities: caps,
      queue: { items: [], paused: false },
      links: [link, { ...link, direction: 'sideways' }, { ...link, text: 5 }, null] as never,
    });
    assert.deepEqual(model.links, [link]);
    assert.deepEqual(readLinks('not a list'), []);
    assert.equal(readLinks(Array.from({ length: 50 }, () => link)).length, 20);
  });
});
