import * as assert from 'node:assert/strict';
import { MessageTooLargeError } from '@agentclientprotocol/sdk';
import { LineSplitter } from '../../../src/agent/ndjson';
import { MemoryLogger, type TraceLevel } from '../../../src/agent/log';
import { mcpValues, Redactor, withoutMcpValues } from '../../../src/agent/redact';
import { WireCounter, wireStream } from '../../../src/agent/wireTap';
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

  it('masks the value of every field whose name says it holds a secret, whatever the value', () => {
    const r = new Redactor();
    const names = [
      'token',
      'accessToken',
      'client_secret',
      'password',
      'passwd',
      'apiKey',
      'api-key',
      'API_KEY',
      'Authorization',
      'proxy-authorization',
      'Cookie',
      'Set-Cookie',
      'credentials',
    ];
    for (const name of names) {
      assert.equal(
        r.json(JSON.stringify({ [name]: 'v-123', note: 'ok' })),
        `{"${name}":"[redacted]","note":"ok"}`,
        name,
      );
    }
    assert.equal(r.json('{"author":"Ada","cookbook":"ok"}'), '{"author":"Ada","cookbook":"ok"}', 'ordinary names stay');
  });

  it('masks values inside error data', () => {
    const r = new Redactor(['s3cret-value']);
    assert.deepEqual(r.data({ message: 'bad key s3cret-value' }), { message: 'bad key [redacted]' });
    const same = { ok: true };
    assert.equal(r.data(same), same);
  });

  it('drops error data it cannot read through, rather than pass a secret on unmasked', () => {
    const r = new Redactor(['s3cret-value']);
    const circular: Record<string, unknown> = { key: 's3cret-value' };
    circular.self = circular;
    assert.equal(r.data(circular), undefined);
    assert.equal(r.data(null), null);
    assert.equal(new Redactor().data(circular), circular, 'with nothing to hide, data is left as it is');
  });

  it('reads MCP env and header values from well-formed servers and skips the rest', () => {
    const message = {
      params: {
        mcpServers: [
          null,
          'not a server',
          { name: 'a', env: [{ name: 'A', value: 'env-value' }, null, { name: 'B' }], headers: 'nope' },
          { name: 'b', headers: [{ name: 'H', value: 'header-value' }] },
        ],
      },
    };
    assert.deepEqual(mcpValues(message), ['env-value', 'header-value']);
    assert.deepEqual(mcpValues({ params: { mcpServers: 'none' } }), []);
    const masked = withoutMcpValues(message);
    assert.deepEqual(masked.params.mcpServers.slice(0, 2), [null, 'not a server']);
    assert.deepEqual(masked.params.mcpServers[2], {
      name: 'a',
      env: [{ name: 'A', value: '[redacted]' }, null, { name: 'B' }],
      headers: 'nope',
    });
    assert.deepEqual(masked.params.mcpServers[3], { name: 'b', headers: [{ name: 'H', value: '[redacted]' }] });
    assert.equal(JSON.stringify(message).includes('header-value'), true, 'the message itself is not changed');
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

describe('wireStream: what reaches the log', () => {
  /** Feeds `lines` as the agent's stdout and returns the log once the stream has read them. */
  async function logOf(lines: string[], trace: TraceLevel = 'off', secrets: string[] = []): Promise<string[]> {
    const logger = new MemoryLogger();
    const input = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const l of lines) controller.enqueue(bytes(`${l}\n`));
        controller.close();
      },
    });
    const output = new WritableStream<Uint8Array>();
    const { readable } = wireStream(output, input, {
      logger,
      trace: () => trace,
      redactor: new Redactor(secrets),
      counter: new WireCounter(logger),
    });
    const reader = readable.getReader();
    while (!(await reader.read()).done) {
      // drained
    }
    return logger.lines;
  }

  it('hides a known secret that lies across the cut of a logged line, not only its first part', async () => {
    const secret = 'sk-live-0123456789abcdef';
    // The line is cut at 120 characters; the secret starts 10 before the cut.
    const lines = await logOf([`${'x'.repeat(110)}${secret} and more`], 'off', [secret]);
    const line = lines.find((l) => l.includes('not JSON'));
    assert.ok(line, lines.join('\n'));
    assert.ok(!line.includes(secret.slice(0, 6)), line);
    assert.ok(line.includes('…'), 'the line is still cut');
  });

  it('hides a secret-named field across the cut of a long trace line', async () => {
    // A trace line is cut at 20,000 characters; the value starts 10 before the cut.
    const head = '{"jsonrpc":"2.0","method":"session/update","params":{"pad":"';
    const pad = 'y'.repeat(19_990 - head.length - '","apiKey":"'.length);
    const message = JSON.stringify({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { pad, apiKey: 'abcdefghijklmnopqrstuvwxyz' },
    });
    assert.equal(message.indexOf('abcdef'), 19_990);
    const lines = await logOf([message], 'verbose');
    const traced = lines.find((l) => l.includes('← session/update'));
    assert.ok(traced, lines.join('\n'));
    assert.ok(!/abcdef/.test(traced), traced.slice(-200));
  });
});
