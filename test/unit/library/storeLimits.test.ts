// Every field the library keeps has a size: agents send what they like (twenty titles of 10 MB
// once made each search keystroke take seconds and carry hundreds of megabytes to the host).
import * as assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_LOCATIONS, MAX_MESSAGE_TEXT } from '../../../src/library/keep';
import { MAX_TIME, MAX_TITLE_UNITS } from '../../../src/library/limits';
import { FILE_NAME } from '../../../src/library/schema';
import { LibraryStore } from '../../../src/library/store';
import type { ThreadEntry } from '../../../src/protocol/entries';
import { tempDir } from '../../support/refAgent';

const user = (text: string): ThreadEntry => ({ type: 'user', text, attachments: [], done: true });

describe('library: store, the size of what is kept', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: LibraryStore;
  let lines: string[];
  beforeEach(() => {
    dir = tempDir('acp-library-limits-');
    lines = [];
    store = LibraryStore.open({ dir: dir.path, maxBytes: 1e10, log: (m) => lines.push(m) });
  });
  afterEach(() => {
    store.close();
    dir.cleanup();
  });

  it('keeps titles and times within their sizes: twenty 10 MB titles, searched, carry a few kilobytes', function () {
    // 400 MB of strings go through the writes: under Wine, beside other work, that takes a while.
    this.timeout(120_000);
    const huge = `A title pasted from a file ${'and on '.repeat(1_500_000)}`;
    for (let i = 0; i < 20; i++)
      store.write({
        agentId: 'a',
        sessionId: `s${i}`,
        cwd: '/p',
        info: { title: huge, updatedAt: `2024-01-01T00:00:00Z${' '.repeat(10_000_000)}` },
        entries: [{ index: 0, entry: user(`the pelican word ${i}`) }],
      });
    const hits = store.search('pelican');
    assert.equal(hits.length, 20);
    for (const h of hits) {
      assert.ok(h.title!.length <= MAX_TITLE_UNITS, `a title of ${h.title!.length}`);
      assert.ok(h.title!.startsWith('A title pasted from a file'));
      assert.ok(h.updatedAt!.length <= MAX_TIME);
    }
    assert.ok(JSON.stringify(hits).length < 50_000, `the hits take ${JSON.stringify(hits).length} characters`);
    assert.ok(JSON.stringify(store.sessions()).length < 50_000);
    assert.ok(statSync(join(dir.path, FILE_NAME)).size < 2_000_000, 'the file stays small');
  });

  it('keeps a message of megabytes cut, with a note, and a tool call’s thousand locations to their limit', () => {
    const long = `start of a long reply ${'x'.repeat(5 * MAX_MESSAGE_TEXT)}`;
    store.write({
      agentId: 'a',
      sessionId: 's',
      cwd: '/p',
      entries: [
        { index: 0, entry: { type: 'agent', text: long, attachments: [], done: true } },
        {
          index: 1,
          entry: {
            type: 'tool',
            toolCallId: 't',
            title: `Read ${'y'.repeat(100_000)}`,
            kind: 'read',
            status: 'completed',
            content: [{ type: 'content', content: { type: 'text', text: 'z'.repeat(2_000_000) } }],
            locations: Array.from({ length: 1_000 }, (_, i) => ({ path: `/p/f${i}.ts` })),
          },
        },
      ],
    });
    const [reply, tool] = store.transcript({ agentId: 'a', sessionId: 's' })!;
    assert.ok(reply?.type === 'agent' && reply.text.startsWith('start of a long reply'));
    assert.ok(reply.text.length < MAX_MESSAGE_TEXT + 100);
    assert.match(reply.text, /… \(\d+ more characters not kept\)$/);
    assert.ok(tool?.type === 'tool');
    assert.ok(tool.title.length < 5_000);
    assert.equal(tool.locations.length, MAX_LOCATIONS);
    const block = tool.content[0];
    assert.ok(block?.type === 'content' && block.content.type === 'text' && block.content.text.length < 600_000);
    assert.equal(store.search('reply').length, 1, 'what is kept is searchable');
  });

  it('keeps no session whose id or folder is longer than any real one, and says so', () => {
    store.write({ agentId: 'a', sessionId: 'i'.repeat(5_000), cwd: '/p', entries: [{ index: 0, entry: user('x') }] });
    store.write({
      agentId: 'a',
      sessionId: 'ok',
      cwd: `/${'d'.repeat(10_000)}`,
      entries: [{ index: 0, entry: user('y') }],
    });
    assert.deepEqual(store.sessions(), []);
    assert.ok(
      lines.some((l) => /id is over 1024 characters \(iiii.*…\) is not kept/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /folder is over 4096 characters/.test(l)),
      lines.join('\n'),
    );
  });
});
