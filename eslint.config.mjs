// Lint with the rooms of STYLE.md: which room of src/ may import which, and who may import vscode.
// A room is a folder of src/; imports between rooms point one way, and a room not listed under
// another's `uses` is forbidden to it, type imports included. `npm run cycles` proves the rest:
// the import graph has no cycle.
import tseslint from 'typescript-eslint';

/** Each room and the rooms it may use. `extension.ts` (the wiring) may use every room. */
const ROOMS = {
  // Lifetimes and events: a room of its own that imports nothing of ours.
  base: [],
  // What the machine is: git, cross-window locks, path keys, reserved names, atomic writes; below every feature room.
  platform: ['base'],
  // The agent process, the ACP connection, the client-side handlers, the errors.
  agent: ['platform', 'base'],
  // Paged session lists; they know nothing of threads.
  sessions: ['agent', 'platform', 'base'],
  // The thread and the chat session; they know nothing of lists.
  chat: ['agent', 'protocol', 'platform', 'base'],
  // Kept transcripts and their search index: beside lists and threads, composed by the app.
  library: ['agent', 'protocol', 'platform', 'base'],
  // Checkpoints of workspace folders in a git repository of our own: beside lists and threads, composed by the app.
  checkpoints: ['agent', 'protocol', 'platform', 'base'],
  // Sessions in git worktrees of the user's repositories, with the machine's git: beside lists and threads.
  worktrees: ['platform', 'base'],
  // The ACP Registry: reading it, and installing, updating and removing what it lists (no vscode).
  registry: ['agent', 'platform', 'base'],
  // Composes the rooms above without vscode: what the window runs, wired once; the UI adapts it.
  app: ['agent', 'sessions', 'chat', 'library', 'checkpoints', 'worktrees', 'registry', 'protocol', 'platform', 'base'],
  // The webview <-> host messages, shared by both sides.
  protocol: ['base'],
  // The browser bundle.
  webview: ['protocol'],
  // The only room with vscode: adapters of the app to the workbench.
  ui: [
    'app',
    'agent',
    'sessions',
    'chat',
    'library',
    'checkpoints',
    'worktrees',
    'registry',
    'protocol',
    'platform',
    'base',
  ],
};

const vscodeOnlyInUi = { name: 'vscode', message: 'Only src/ui and src/extension.ts import vscode.' };

/**
 * The `no-restricted-imports` rule of one room.
 * @param {keyof typeof ROOMS} room
 * @returns {import('typescript-eslint').ConfigWithExtends}
 */
function boundaries(room) {
  const uses = ROOMS[room];
  const forbidden = Object.keys(ROOMS).filter((r) => r !== room && !uses.includes(r));
  const patterns = [
    {
      group: [...forbidden.map((r) => `**/${r}/**`), '**/extension'],
      message: `src/${room} may use ${uses.length ? uses.map((r) => `src/${r}`).join(', ') : 'nothing of ours'} (STYLE.md, "The house").`,
    },
  ];
  // Shared with the browser: nothing of Node.
  if (room === 'protocol' || room === 'webview')
    patterns.push({ group: ['node:*'], message: `src/${room} runs in the browser too: no Node modules.` });
  return {
    files: [`src/${room}/**`],
    rules: {
      'no-restricted-imports': ['error', { paths: room === 'ui' ? [] : [vscodeOnlyInUi], patterns }],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '*.mjs', 'scripts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // One idea per file: a file in src/ with more than 400 lines of code is two ideas. Comments
  // and blank lines do not count: a limit on them would only make files say less.
  { files: ['src/**'], rules: { 'max-lines': ['error', { max: 400, skipComments: true, skipBlankLines: true }] } },
  {
    // The SDK's unstable entry carries its own schema for stable messages too: the extension
    // runs on the stable entry and takes only types from the unstable one (src/agent/unstable.ts).
    files: ['src/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@agentclientprotocol/sdk/unstable',
              message: 'Types only from the unstable entry: the client parses messages with the stable one.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  .../** @type {(keyof typeof ROOMS)[]} */ (Object.keys(ROOMS)).map(boundaries),
);
