import * as assert from 'node:assert/strict';
import { parseWebAddress } from '../../../src/protocol/webAddress';
import { visible } from '../../../src/webview/render/visible';

describe('Web addresses an agent asks the user to open', () => {
  it('opens plain http(s) addresses as parsed, showing the site the browser goes to', () => {
    assert.deepEqual(parseWebAddress('https://example.com/sign-in?x=1#y'), {
      ok: true,
      href: 'https://example.com/sign-in?x=1#y',
      host: 'example.com',
      secure: true,
    });
    const idn = parseWebAddress('http://exämple.com:8080/a');
    assert.ok(idn.ok);
    assert.equal(idn.host, 'xn--exmple-cua.com:8080', 'a look-alike shows as punycode');
    assert.equal(idn.secure, false);
  });

  it('refuses addresses whose site parsers read differently: user info, a backslash in the site part', () => {
    for (const raw of [
      'https://accounts.google.com\\@attacker.example/',
      'https://accounts.google.com@attacker.example/',
      'https://user:pass@example.com/',
      'https://example.com\\.attacker.example/',
      'https://good.example\\/@evil.example',
    ]) {
      const parsed = parseWebAddress(raw);
      assert.equal(parsed.ok, false, raw);
    }
    // A backslash or "@" after the site part is only part of the path.
    assert.ok(parseWebAddress('https://example.com/a\\b@c').ok);
  });

  it('refuses other schemes, spaces and control characters, and what is not an address', () => {
    for (const raw of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://exa mple.com/',
      'https://example.com/\u0000',
      '',
      'example.com',
      42,
    ])
      assert.equal(parseWebAddress(raw).ok, false, String(raw));
  });
});

describe('Direction controls in what the user approves', () => {
  it('shows each bidi control as an escape and leaves other text alone', () => {
    assert.equal(visible('rm -rf ~/\u202etxt.tset'), 'rm -rf ~/\\u202Etxt.tset');
    assert.equal(
      visible('\u2066a\u2067b\u2068c\u2069\u200e\u200f\u061c\u202a\u202b\u202c\u202d'),
      '\\u2066a\\u2067b\\u2068c\\u2069\\u200E\\u200F\\u061C\\u202A\\u202B\\u202C\\u202D',
    );
    assert.equal(visible('שלום, plain text, é'), 'שלום, plain text, é');
  });
});
