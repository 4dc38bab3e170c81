// Scripted replies to session/prompt, chosen by words in the prompt. Together they exercise every
// SessionUpdate kind and every client method an agent calls (permission, fs, terminal).
import type {
  AgentContext,
  ClientCapabilities,
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
} from '@agentclientprotocol/sdk/unstable';
import { toolCallPair } from './content';
import { diskActions } from './diskWrites';
import { hostileTurn } from './floods';

/** Thrown out of a script when the turn is cancelled; the prompt answers "cancelled". */
export class TurnCancelled extends Error {}

export interface TurnContext {
  sessionId: string;
  cwd: string;
  client: AgentContext;
  clientCapabilities: ClientCapabilities | undefined;
  signal: AbortSignal;
  /** Chunks the long reply is streamed in. */
  replyChunks: number;
  /** Sends one update and keeps it for the session's history; throws TurnCancelled once cancelled. */
  send(update: SessionUpdate): Promise<void>;
  modeId(): string;
  configOptions(): SessionConfigOption[];
  availableCommands(): SessionUpdate;
  /** Reads nothing more from the client, ever. */
  stopReading(): void;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new TurnCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new TurnCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Races a client call against cancellation, so a turn never outlives session/cancel. */
function orCancel<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new TurnCancelled());
    const onAbort = () => reject(new TurnCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const say = (ctx: TurnContext, t: string) => ctx.send({ sessionUpdate: 'agent_message_chunk', content: text(t) });

function describeError(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const code = 'code' in error ? ` (${String((error as { code: unknown }).code)})` : '';
    return `${String((error as { message: unknown }).message)}${code}`;
  }
  return String(error);
}

let toolCounter = 0;
const nextToolId = () => `call_${Date.now().toString(36)}_${++toolCounter}`;

async function everything(ctx: TurnContext): Promise<void> {
  await ctx.send({ sessionUpdate: 'agent_thought_chunk', content: text('The user wants to see everything. ') });
  await ctx.send({ sessionUpdate: 'agent_thought_chunk', content: text('I will stream one of each update kind.') });
  await ctx.send({
    sessionUpdate: 'plan',
    entries: [
      { content: 'Read the module', priority: 'high', status: 'completed' },
      { content: 'Edit the module', priority: 'high', status: 'in_progress' },
      { content: 'Run the tests', priority: 'medium', status: 'pending' },
    ],
  });
  await say(ctx, '## Everything\n\nStreaming **every** update kind, ');
  await say(ctx, 'in *chunks*:\n\n- thoughts\n- tool calls with text, diff and terminal content\n- a plan\n');
  const file = `${ctx.cwd}/src/example.ts`;
  const [call, done] = toolCallPair(nextToolId(), 'edit', file, 3);
  await ctx.send(call);
  const id = (call as { toolCallId: string }).toolCallId;
  await ctx.send({
    sessionUpdate: 'tool_call_update',
    toolCallId: id,
    status: 'in_progress',
    content: [{ type: 'content', content: text('Editing `example.ts`…') }],
  });
  await ctx.send(done);
  await runTerminal(ctx);
  await ctx.send({
    sessionUpdate: 'plan',
    entries: [
      { content: 'Read the module', priority: 'high', status: 'completed' },
      { content: 'Edit the module', priority: 'high', status: 'completed' },
      { content: 'Run the tests', priority: 'medium', status: 'completed' },
    ],
  });
  await ctx.send(ctx.availableCommands());
  await ctx.send({ sessionUpdate: 'current_mode_update', currentModeId: ctx.modeId() });
  await ctx.send({ sessionUpdate: 'config_option_update', configOptions: ctx.configOptions() });
  await ctx.send({
    sessionUpdate: 'usage_update',
    used: 12_345,
    size: 200_000,
    cost: { amount: 0.0421, currency: 'USD' },
  });
  const session = ctx.clientCapabilities?.session;
  if (session?.notices != null) {
    await ctx.send({
      sessionUpdate: 'notice',
      severity: 'info',
      title: 'Reference notice',
      description: 'Sent because the client announced session.notices.',
    });
  }
  if (session?.compaction != null) {
    const compactionId = `compact_${Date.now().toString(36)}`;
    await ctx.send({ sessionUpdate: 'compaction_update', compactionId, status: 'in_progress' });
    await ctx.send({
      sessionUpdate: 'compaction_summary_chunk',
      compactionId,
      content: text('Summary of the conversation so far.'),
    });
    await ctx.send({ sessionUpdate: 'compaction_update', compactionId, status: 'completed' });
  }
  await say(ctx, '\n```ts\nexport const done = true;\n```\n\nAll done.');
}

