// The turns of a demo session, built from its project's files: the agent reads the file, says
// what is wrong, edits it (a diff), runs the checks (terminal output), and follow-ups add a
// test, compare options, lint, commit (one command declined by the user) or note the change.
// Everything is a pure function of its arguments, so the demo is the same on every seeding.
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { DemoFile, DemoProject } from './types';

/** What a turn needs to know: the project, the folder's absolute path, and ids to use. */
export interface TurnScope {
  project: DemoProject;
  cwd: string;
  /** Makes tool call ids unique within the session. */
  idPrefix: string;
}

const FENCE: Record<string, string> = {
  ts: 'ts',
  tsx: 'tsx',
  css: 'css',
  sql: 'sql',
  yml: 'yaml',
  json: 'json',
  sh: 'bash',
  md: 'markdown',
  py: 'python',
  toml: 'toml',
};

/** The Markdown fence language of a file. */
export function fenceOf(path: string): string {
  if (path.endsWith('Dockerfile')) return 'dockerfile';
  return FENCE[path.split('.').pop() ?? ''] ?? '';
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const user = (t: string): SessionUpdate => ({ sessionUpdate: 'user_message_chunk', content: text(t) });
const agentSays = (t: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: text(t) });
const fenced = (lang: string, body: string) => `\`\`\`${lang}\n${body.endsWith('\n') ? body : body + '\n'}\`\`\``;

/** A tool call announced and then finished, as agents send them. */
export function tool(
  id: string,
  call: { title: string; kind: 'read' | 'edit' | 'execute' | 'search'; path?: string; line?: number; command?: string },
  content: ToolCallContent[],
  status: 'completed' | 'failed' = 'completed',
): SessionUpdate[] {
  return [
    {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: call.title,
      kind: call.kind,
      status: 'pending',
      ...(call.path ? { locations: [{ path: call.path, ...(call.line ? { line: call.line } : {}) }] } : {}),
      ...(call.command ? { rawInput: { command: call.command } } : call.path ? { rawInput: { path: call.path } } : {}),
    },
    { sessionUpdate: 'tool_call_update', toolCallId: id, status, content },
  ];
}

/** A command and what it printed, as a terminal shows it. */
export function console_(command: string, output: string): ToolCallContent[] {
  return [{ type: 'content', content: text(fenced('console', `$ ${command}\n${output}`)) }];
}

/** The file as it was before the session's change (null: the change created it). */
export function oldText(f: DemoFile): string | null {
  return f.before.startsWith('-- (new file)') || f.before.startsWith('# (new file)')
    ? null
    : f.text.replace(f.after, f.before);
}

const contexts = [
  'The code is in `{path}`.',
  'Start from `{path}`, and keep the public API as it is.',
  "It's in `{path}`. Add a test if it makes sense.",
  'See `{path}`; nothing else should need to change.',
];

const thoughts = [
  'Before changing anything I want to see how `{path}` is used. If the callers rely on the current behaviour, the fix belongs at the edge, not in the middle.',
  'The symptom only shows with real data, so the cause is probably in an edge case of `{path}`. Read it first, then reproduce with the smallest input.',
  'This is a small change if `{path}` is the only place that does this. Search first so nothing else is missed.',
];

const closings = [
  'I kept the change inside `{path}`: no caller needs to change, and the checks pin the behaviour down.',
  'Nothing else reads this code path, I checked with a search over the repository.',
  'If you want, I can apply the same change to the places that copy this pattern; there are two more.',
];

/** The first prompt of a session: its title, or something an untitled session began with. */
export function firstPrompt(title: string | null, f: DemoFile, k: number): string {
  const context = contexts[k % contexts.length]!.replace('{path}', f.path);
  if (title === null) return `Have a look at \`${f.path}\` and tidy it up. Something there is off.`;
  if (title.endsWith('?')) return `${title} ${context}`;
  if (/^[a-z]/.test(title)) return title;
  return `${title}. ${context}`;
}

/** A first turn: read, explain, edit, check, sum up. */
export function workTurn(scope: TurnScope, f: DemoFile, prompt: string, k: number): SessionUpdate[] {
  const abs = `${scope.cwd}/${f.path}`;
  const lang = fenceOf(f.path);
  const check = scope.project.check(f);
  const id = (n: string) => `${scope.idPrefix}_${n}`;
  const sub = (t: string) => t.replaceAll('{path}', f.path);
  const updates: SessionUpdate[] = [user(prompt)];
  if (k % 3 === 0)
    updates.push({ sessionUpdate: 'agent_thought_chunk', content: text(sub(thoughts[k % thoughts.length]!)) });
  if (k % 2 === 0)
    updates.push({
      sessionUpdate: 'plan',
      entries: [
        { content: `Read ${f.path} and find the cause`, priority: 'high', status: 'completed' },
        { content: 'Make the change without touching the callers', priority: 'high', status: 'completed' },
        { content: `Run ${check.command.split(' && ')[0]}`, priority: 'medium', status: 'completed' },
      ],
    });
  const old = oldText(f);
  if (old !== null)
    updates.push(
      ...tool(id('read'), { title: `Read ${f.path}`, kind: 'read', path: abs, line: 1 }, [
        { type: 'content', content: text(fenced(lang, old.split('\n').slice(0, 14).join('\n'))) },
      ]),
    );
  updates.push(agentSays(`In \`${f.path}\`, ${f.why}.\n\n${fenced(lang, f.after)}`));
  updates.push(
    ...tool(id('edit'), { title: `Edit ${f.path}`, kind: 'edit', path: abs }, [
      { type: 'diff', path: abs, oldText: old, newText: f.text },
    ]),
  );
  updates.push(
    ...tool(
      id('check'),
      { title: `Run ${check.command}`, kind: 'execute', command: check.command },
      console_(check.command, check.output),
    ),
  );
  updates.push(
    agentSays(
      [
        `Done: \`${f.path}\` is changed and \`${check.command.split(' && ')[0]}\` passes.`,
        '',
        `- **What was wrong:** ${f.why.split(';')[0]}.`,
        `- **What changed:** \`${f.path}\` only.`,
        '',
        sub(closings[k % closings.length]!),
      ].join('\n'),
    ),
  );
  return updates;
}

