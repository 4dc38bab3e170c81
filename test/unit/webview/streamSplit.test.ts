import * as assert from 'node:assert/strict';
import { MAX_OPEN, StreamSplitter } from '../../../src/webview/streamSplit';

function split(chunks: string[]): { done: string; tail: string } {
  const splitter = new StreamSplitter();
  chunks.forEach((chunk) => splitter.append(chunk));
  return { done: splitter.value.slice(0, splitter.stableEnd), tail: splitter.value.slice(splitter.stableEnd) };
}

describe('StreamSplitter', () => {
  it('finishes a block at a blank line', () => {
    assert.deepEqual(split(['Hello **wor', 'ld**\n', '\nNext']), { done: 'Hello **world**\n\n', tail: 'Next' });
  });

  it('keeps an open code fence, blank lines and all, in the tail', () => {
    assert.deepEqual(split(['Intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n']), {
      done: 'Intro\n\n',
      tail: '```ts\nconst a = 1;\n\nconst b = 2;\n',
    });
  });

  it('ends the block before a fence at the margin, so the tail is the fence alone, and names its language', () => {
    const splitter = new StreamSplitter();
    splitter.append('Run this:\n```bash title="x"\nnpm te');
    assert.equal(splitter.value.slice(0, splitter.stableEnd), 'Run this:\n');
    assert.deepEqual(splitter.openFence, {
      contentStart: 'Run this:\n```bash title="x"\n'.length,
      language: 'bash',
      marker: '```',
    });
    splitter.append('st\n```\n');
    assert.equal(splitter.openFence, undefined);
    assert.equal(splitter.stableEnd, splitter.value.length);
  });

  it('keeps a list item whole when an indented fence opens in it', () => {
    const splitter = new StreamSplitter();
    splitter.append('1. Step one\n   ```sh\n   make\n');
    assert.equal(splitter.stableEnd, 0);
    assert.equal(splitter.openFence, undefined, 'the tail is more than the fence');
  });

  it('cuts an open block that grows past the limit at its next line break, never inside a fence', () => {
    const line = 'one line of a very long paragraph without a blank line in it\n';
    const splitter = new StreamSplitter();
    for (let i = 0; i < 1000; i++) splitter.append(line);
    assert.ok(splitter.value.length - splitter.stableEnd <= MAX_OPEN + line.length, 'the tail stays small');
    assert.equal(splitter.value[splitter.stableEnd - 1], '\n', 'cut at a line break');
    const fenced = new StreamSplitter();
    fenced.append('```\n');
    for (let i = 0; i < 1000; i++) fenced.append(line);
    assert.equal(fenced.stableEnd, 0);
  });

  it('finishes a fence at its closing line, which must match the opening', () => {
    assert.equal(split(['````\n```\nstill code\n\n````\n']).tail, '');
    assert.equal(split(['~~~\ncode\n```\n\n']).tail, '~~~\ncode\n```\n\n');
    assert.equal(split(['```js\nx\n', '```', '\nafter']).done, '```js\nx\n```\n');
  });

  it('does not take a backtick run with a backtick in its info string for a fence', () => {
    assert.deepEqual(split(['``` a`b\n\nrest']), { done: '``` a`b\n\n', tail: 'rest' });
  });

  it('gives the same split however the text is chunked', () => {
    const text = 'One\n\n```\na\n\nb\n```\nTwo\n\n- x\n- y\n\nThree';
    const whole = split([text]);
    for (let size = 1; size < 8; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      assert.deepEqual(split(chunks), whole, `chunks of ${size}`);
    }
    assert.equal(whole.tail, 'Three');
  });

  it('stays linear for many tiny chunks', () => {
    const splitter = new StreamSplitter();
    const started = Date.now();
    for (let i = 0; i < 300_000; i++) splitter.append(i % 80 === 79 ? '\n' : i % 400 === 0 ? '\n\n' : 'x');
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.equal(splitter.value.slice(splitter.stableEnd).includes('\n\n'), false);
  });

  it('steps through its finished blocks by a share of characters, at least one block at a time', () => {
    const splitter = new StreamSplitter();
    const paragraph = (n: number) => `${'p'.repeat(n)}\n\n`;
    splitter.append(paragraph(98) + paragraph(98) + paragraph(998) + 'open tail');
    // Block ends at 100, 200 and 1200.
    assert.equal(splitter.stableEnd, 1200);
    assert.equal(splitter.stableWithin(0, 150), 100);
    assert.equal(splitter.stableWithin(0, 250), 200);
    assert.equal(splitter.stableWithin(0, 10_000), 1200);
    // A block larger than the share still goes, whole.
    assert.equal(splitter.stableWithin(200, 50), 1200);
    assert.equal(splitter.stableWithin(100, 0), 200);
    // Nothing finished after the point: the point itself.
    assert.equal(splitter.stableWithin(1200, 500), 1200);
  });
});