/** A tool call with terminal content when the client has terminals, text otherwise. */
async function runTerminal(ctx: TurnContext): Promise<void> {
  const toolCallId = nextToolId();
  await ctx.send({
    sessionUpdate: 'tool_call',
    toolCallId,
    title: 'Run echo',
    kind: 'execute',
    status: 'pending',
    rawInput: { command: 'echo hello' },
  });
  if (!ctx.clientCapabilities?.terminal) {
    await ctx.send({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'completed',
      content: [{ type: 'content', content: text('$ echo hello\nhello\n') }],
    });
    return;
  }
  try {
    const terminal = await orCancel(
      ctx.client.createTerminal({ sessionId: ctx.sessionId, command: 'echo', args: ['hello'], cwd: ctx.cwd }),
      ctx.signal,
    );
    await ctx.send({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: terminal.id }],
    });
    try {
      const exit = await orCancel(terminal.waitForExit(), ctx.signal);
      await ctx.send({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: exit.exitCode === 0 ? 'completed' : 'failed',
      });
    } finally {
      await terminal.release().catch(() => undefined);
    }
  } catch (error) {
    if (error instanceof TurnCancelled) throw error;
    await ctx.send({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'failed',
      content: [{ type: 'content', content: text(`terminal failed: ${describeError(error)}`) }],
    });
  }
}

/**
 * Asks before an edit. The request carries what the edit does (a diff, the raw input), as real
 * agents' requests do; "unannounced" in the prompt skips the tool_call that usually comes first.
 */
async function permission(ctx: TurnContext, announce: boolean): Promise<void> {
  const toolCallId = nextToolId();
  const path = `${ctx.cwd}/src/protected.ts`;
  if (announce)
    await ctx.send({
      sessionUpdate: 'tool_call',
      toolCallId,
      title: `Edit ${path}`,
      kind: 'edit',
      status: 'pending',
      locations: [{ path }],
    });
  const diff: ToolCallContent = {
    type: 'diff',
    path,
    oldText: 'export const locked = true;\n',
    newText: 'export const locked = false;\n',
  };
  const response = await orCancel(
    ctx.client.request('session/request_permission', {
      sessionId: ctx.sessionId,
      toolCall: {
        toolCallId,
        title: `Edit ${path}`,
        kind: 'edit',
        status: 'pending',
        locations: [{ path }],
        content: [diff],
        rawInput: { path, unlock: true },
      },
      options: [
        { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    }),
    ctx.signal,
  );
  const outcome = response.outcome;
  if (outcome.outcome === 'cancelled') {
    await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    await say(ctx, 'Permission outcome: **cancelled**.');
    return;
  }
  const allowed = outcome.optionId.startsWith('allow');
  await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: allowed ? 'completed' : 'failed' });
  await say(
    ctx,
    `Permission outcome: **selected** \`${outcome.optionId}\` — ${allowed ? 'the edit was made' : 'the edit was not made'}.`,
  );
}

async function fileAccess(ctx: TurnContext, verb: 'read' | 'write', path: string): Promise<void> {
  const toolCallId = nextToolId();
  await ctx.send({
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `${verb === 'read' ? 'Read' : 'Write'} ${path}`,
    kind: verb === 'read' ? 'read' : 'edit',
    status: 'pending',
    locations: [{ path }],
  });
  try {
    if (verb === 'read') {
      const { content } = await orCancel(
        ctx.client.request('fs/read_text_file', { sessionId: ctx.sessionId, path }),
        ctx.signal,
      );
      await ctx.send({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'completed',
        content: [{ type: 'content', content: text(content.slice(0, 2000)) }],
      });
      await say(ctx, `Read ${content.length} characters from \`${path}\`.\n\n\`\`\`\n${content.slice(0, 500)}\n\`\`\``);
    } else {
      const content = `written by acp-reference-agent at ${new Date().toISOString()}\n`;
      await orCancel(ctx.client.request('fs/write_text_file', { sessionId: ctx.sessionId, path, content }), ctx.signal);
      await ctx.send({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'completed',
        content: [{ type: 'diff', path, newText: content }],
      });
      await say(ctx, `Wrote ${content.length} characters to \`${path}\`.`);
    }
  } catch (error) {
    if (error instanceof TurnCancelled) throw error;
    await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    await say(ctx, `Could not ${verb} \`${path}\`: ${describeError(error)}`);
  }
}

