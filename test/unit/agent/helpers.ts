import * as assert from 'node:assert/strict';
import { RequestError } from '@agentclientprotocol/sdk';

function matches(e: unknown, code: number, text?: string | RegExp): true {
  assert.ok(e instanceof RequestError, `expected a RequestError, got ${String(e)}`);
  assert.equal(e.code, code, e.message);
  if (typeof text === 'string') assert.ok(e.message.includes(text), e.message);
  else if (text) assert.match(e.message, text);
  return true;
}

/** Asserts that `fn` throws a RequestError with `code` whose message contains `text`. */
export function assertRefused(fn: () => unknown, code: number, text?: string | RegExp): void {
  assert.throws(fn, (e: unknown) => matches(e, code, text));
}

/** The async form of {@link assertRefused}. */
export async function assertRejected(promise: Promise<unknown>, code: number, text?: string | RegExp): Promise<void> {
  await assert.rejects(promise, (e: unknown) => matches(e, code, text));
}
