import * as assert from 'node:assert/strict';
import { FIRST_SCREEN_MAX_CHARS, renderFirstScreen } from '../../../src/chat/firstScreen';
import { findQuery } from '../../../src/protocol/findQuery';
import type { MessageEntry, ThreadEntry } from '../../../src/protocol/entries';

const user = (text: string): MessageEntry => ({ type: 'user', text, attachments: [], done: true });
const agent = (text: string): MessageEntry => ({ type: 'agent', text, attachments: [], done: true });

/** The message's body as rendered, without the screen around it. */
async function body(entry: ThreadEntry, words: string[]): Promise<string> {
  const html = await renderFirstScreen(entry, words);
  assert.ok(html, 'a first screen');
  return /<div class="md">([\s\S]*)<\/div><\/div><\/div><\/div><\/div><\/div>$/.exec(html)![1]!;
}

describe('chat: the first screen of a hit', () => {
  it('looks for what the find bar will: the phrase when the message holds it, else the first word it holds', () => {
    assert.equal(findQuery('The Zanzibar quill, then a retry', ['zanzibar', 'quill']), 'zanzibar quill');
    assert.equal(findQuery('a quill and then Zanzibar', ['zanzibar', 'quill']), 'zanzibar');
    assert.equal(findQuery('only the QUILL', ['zanzibar', 'quill']), 'quill');
    assert.equal(findQuery('neither', ['zanzibar', 'quill']), '');
  });

  it('renders the message as the chat does, the words marked and the first one the current match', async () => {
    const html = (await renderFirstScreen(user('Where is the **zanzibar** quill?\n\nAsk Zanzibar.'), ['zanzibar']))!;
    assert.match(html, /^<div id="first-screen" class="first-screen" inert aria-hidden="true">/);
    assert.match(html, /<div class="first-msg-user"><div class="first-who">You<\/div><div class="md">/);
    assert.equal(
      await body(user('Where is the **zanzibar** quill?\n\nAsk Zanzibar.'), ['zanzibar']),
      '<p>Where is the <strong><mark class="current">zanzibar</mark></strong> quill?</p>\n<p>Ask <mark>Zanzibar</mark>.</p>\n',
    );
    const reply = (await renderFirstScreen(agent('Found `zanzibar` here'), ['zanzibar']))!;
    assert.match(
      reply,
      /<div class="first-msg-agent"><div class="md"><p>Found <code><mark class="current">zanzibar<\/mark><\/code> here<\/p>/,
    );
  });

  it('marks words in text as it reads, never inside an entity or a tag', async () => {
    assert.equal(
      await body(agent('Tom &amp; Jerry & amp <amp> "amp"'), ['amp']),
      // Markdown reads "&amp;" as "&": it shows, and is escaped, as one character.
      '<p>Tom &amp; Jerry &amp; <mark class="current">amp</mark> &lt;<mark>amp</mark>&gt; &quot;<mark>amp</mark>&quot;</p>\n',
    );
    assert.equal(
      await body(agent('a [strong link](https://strong.example) strong'), ['strong']),
      '<p>a <a><mark class="current">strong</mark> link</a> <mark>strong</mark></p>\n',
    );
  });

  it('keeps nothing of agent text that could run, fetch or be followed', async () => {
    const hostile = [
      'needle <script>window.__pwned(1)</script>',
      '<img src=x onerror="window.__pwned(2)"> needle',
      '[needle](javascript:window.__pwned(3)) [needle](https://evil.example "t")',
      '![needle](https://evil.example/pixel.png)',
      '<a href="https://evil.example">needle</a> <style>body{display:none}</style>',
      '| needle | b |\n|:--|--:|\n| 1 | 2 |',
      '```js" onmouseover="x\nneedle\n```',
      '3. needle\n4. two',
    ].join('\n\n');
    const html = await body(agent(hostile), ['needle']);
    // Every tag is one the chat's sanitiser allows, with no attribute but a list's start and a fence's language.
    for (const [tag] of html.matchAll(/<[^>]*>/g))
      assert.match(
        tag,
        /^<\/?(p|a|strong|em|code|pre|table|thead|tbody|tr|th|td|ol|li|mark)( class="current"| start="\d+")?>$/,
        tag,
      );
    assert.ok(!/href|src=|style=|onerror|onmouseover/.test(html.replace(/&lt;[^]*?&gt;|&quot;[^&]*&quot;/g, '')), html);
    assert.match(html, /&lt;script&gt;window.__pwned\(1\)&lt;\/script&gt;/);
    assert.match(html, /<a>\[image: <mark>needle<\/mark>\]<\/a>/);
    assert.match(html, /<ol start="3">/);
  });

  it('paints no screen for what the chat does not show open, nor for a message without the words', async () => {
    assert.equal(
      await renderFirstScreen({ type: 'thought', text: 'needle', attachments: [], done: true }, ['needle']),
      undefined,
    );
    assert.equal(
      await renderFirstScreen(
        {
          type: 'tool',
          toolCallId: 't',
          title: 'needle',
          kind: 'read',
          status: 'completed',
          content: [],
          locations: [],
        },
        ['needle'],
      ),
      undefined,
    );
    assert.equal(await renderFirstScreen(agent('no such word'), ['needle']), undefined);
    assert.equal(await renderFirstScreen(agent('   '), ['needle']), undefined);
    assert.equal(await renderFirstScreen(agent(`needle ${'x'.repeat(FIRST_SCREEN_MAX_CHARS)}`), ['needle']), undefined);
  });
});