async function slow(ctx: TurnContext): Promise<void> {
  for (let i = 1; i <= 40; i++) {
    await say(ctx, `chunk ${i} of 40. `);
    await sleep(50, ctx.signal);
  }
}

/** The long reply's text: always the same, so a client can check that all of it arrived. */
export function longReply(): string {
  const line = 'This is one line of a very long reply, repeated to fill one mebibyte of text.\n';
  return '# A long reply\n\n' + line.repeat(Math.ceil((1024 * 1024) / line.length));
}

async function long(ctx: TurnContext): Promise<void> {
  const reply = longReply();
  const n = ctx.replyChunks;
  for (let i = 0; i < n; i++)
    await say(ctx, reply.slice(Math.floor((i * reply.length) / n), Math.floor(((i + 1) * reply.length) / n)));
}

const hostileMarkdown = [
  '# Hostile content',
  '',
  '<script>window.__acpPwned = true; alert("xss")</script>',
  '',
  '<img src="x" onerror="window.__acpPwned = true">',
  '',
  '[click me](javascript:window.__acpPwned=true) and [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '',
  '<!-- a hidden HTML comment --><iframe src="https://example.com"></iframe>',
  '',
  '<a href="#" onclick="window.__acpPwned = true">onclick link</a> <svg onload="window.__acpPwned = true"></svg>',
  '',
  '<style>body { display: none }</style>',
  '',
  '```html',
  '<script>this one is only code</script>',
  '```',
].join('\n');

async function xss(ctx: TurnContext): Promise<void> {
  await ctx.send({
    sessionUpdate: 'agent_thought_chunk',
    content: text('<img src=x onerror="window.__acpPwned = true"> thinking'),
  });
  await say(ctx, hostileMarkdown);
}

/** The form the reference agent asks for: one field of every kind the schema has. */
export const elicitationForm = {
  type: 'object' as const,
  title: 'Project details',
  properties: {
    name: { type: 'string' as const, title: 'Project name', minLength: 2, maxLength: 40 },
    email: { type: 'string' as const, title: 'Contact email', format: 'email' as const },
    homepage: { type: 'string' as const, title: 'Homepage', format: 'uri' as const },
    due: { type: 'string' as const, title: 'Due date', format: 'date' as const },
    meeting: { type: 'string' as const, title: 'Kick-off', format: 'date-time' as const },
    seats: { type: 'integer' as const, title: 'Seats', minimum: 1, maximum: 50, default: 3 },
    budget: { type: 'number' as const, title: 'Budget (k€)', minimum: 0 },
    public: { type: 'boolean' as const, title: 'Public repository', default: true },
    licence: { type: 'string' as const, title: 'Licence', enum: ['MIT', 'Apache-2.0', 'GPL-3.0'], default: 'MIT' },
    size: {
      type: 'string' as const,
      title: 'Team size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'm', title: 'Medium' },
        { const: 'l', title: 'Large' },
      ],
    },
    languages: {
      type: 'array' as const,
      title: 'Languages',
      items: { type: 'string' as const, enum: ['TypeScript', 'Rust', 'Go'] },
      minItems: 1,
    },
    tools: {
      type: 'array' as const,
      title: 'Tools',
      items: {
        anyOf: [
          { const: 'ci', title: 'CI' },
          { const: 'lint', title: 'Linter' },
        ],
      },
      default: ['ci'],
    },
  },
  required: ['name', 'seats', 'languages'],
};

/** Asks for the form (`elicit`) and/or a URL (`elicit url`), then says what came back. */
/** Shows one site and, to VS Code's opener, means another: the client must refuse to open it. */
export const HOSTILE_ADDRESS = 'https://accounts.google.com\\@attacker.example/';

