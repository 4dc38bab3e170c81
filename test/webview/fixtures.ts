/** Threads for the webview tests: one of every entry kind, and a long generated replay. */
import type { ThreadChange, ThreadEntry, ThreadMeta } from '../../src/protocol/entries';
import type { ChatCapabilities, SnapshotParams } from '../../src/protocol/messages';

export const capabilities: ChatCapabilities = {
  canPrompt: true,
  canCancel: true,
  canQueue: false,
  canSetMode: true,
  canSetConfig: true,
  agentName: 'Reference Agent',
  agentId: 'reference',
  sessionId: 'sess-4f2a9c1e',
  cwd: '/home/dev/project',
  history: 'loaded',
};

export const meta: ThreadMeta = {
  title: 'Fix the flaky session list paging',
  commands: [
    { name: 'review', description: 'Review the current changes' },
    { name: 'research', description: 'Research a topic in the codebase', input: { hint: 'topic' } },
    { name: 'compact', description: 'Summarise the conversation to save context' },
  ],
  modes: {
    currentModeId: 'default',
    availableModes: [
      { id: 'default', name: 'Default' },
      { id: 'plan', name: 'Plan' },
      { id: 'acceptEdits', name: 'Accept edits' },
    ],
  },
  configOptions: [
    {
      id: 'model',
      name: 'Model',
      type: 'select',
      currentValue: 'sonnet',
      options: [
        { value: 'sonnet', name: 'Sonnet' },
        { value: 'opus', name: 'Opus' },
      ],
    },
    { id: 'thinking', name: 'Thinking', type: 'boolean', currentValue: true },
  ],
  usage: { used: 48_200, size: 200_000, cost: { amount: 0.42, currency: 'USD' } },
};

export const everyKind: ThreadEntry[] = [
  {
    type: 'user',
    text: 'The session list sometimes shows **duplicates** after "Load more". Can you fix it?',
    attachments: [],
    done: true,
  },
  { type: 'thought', text: 'The cursor may repeat; dedupe by `sessionId`.', attachments: [], done: true },
  {
    type: 'agent',
    text: [
      'Looking at `src/sessions/list.ts` — see [list.ts](src/sessions/list.ts#L42) and the [spec](https://agentclientprotocol.com/protocol/session-list).',
      '',
      '```ts',
      'const seen = new Set<string>();',
      'for (const s of page.sessions) if (!seen.has(s.sessionId)) items.push(s);',
      '```',
      '',
      '- dedupe by id',
      '- stop when a cursor repeats',
    ].join('\n'),
    attachments: [],
    done: true,
  },
  {
    type: 'tool',
    toolCallId: 'call-1',
    title: 'Edit src/sessions/list.ts',
    kind: 'edit',
    status: 'completed',
    content: [
      {
        type: 'diff',
        path: '/home/dev/project/src/sessions/list.ts',
        oldText: 'export function append(items, page) {\n  items.push(...page.sessions);\n  return items;\n}\n',
        newText:
          'export function append(items, page) {\n  const seen = new Set(items.map((s) => s.sessionId));\n  items.push(...page.sessions.filter((s) => !seen.has(s.sessionId)));\n  return items;\n}\n',
      },
    ],
    locations: [{ path: '/home/dev/project/src/sessions/list.ts', line: 12 }],
  },
  {
    type: 'tool',
    toolCallId: 'call-2',
    title: 'npm test',
    kind: 'execute',
    status: 'failed',
    content: [
      { type: 'terminal', terminalId: 'term-1' },
      { type: 'content', content: { type: 'text', text: 'Exited with **1** failure.' } },
    ],
    locations: [],
    terminalOutput: {
      'term-1': {
        output: '> mocha\n\n  sessions list\n    ✔ pages\n    1) dedupes\n\n  1 passing\n  1 failing\n',
        truncated: false,
        exitCode: 1,
      },
    },
  },
  {
    type: 'plan',
    entries: [
      { content: 'Reproduce the duplicate rows', priority: 'high', status: 'completed' },
      { content: 'Dedupe by sessionId', priority: 'high', status: 'in_progress' },
      { content: 'Stop on a repeated cursor', priority: 'medium', status: 'pending' },
    ],
  },
  {
    type: 'notice',
    severity: 'warning',
    title: '3 updates were dropped',
    description: 'The agent sent malformed updates; see the log.',
  },
  { type: 'divider', text: 'Reconnected' },
  {
    type: 'permission',
    requestId: 'perm-1',
    toolCallId: 'call-3',
    title: 'Allow running `rm -rf node_modules`?',
    options: [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  },
  {
    type: 'permission',
    requestId: 'perm-0',
    toolCallId: 'call-0',
    title: 'Allow reading .env?',
    options: [{ optionId: 'no', name: 'Reject', kind: 'reject_once' }],
    outcome: { optionId: 'no' },
  },
  {
    type: 'agent',
    text: 'Done: the list now dedupes by id.',
    attachments: [{ type: 'resource_link', uri: 'file:///home/dev/project/README.md', name: 'README.md' }],
    done: true,
  },
];

export function snapshotOf(
  entries: ThreadEntry[],
  overrides: Partial<SnapshotParams['thread']> = {},
  caps: Partial<ChatCapabilities> = {},
): SnapshotParams {
  return {
    thread: { entries, meta, status: { state: 'idle' }, ...overrides },
    capabilities: { ...capabilities, ...caps },
    queue: { items: [], paused: false },
  };
}

const WORDS =
  'the agent reads the session list and pages through it with a cursor until none is left while the view keeps its rows'.split(
    ' ',
  );

function prose(seed: number, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) {
    out += WORDS[(seed * 7 + i * 13) % WORDS.length] + ((i + seed) % 17 === 16 ? '.\n\n' : ' ');
  }
  return out;
}

