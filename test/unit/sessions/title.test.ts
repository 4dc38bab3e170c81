import * as assert from 'node:assert/strict';
import { sanitizeText, sanitizeTitle } from '../../../src/sessions/title';

describe('sanitizeTitle', () => {
  it('falls back to the short id for missing titles', () => {
    for (const raw of [null, undefined, '', '   ', 42, {}, '\u200b\u202e\n']) {
      assert.deepEqual(
        sanitizeTitle(raw, 'sess_abcdef123'),
        { label: 'Untitled session · sess_abc', untitled: true },
        String(raw),
      );
    }
    assert.deepEqual(sanitizeTitle(null, '\u202eab\ncd'), { label: 'Untitled session · ab cd', untitled: true });
    assert.deepEqual(sanitizeTitle(null, ''), { label: 'Untitled session', untitled: true });
  });

  it('makes one line of multi-line and tabbed titles', () => {
    assert.equal(sanitizeTitle('  Fix the\r\nbuild\t\tnow \u2028 please ', 'x').label, 'Fix the build now please');
  });

  it('strips control, bidi and zero-width characters', () => {
    const raw =
      'a\u0000b\u001bc\u007fd\u0085e\u009bf\u202ag\u202eh\u2066i\u2069j\u200ek\u200fl\u061cm\u200bn\ufeffo\u200dp';
    assert.equal(sanitizeTitle(raw, 'x').label, 'abcd efghijklmnop');
    assert.equal(sanitizeText('tag\udb40\udc41\udb40\udc42s'), 'tags');
    assert.equal(sanitizeText('lone \ud800 surrogate'), 'lone surrogate');
    assert.equal(sanitizeText('lone \udc00 low'), 'lone low');
    assert.equal(sanitizeText('pair \ud83d\ude00 kept'), 'pair \ud83d\ude00 kept');
  });

  it('strips each bidi, invisible or control character even when it is the only thing to change', () => {
    // One such character in an otherwise clean title must not slip through the quick check.
    const hidden = [
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u202a',
      '\u202e',
      '\u200e',
      '\u200f',
      '\u061c',
      '\u200b',
      '\u200d',
      '\u2060',
      '\u2064',
      '\ufeff',
      '\u00ad',
      '\u180e',
      '\u0000',
      '\u001b',
      '\u007f',
      '\u009f',
      '\udb40\udc41',
    ];
    for (const c of hidden) {
      assert.equal(sanitizeText(`Fix ${c}the build`), 'Fix the build', JSON.stringify(c));
      assert.equal(sanitizeTitle(`${c}Plan`, 'x').label, 'Plan', JSON.stringify(c));
    }
  });

  it('caps at 200 code points with an ellipsis, never splitting a pair', () => {
    const long = sanitizeTitle('é'.repeat(500), 'x').label;
    assert.equal(Array.from(long).length, 200);
    assert.ok(long.endsWith('é…'));
    const emoji = sanitizeTitle('😀'.repeat(300), 'x').label;
    assert.equal(Array.from(emoji).length, 200);
    assert.ok(!/[\ud800-\udbff]…$/.test(emoji));
    assert.equal(
      sanitizeTitle('😀'.repeat(150), 'x').label,
      '😀'.repeat(150),
      '300 UTF-16 units but 150 code points fits',
    );
    assert.equal(sanitizeTitle('😀'.repeat(200), 'x').label, '😀'.repeat(200), 'exactly 200 code points fit');
    assert.equal(sanitizeTitle('😀'.repeat(201), 'x').label, `${'😀'.repeat(199)}…`);
    assert.equal(sanitizeTitle('x'.repeat(200), 'x').label.length, 200);
  });
});

describe('sanitizeText on clean and nearly clean text', () => {
  it('returns clean text as it is, and cleans what only looks clean', () => {
    assert.equal(sanitizeText('Refactor the parser'), 'Refactor the parser');
    assert.equal(sanitizeText('a\u00a0b\u3000c'), 'a b c', 'no-break and ideographic spaces');
    assert.equal(sanitizeText('a  b'), 'a b', 'a run of spaces');
    assert.equal(sanitizeText(' a '), 'a', 'spaces at the ends');
    assert.equal(sanitizeText('a\ufeffb'), 'ab', 'a byte-order mark inside');
    assert.equal(sanitizeText('Fix 🐛 now'), 'Fix 🐛 now', 'a surrogate pair goes the long way and stays');
  });

  it('is a fixed point: cleaning clean text changes nothing', () => {
    const alphabet = [
      'a',
      'Z',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u202e',
      '\u200b',
      '\u0007',
      '\u0085',
      'é',
      '🐛',
      '\ud800',
      '\udc00',
      '<',
      '"',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 2000; i++) {
      let raw = '';
      for (let n = Math.floor(next() * 12); n > 0; n--) raw += alphabet[Math.floor(next() * alphabet.length)];
      const once = sanitizeText(raw, 8);
      assert.equal(sanitizeText(once, 8), once, JSON.stringify(raw));
      assert.doesNotMatch(once, /[^\S ]|[\u0000-\u001f\u007f-\u009f\u202e\u200b]| {2}|^ | $/, JSON.stringify(raw));
    }
  });
});
