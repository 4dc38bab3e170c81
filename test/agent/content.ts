// Realistic history for seeded sessions. A seeded turn averages about 2.4 updates of about 500
// bytes, so 2,000 turns replay as ~4,800 updates and 20,000 updates weigh ~10 MB, the sizes the
// benchmarks and the renderer's worst cases are written against.
import type { SessionUpdate, ToolKind } from '@agentclientprotocol/sdk/unstable';

const prompts = [
  'Why does the parser drop the last token when the input ends without a newline? Please find the cause and fix it.',
  'Add a retry with exponential backoff to the HTTP client, capped at five attempts, and cover it with tests.',
  'Rename `SessionCache` to `SessionIndex` everywhere and update the docs that mention it.',
  'The CI job on macOS times out in the integration suite. Can you look at the logs and suggest a fix?',
  'Explain how the tree view decides when to show "Load more" and whether it can loop.',
  'Write a migration that moves user settings from the old JSON file into the new SQLite table.',
  'Refactor the webview message handler into typed requests and notifications.',
  'Summarise what changed on this branch since main, file by file.',
];

const topics = [
  'parser',
  'retry policy',
  'session index',
  'CI pipeline',
  'tree paging',
  'settings migration',
  'webview channel',
  'branch summary',
];

const thoughts = [
  'The symptom points at the end-of-input path. I should read the tokenizer first, then check whether the flush happens before or after the last push.',
  'Backoff belongs in one place. If I wrap `fetchJson`, every caller gets it; I need to keep the abort signal flowing through each attempt.',
  'A rename across the tree: search first so nothing in comments or docs is missed, then edit, then run the type checker.',
  'Timeouts only on macOS usually mean a slower filesystem watcher or a process that is never killed. Check the teardown hooks.',
];

const closings = [
  'I kept the change small on purpose: the behaviour of every other caller stays the same, and the new test pins down the case that failed. If you want, I can also look at the two other places that read input the same way; they have the same shape and probably the same problem, but nobody has reported it yet.',
  'One caveat: the fix assumes the input is UTF-8. The old code made the same assumption, so nothing gets worse, but if you ever feed it Latin-1 files the last character may still be split. A follow-up could decode with `fatal: true` and report the offending byte offset instead of guessing.',
  'The tests run in about four seconds now instead of eleven, mostly because the fixture is built once per suite instead of once per test. Nothing in the fixture is mutated by the tests, which I checked by freezing it; every test still passes with the frozen object.',
  'I did not touch the public types. The helper is internal and exported only for the tests, which is the pattern the rest of the package already follows, so the generated API report does not change and no consumer needs a new release for this.',
];

function agentMarkdown(k: number, topic: string, file: string): string {
  return `${agentBody(k, topic, file)}\n\n${closings[(k >> 2) % closings.length]}`;
}

function agentBody(k: number, topic: string, file: string): string {
  switch (k % 5) {
    case 0:
      return [
        `## What I found in the ${topic}`,
        '',
        `The problem is in \`${file}\`: the loop exits before the buffered value is pushed, so the last item is lost when the input has no trailing newline.`,
        '',
        '1. Read the remaining bytes after the loop.',
        '2. Push them when they are not empty.',
        '3. Add a test for input without a trailing newline.',
        '',
        '```ts',
        'for (const line of lines.push(chunk)) {',
        '  emit(line);',
        '}',
        'const rest = lines.flush();',
        'if (rest.length > 0) emit(rest);',
        '```',
        '',
        'All **42** existing tests still pass.',
      ].join('\n');
    case 1:
      return [
        `### Plan for the ${topic}`,
        '',
        '- Keep the public API unchanged',
        '- Move the shared logic into one helper',
        '  - with its own unit tests',
        '  - and no I/O',
        '- Remove the duplicated code paths',
        '',
        `I changed \`${file}\` and ran the suite:`,
        '',
        '```bash',
        'npm run typecheck && npm test -- --grep "retry"',
        '```',
        '',
        '> Note: the flaky test was timing-dependent; it now uses a fake clock.',
      ].join('\n');
    case 2:
      return [
        `Here is a summary of the ${topic}:`,
        '',
        '| File | Change |',
        '| --- | --- |',
        `| \`${file}\` | extracted helper |`,
        '| `test/helper.test.ts` | new tests |',
        '',
        'See the [protocol notes](https://agentclientprotocol.com/protocol/overview) for the message order.',
        '',
        '```json',
        '{ "attempts": 5, "baseDelayMs": 200, "maxDelayMs": 5000 }',
        '```',
      ].join('\n');
    case 3:
      return [
        `Done. The ${topic} now works as described.`,
        '',
        `* Updated \`${file}\``,
        '* Added two tests',
        '* Ran `eslint` with no new warnings',
        '',
        'Let me know if you want the same change applied to the other modules.',
      ].join('\n');
    default:
      return [
        `# ${topic[0].toUpperCase()}${topic.slice(1)}: review`,
        '',
        'Three things stand out:',
        '',
        `1. \`${file}\` mixes parsing and I/O; splitting them makes both testable.`,
        '2. Errors are swallowed in one `catch` block; they should reach the log.',
        '3. The cache never expires entries.',
        '',
        '```diff',
        '- } catch {}',
        '+ } catch (error) {',
        '+   log.warn("refresh failed", error);',
        '+ }',
        '```',
      ].join('\n');
  }
}

