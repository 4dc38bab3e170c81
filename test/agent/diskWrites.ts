// Files changed the way real agents change them, not through the client's `fs/*`: straight to
// disk from the agent's own process (announced as tool calls, as Claude Code's Edit tool is),
// and through a command in a client terminal. Asked for by words in the prompt (see USAGE).
import { chmodSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { sleep, TurnCancelled, type TurnContext } from './replies';

const ACTIONS =
  /\b(?:(disk write|disk delete|disk readonly|shell write|wait for)\s+(\S+)|(disk rename)\s+(\S+)\s+(\S+))/gi;

let written = 0;
let toolIds = 0;

/** What a disk or shell write puts in the file: different every time, the same on every run. */
export function diskContent(how: 'disk' | 'shell', n: number): string {
  return `${how === 'disk' ? 'written to disk' : 'written by a command'} by acp-reference-agent, write ${n}\n`;
}

const text = (t: string) => ({ type: 'text' as const, text: t });

async function tool(
  ctx: TurnContext,
  title: string,
  kind: 'edit' | 'delete' | 'move' | 'execute' | 'other',
  paths: string[],
  rawInput: Record<string, unknown>,
  act: () => Promise<string | void> | string | void,
): Promise<void> {
  const toolCallId = `disk_${Date.now().toString(36)}_${++toolIds}`;
  await ctx.send({
    sessionUpdate: 'tool_call',
    toolCallId,
    title,
    kind,
    status: 'in_progress',
    locations: paths.map((path) => ({ path })),
    rawInput,
  });
  try {
    const said = await act();
    await ctx.send({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'completed',
      ...(said ? { content: [{ type: 'content' as const, content: text(said) }] } : {}),
    });
  } catch (error) {
    if (error instanceof TurnCancelled) throw error;
    await ctx.send({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'failed',
      content: [{ type: 'content', content: text(`${title} failed: ${String(error)}`) }],
    });
  }
}

/** Writes `path` with a command run in a client terminal (`node -e`, so it runs on every platform). */
async function shellWrite(ctx: TurnContext, path: string): Promise<string> {
  if (!ctx.clientCapabilities?.terminal) throw new Error('this client has no terminals');
  const content = diskContent('shell', ++written);
  const terminal = await ctx.client.createTerminal({
    sessionId: ctx.sessionId,
    command: process.execPath,
    args: ['-e', 'require("node:fs").writeFileSync(process.argv[1], process.argv[2])', path, content],
    cwd: ctx.cwd,
  });
  try {
    const exit = await terminal.waitForExit();
    if (exit.exitCode !== 0) throw new Error(`the command exited with ${exit.exitCode ?? exit.signal}`);
    return `wrote ${content.length} bytes`;
  } finally {
    await terminal.release().catch(() => undefined);
  }
}

/** Waits until `path` exists: a test changes files "during the turn" and then creates it. */
async function waitFor(ctx: TurnContext, path: string): Promise<void> {
  while (!existsSync(path)) await sleep(20, ctx.signal);
}

/**
 * Runs the disk actions the prompt names, in the order it names them, and returns the prompt
 * without them (the rest of the script still runs on it) and whether any ran:
 * `disk write P`, `disk delete P`, `disk rename P Q`, `disk readonly P`, `shell write P`,
 * `wait for P`.
 */
export async function diskActions(ctx: TurnContext, prompt: string): Promise<{ rest: string; ran: boolean }> {
  let ran = false;
  for (const m of prompt.matchAll(ACTIONS)) {
    const verb = (m[1] ?? m[3] ?? '').toLowerCase();
    const path = m[2] ?? m[4] ?? '';
    const to = m[5] ?? '';
    if (!isAbsolute(path) || (verb === 'disk rename' && !isAbsolute(to))) continue;
    ran = true;
    switch (verb) {
      case 'disk write':
        await tool(ctx, `Write ${path}`, 'edit', [path], { file_path: path }, () => {
          const content = diskContent('disk', ++written);
          writeFileSync(path, content);
          return `wrote ${content.length} bytes`;
        });
        break;
      case 'disk delete':
        await tool(ctx, `Delete ${path}`, 'delete', [path], { path }, () => rmSync(path));
        break;
      case 'disk rename':
        await tool(ctx, `Move ${path} to ${to}`, 'move', [path, to], { from: path, to }, () => renameSync(path, to));
        break;
      case 'disk readonly':
        await tool(ctx, `Make ${path} read-only`, 'other', [path], { path }, () => chmodSync(path, 0o444));
        break;
      case 'shell write':
        await tool(
          ctx,
          `Run a command that writes ${path}`,
          'execute',
          [],
          { command: `node -e "write the file" ${path}` },
          () => shellWrite(ctx, path),
        );
        break;
      case 'wait for':
        await waitFor(ctx, path);
        break;
    }
  }
  return { rest: ran ? prompt.replace(ACTIONS, ' ') : prompt, ran };
}