/**
 * A replay of about `updates` updates (≈500 bytes each) as the host would batch it: turns of a
 * user message, an agent message streamed in chunks, and a tool call that starts and completes.
 */
export function replay(updates: number, perBatch: number): { batches: ThreadChange[][]; entries: number } {
  const changes: ThreadChange[] = [];
  let index = 0;
  for (let turn = 0; changes.length < updates; turn++) {
    changes.push({
      kind: 'entryAdded',
      index: index++,
      entry: { type: 'user', text: `Question ${turn}: ${prose(turn, 120)}`, attachments: [], done: true },
    });
    const agent = index++;
    changes.push({
      kind: 'entryAdded',
      index: agent,
      entry: { type: 'agent', text: '', attachments: [], done: false },
    });
    let text = '';
    for (let chunk = 0; chunk < 6; chunk++) {
      const piece = prose(turn + chunk, 500);
      text += piece;
      changes.push({ kind: 'textAppended', index: agent, text: piece });
    }
    changes.push({
      kind: 'entryChanged',
      index: agent,
      entry: { type: 'agent', text: `${text}\n\nTurn ${turn} done.`, attachments: [], done: true },
    });
    const tool = index++;
    const call = {
      type: 'tool' as const,
      toolCallId: `t${turn}`,
      title: `Read src/file${turn}.ts`,
      kind: 'read' as const,
      content: [],
      locations: [{ path: `src/file${turn}.ts` }],
    };
    changes.push({ kind: 'entryAdded', index: tool, entry: { ...call, status: 'in_progress' } });
    changes.push({
      kind: 'entryChanged',
      index: tool,
      entry: {
        ...call,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: '```\n' + prose(turn, 600) + '\n```' } }],
      },
    });
  }
  const batches: ThreadChange[][] = [];
  for (let i = 0; i < changes.length; i += perBatch) batches.push(changes.slice(i, i + perBatch));
  return { batches, entries: index };
}
