import * as assert from 'node:assert/strict';
import { asQuote } from '../../../src/webview/quote';

describe('asQuote', () => {
  it('quotes every line, keeps blank lines inside the quote, and ends with a blank line', () => {
    assert.equal(asQuote('one\n\ntwo'), '> one\n>\n> two\n\n');
    assert.equal(asQuote('a\r\nb'), '> a\n> b\n\n');
  });
});