const kinds: ToolKind[] = ['edit', 'read', 'execute', 'search'];

/** A tool call and its completion, with a diff for edits and text otherwise. */
export function toolCallPair(id: string, kind: ToolKind, path: string, line: number): SessionUpdate[] {
  const call: SessionUpdate = {
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title:
      kind === 'edit'
        ? `Edit ${path}`
        : kind === 'read'
          ? `Read ${path}`
          : kind === 'execute'
            ? 'Run npm test'
            : `Search for "flush" in ${path}`,
    kind,
    status: 'pending',
    locations: [{ path, line }],
    rawInput: kind === 'execute' ? { command: 'npm test' } : { path },
  };
  const done: SessionUpdate = {
    sessionUpdate: 'tool_call_update',
    toolCallId: id,
    status: 'completed',
    content:
      kind === 'edit'
        ? [
            {
              type: 'diff',
              path,
              oldText: 'export function parse(input: string) {\n  return tokens(input);\n}\n',
              newText:
                'export function parse(input: string) {\n  const all = tokens(input);\n  return flushRest(all);\n}\n',
            },
          ]
        : [
            {
              type: 'content',
              content: {
                type: 'text',
                text:
                  kind === 'execute'
                    ? '> npm test\n\n  parser\n    ✓ keeps the last token (3 ms)\n    ✓ handles empty input\n\n  2 passing (41 ms)\n'
                    : `${line}: const rest = lines.flush();\n${line + 1}: if (rest.length > 0) emit(rest);\n`,
              },
            },
          ],
  };
  return [call, done];
}

/**
 * The updates of one seeded turn. `seed` varies the mix between sessions so that even short
 * sessions show thoughts, tool calls and plans somewhere.
 */
export function seededTurn(cwd: string, turn: number, seed: number): SessionUpdate[] {
  const k = turn + seed;
  const file = `${cwd}/src/module${k % 17}.ts`;
  const updates: SessionUpdate[] = [
    { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: prompts[k % prompts.length] } },
  ];
  if (k % 10 === 3) {
    updates.push({
      sessionUpdate: 'agent_thought_chunk',
      content: { type: 'text', text: thoughts[k % thoughts.length] },
    });
  }
  if (k % 20 === 7) {
    updates.push({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Reproduce the problem with a failing test', priority: 'high', status: 'completed' },
        { content: `Fix ${file}`, priority: 'high', status: 'completed' },
        { content: 'Run the whole suite', priority: 'medium', status: 'completed' },
      ],
    });
  }
  if (k % 8 === 1) {
    updates.push(...toolCallPair(`tool_${turn}_${seed}`, kinds[k % kinds.length], file, 10 + (k % 90)));
  }
  updates.push({
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: agentMarkdown(k, topics[k % topics.length], file) },
  });
  return updates;
}

/** A title of the given style, as real agents produce them (or fail to). */
export function seededTitle(style: string, index: number): string | null {
  const prompt = prompts[index % prompts.length];
  switch (style) {
    case 'null':
      return null;
    case 'long':
      return (prompt + ' ').repeat(10).slice(0, 500);
    case 'multiline':
      return `${topics[index % topics.length]}\nsecond line of the title\r\nthird line`;
    case 'hostile':
      return hostileTitle(index);
    case 'mixed':
      return seededTitle(['normal', 'null', 'long', 'multiline', 'hostile'][index % 5], index);
    default:
      return `${prompt.slice(0, 60)} #${index}`;
  }
}

export function hostileTitle(index: number): string {
  return `\u202eevil\u202c <script>alert(${index})</script>\u0000\u0007\u001b[31mred\u001b[0m \u200b\u2066iso\u2069 <img src=x onerror=alert(1)>`;
}