async function elicit(ctx: TurnContext, form: boolean, url: boolean, hostile = false): Promise<void> {
  const caps = ctx.clientCapabilities?.elicitation;
  if (form) {
    if (caps?.form == null) {
      await say(ctx, 'This client does not support form elicitation.');
    } else {
      const response = await orCancel(
        ctx.client.request('elicitation/create', {
          sessionId: ctx.sessionId,
          mode: 'form',
          message: 'Tell me about the project.',
          requestedSchema: elicitationForm,
        }),
        ctx.signal,
      );
      const content =
        response.action === 'accept'
          ? `\n\n\`\`\`json\n${JSON.stringify((response as { content?: unknown }).content ?? null)}\n\`\`\``
          : '';
      await say(ctx, `Form elicitation: **${response.action}**${content}`);
    }
  }
  if (url) {
    if (caps?.url == null) {
      await say(ctx, 'This client does not support URL elicitation.');
      return;
    }
    const elicitationId = `elic_${Date.now().toString(36)}`;
    const response = await orCancel(
      ctx.client.request('elicitation/create', {
        sessionId: ctx.sessionId,
        mode: 'url',
        elicitationId,
        message: 'Sign in to the reference service to continue.',
        url: hostile
          ? HOSTILE_ADDRESS
          : `https://example.com/acp-reference/sign-in?session=${encodeURIComponent(ctx.sessionId)}`,
      }),
      ctx.signal,
    );
    if (response.action === 'accept') {
      // The user went to the page; the "service" finishes a moment later and says so.
      await sleep(200, ctx.signal);
      await ctx.client.notify('elicitation/complete', { elicitationId });
    }
    await say(ctx, `URL elicitation: **${response.action}**${response.action === 'accept' ? ' (completed)' : ''}`);
  }
}

async function echo(ctx: TurnContext, prompt: string): Promise<void> {
  const quoted = prompt
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  await say(ctx, `You said:\n\n${quoted}\n\n`);
  await say(
    ctx,
    'Try a prompt with **all**, **permission**, **elicit** (a form), **elicit url**, **slow**, **long**, **xss**, **leak**, `read /abs/path`, `write /abs/path` or `usage 1200/200000 0.25 USD`.',
  );
}

/** Runs every script the prompt asks for, in a fixed order; a plain echo when none matches. */
export async function reply(ctx: TurnContext, prompt: string): Promise<void> {
  if (await hostileTurn(ctx, prompt)) return;
  // Files changed straight on disk or by a command run first; the rest of the prompt goes on.
  const disk = await diskActions(ctx, prompt);
  prompt = disk.rest;
  let matched = disk.ran;
  const has = (word: string) => new RegExp(`\\b${word}\\b`, 'i').test(prompt);
  if (has('permission')) {
    matched = true;
    await permission(ctx, !has('unannounced'));
  }
  if (has('elicit')) {
    matched = true;
    await elicit(ctx, has('form') || !has('url'), has('url'), has('hostile'));
  }
  // "usage 1200/200000 0.25 USD": the context window's use, and the session's cost so far.
  for (const m of prompt.matchAll(/\busage (\d+)\/(\d+)(?: (\d+(?:\.\d+)?) ([A-Z]{3}))?/g)) {
    matched = true;
    await ctx.send({
      sessionUpdate: 'usage_update',
      used: Number(m[1]),
      size: Number(m[2]),
      ...(m[3] ? { cost: { amount: Number(m[3]), currency: m[4]! } } : {}),
    });
    await ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Used ${m[1]} tokens.` } });
  }
  for (const m of prompt.matchAll(/\b(read|write)\s+(\/\S+)/gi)) {
    matched = true;
    await fileAccess(ctx, m[1].toLowerCase() as 'read' | 'write', m[2]);
  }
  if (has('all')) {
    matched = true;
    await everything(ctx);
  }
  if (has('slow')) {
    matched = true;
    await slow(ctx);
  }
  if (has('long')) {
    matched = true;
    await long(ctx);
  }
  if (has('xss')) {
    matched = true;
    await xss(ctx);
  }
  if (has('leak')) {
    // A careless agent: says its key in the chat, then exits before the turn ends.
    await say(ctx, `My key is ${process.env.ACP_REF_KEY ?? ''}, if you need it.`);
    process.exit(0);
  }
  if (!matched) await echo(ctx, prompt);
}
