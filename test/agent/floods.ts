// Hostile turns: what a careless or hostile agent does to its client. Each is asked for by words
// in the prompt (see USAGE), so a test or a benchmark can drive one through a real chat.
import { writeFileSync } from 'node:fs';
import { writeBytewise, writeStdout } from './wire';
import { sleep, type TurnContext } from './replies';

const text = (t: string) => ({ type: 'text' as const, text: t });

/** Never settles unless the turn is cancelled: a turn that stays on what it did. */
function hold(ctx: TurnContext): Promise<void> {
  return sleep(2 ** 31 - 1, ctx.signal);
}

/** Stops reading stdin, then asks for the file `count` times at once and waits for nothing. */
async function floodRead(ctx: TurnContext, path: string, count: number): Promise<void> {
  ctx.stopReading();
  for (let i = 0; i < count; i++)
    void ctx.client.request('fs/read_text_file', { sessionId: ctx.sessionId, path }).catch(() => undefined);
  process.stderr.write(`reference agent: stopped reading, asked for ${path} ${count} times\n`);
  await hold(ctx);
}

/** `count` permission requests at once; says how many were answered and how many refused. */
async function floodPermission(ctx: TurnContext, count: number): Promise<void> {
  const asks = Array.from({ length: count }, (_, i) =>
    ctx.client.request('session/request_permission', {
      sessionId: ctx.sessionId,
      toolCall: { toolCallId: `flood_${i}`, title: `Flood ${i}` },
      options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
    }),
  );
  const settled = await Promise.allSettled(asks);
  const refused = settled.filter((s) => s.status === 'rejected').length;
  await ctx.send({
    sessionUpdate: 'agent_message_chunk',
    content: text(`Permission flood: ${count - refused} answered, ${refused} refused.`),
  });
}

/** `count` lines that are not JSON ("x"), in writes of 64 KiB; then the turn goes on. */
async function floodText(ctx: TurnContext, count: number): Promise<void> {
  const block = 'x\n'.repeat(32 * 1024);
  for (let left = count; left > 0; left -= 32 * 1024) await writeStdout(left >= 32 * 1024 ? block : 'x\n'.repeat(left));
  await ctx.send({ sessionUpdate: 'agent_message_chunk', content: text(`Printed ${count} lines that are not JSON.`) });
}

/**
 * A line of `bytes` bytes that never ends, one byte per write; then the turn waits. It says so on
 * stderr, and by creating `signal` when one is given.
 */
async function unfinished(ctx: TurnContext, bytes: number, signal?: string): Promise<void> {
  await writeBytewise('x'.repeat(bytes));
  process.stderr.write(`reference agent: wrote an unfinished line of ${bytes} bytes\n`);
  if (signal) writeFileSync(signal, String(bytes));
  await hold(ctx);
}

/** A tool call whose raw input is nested 20,000 deep, written by hand: JSON.stringify cannot. */
async function nested(ctx: TurnContext): Promise<void> {
  const depth = 20_000;
  const rawInput = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const update =
    `{"sessionUpdate":"tool_call","toolCallId":"nested_${Date.now().toString(36)}","title":"Nested input",` +
    `"kind":"other","status":"completed","rawInput":${rawInput}}`;
  await writeStdout(
    `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(ctx.sessionId)},"update":${update}}}\n`,
  );
  await ctx.send({ sessionUpdate: 'agent_message_chunk', content: text('Sent a deeply nested tool call.') });
}

/** Runs the hostile turn the prompt asks for; false when it asks for none. */
export async function hostileTurn(ctx: TurnContext, prompt: string): Promise<boolean> {
  const read = /\bflood read (\/\S+) (\d+)\b/i.exec(prompt);
  if (read) {
    await floodRead(ctx, read[1]!, Number(read[2]));
    return true;
  }
  const permission = /\bflood permission (\d+)\b/i.exec(prompt);
  if (permission) {
    await floodPermission(ctx, Number(permission[1]));
    return true;
  }
  const lines = /\bflood text (\d+)\b/i.exec(prompt);
  if (lines) {
    await floodText(ctx, Number(lines[1]));
    return true;
  }
  const line = /\bunfinished (\d+)(?: (\/\S+))?/i.exec(prompt);
  if (line) {
    await unfinished(ctx, Number(line[1]), line[2]);
    return true;
  }
  if (/\bnested\b/i.test(prompt)) {
    await nested(ctx);
    return true;
  }
  return false;
}
