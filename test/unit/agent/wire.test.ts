import * as assert from 'node:assert/strict';
import { MessageTooLargeError } from '@agentclientprotocol/sdk';
import { LineSplitter } from '../../../src/agent/ndjson';
import { mcpValues, Redactor, withoutMcpValues } from '../../../src/agent/redact';
import { heldBytes } from '../../support/memory';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('LineSplitter (the agent stdout framing)', () => {
  it('splits LF and CRLF lines across chunks, and gives the unterminated last line on flush', () => {
    const s = new LineSplitter(1024);
    const lines: string[] = [];
    const push = (c: string) => s.push(bytes(c), (l) => lines.push(text(l)));
    push('{"a":1}\n{"b"');
    push(':2}\r');
    push('\n\n{"c":3}');
    s.flush((l) => lines.push(text(l)));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '', '{"c":3}']);
  });

  it('refuses a line over the limit as soon as it is known to be too long, like the SDK', () => {
    const s = new LineSplitter(10);
    s.push(bytes('0123456789\n'), () => {});
    assert.throws(
      () => s.push(bytes('0123456789A'), () => {}),
      (e: unknown) => e instanceof MessageTooLargeError && e.maxMessageBytes === 10,
    );
    const crlf = new LineSplitter(10);
    crlf.push(bytes('0123456789\r\n'), () => {});
  });

  it('holds an unfinished line written one byte at a time in memory proportional to its bytes', () => {
    const s = new LineSplitter();
    const one = bytes('x');
    const n = 2 * 1024 * 1024;
    const before = heldBytes();
    for (let i = 0; i < n; i++) s.push(one, () => assert.fail('no line ended'));
    const grown = heldBytes() - before;
    // A separate copy per read cost about 200 bytes per byte (400 MiB here).
    assert.ok(grown < 3 * n, `${(grown / n).toFixed(1)} bytes of memory per byte held`);
    assert.equal(s.held, n);
    assert.ok(s.capacity <= 2 * n, `reserved ${s.capacity} bytes for ${n}`);
    let got = 0;
    s.push(bytes('\n'), (l) => (got = l.length));
    assert.equal(got, n);
    assert.equal(s.held, 0);
  });
});

describe('Redactor', () => {
  it('masks known values as they are and JSON-escaped, longest first, ignoring very short ones', () => {
    const r = new Redactor(['abcd"ef', 'abcd', '1']);
    assert.equal(r.text('key abcd"ef and abcd and 1'), 'key [redacted] and [redacted] and 1');
    assert.equal(r.json(JSON.stringify({ v: 'abcd"ef' })), '{"v":"[redacted]"}');
    assert.equal(r.json('{"apiKey":"zz","note":"ok"}'), '{"apiKey":"[redacted]","note":"ok"}');
  });

  it('cuts a long text after masking it: a value across the cut, or shifted to it by masks before it, never shows in part', () => {
    const secret = 'k'.repeat(20) + 'SECRET-TAIL-0123456789';
    const r = new Redactor([secret]);
    const many = `${secret} `.repeat(300);
    for (let shift = 0; shift < secret.length + 1; shift++) {
      const text = `${'x'.repeat(shift)}${many}`;
      const shown = r.cut(text, 2000);
      assert.ok(!shown.includes('SECRET') && !shown.includes('kkkkk'), `shift ${shift}: ${shown.slice(-80)}`);
      assert.ok(shown.length <= 2001 && shown.endsWith('…'));
    }
    // A secret-looking field cut open at the end keeps its value hidden too.
    assert.equal(r.cut(`{"apiKey":"${'v'.repeat(200)}"}`, 30, true), '{"apiKey":"[redacted]…');
    assert.equal(r.cut('short', 30), 'short');
  });

  it('masks values inside error data', () => {
    const r = new Redactor(['s3cret-value']);
    assert.deepEqual(r.data({ message: 'bad key s3cret-value' }), { message: 'bad key [redacted]' });
    const same = { ok: true };
    assert.equal(r.data(same), same);
  });

  it('finds and masks every MCP env and header value of a message', () => {
    const m = {
      jsonrpc: '2.0',
      id: 1,
      method: 'session/new',
      params: {
        cwd: '/p',
        mcpServers: [
          { name: 'a', command: '/x', args: [], env: [{ name: 'E', value: 'v1' }] },
          { type: 'http', name: 'b', url: 'https://x', headers: [{ name: 'H', value: 'v2' }] },
        ],
      },
    };
    assert.deepEqual(mcpValues(m), ['v1', 'v2']);
    const masked = withoutMcpValues(m);
    assert.equal(JSON.stringify(masked).includes('v1') || JSON.stringify(masked).includes('v2'), false);
    assert.equal(m.params.mcpServers[0]!.env![0]!.value, 'v1', 'the message sent is not changed');
  });
});