const followUpKinds = ['test', 'compare', 'lint', 'commit', 'changelog'] as const;

/** A later turn of the same session; `n` picks which. */
export function followUpTurn(scope: TurnScope, f: DemoFile, n: number, branch: string): SessionUpdate[] {
  const id = (s: string) => `${scope.idPrefix}_${s}`;
  let kind = followUpKinds[n % followUpKinds.length]!;
  const testText = scope.project.tests[f.path];
  const test = testText === undefined ? undefined : { path: scope.project.testPath(f.path), text: testText };
  if (kind === 'test' && !test) kind = 'compare';
  switch (kind) {
    case 'test': {
      const abs = `${scope.cwd}/${test!.path}`;
      const check = scope.project.check(f);
      return [
        user('Add a test that pins this down, so it cannot come back.'),
        ...tool(id('test'), { title: `Write ${test!.path}`, kind: 'edit', path: abs }, [
          { type: 'diff', path: abs, oldText: null, newText: test!.text },
        ]),
        ...tool(
          id('run'),
          { title: `Run ${check.command}`, kind: 'execute', command: check.command },
          console_(check.command, check.output),
        ),
        agentSays(
          `Added \`${test!.path}\`. It fails on the old code and passes now:\n\n${fenced(fenceOf(test!.path), test!.text.split('\n').slice(0, 12).join('\n'))}`,
        ),
      ];
    }
    case 'compare':
      return [
        user('Is there a simpler way? I would rather not add anything we have to maintain.'),
        agentSays(
          [
            'I looked at two other ways before settling on this one:',
            '',
            '| Option | Files touched | Why not |',
            '| --- | --- | --- |',
            `| Change every caller of \`${f.path}\` | 6 | the same fix, repeated, and easy to forget in the next caller |`,
            '| A setting that turns the new behaviour on | 2 | one more switch to document, test and eventually remove |',
            `| **This change** | **1** | — |`,
            '',
            'So this is already the smallest change that fixes it everywhere.',
          ].join('\n'),
        ),
      ];
    case 'lint':
      return [
        user('Run the linter and the type checker over everything too.'),
        ...tool(
          id('lint'),
          { title: `Run ${scope.project.lint.command}`, kind: 'execute', command: scope.project.lint.command },
          console_(scope.project.lint.command, scope.project.lint.output),
        ),
        agentSays('Both are clean: no warnings, no type errors.'),
      ];
    case 'commit': {
      const commit = `git switch -c ${branch} && git commit -am "${f.why.split(';')[0]!.replace(/`/g, '').replace(/"/g, "'").slice(0, 68)}"`;
      const pr = 'gh pr create --fill';
      return [
        user('Commit it and open a pull request.'),
        ...tool(
          id('commit'),
          { title: `Run ${commit}`, kind: 'execute', command: commit },
          console_(commit, `Switched to a new branch '${branch}'\n[${branch} 3f9c2d1] ${f.path}\n 1 file changed\n`),
        ),
        // The user declined this command when the agent asked for permission.
        ...tool(
          id('pr'),
          { title: `Run ${pr}`, kind: 'execute', command: pr },
          [{ type: 'content', content: text('Not run: the user declined the permission request.') }],
          'failed',
        ),
        agentSays(
          `The change is committed on \`${branch}\`. You declined \`${pr}\`, so nothing was pushed; when you are ready:\n\n${fenced('bash', `git push -u origin ${branch}\n${pr} --draft`)}`,
        ),
      ];
    }
    case 'changelog': {
      const abs = `${scope.cwd}/CHANGELOG.md`;
      const line = `- ${f.why.split(';')[0]!.replace(/^./, (c) => c.toUpperCase())}.`;
      return [
        user('Add a line to the changelog.'),
        ...tool(id('changelog'), { title: 'Edit CHANGELOG.md', kind: 'edit', path: abs }, [
          {
            type: 'diff',
            path: abs,
            oldText: '# Changelog\n\n## Unreleased\n\n',
            newText: `# Changelog\n\n## Unreleased\n\n${line}\n`,
          },
        ]),
        agentSays(`Added under "Unreleased":\n\n${fenced('markdown', line)}`),
      ];
    }
  }
}
