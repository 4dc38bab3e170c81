// Lint with the import boundaries of STYLE.md: only src/ui and src/extension.ts import vscode;
// the webview imports only the protocol; the protocol imports nothing platform-specific.
import tseslint from 'typescript-eslint';

const noVscode = {
  paths: [{ name: 'vscode', message: 'Only src/ui and src/extension.ts import vscode.' }],
};

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
  {
    files: ['src/base/**', 'src/agent/**', 'src/sessions/**', 'src/chat/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [{ group: ['**/ui/*', '**/webview/*'], message: 'The core does not import the UI.' }],
        },
      ],
    },
  },
  {
    files: ['src/protocol/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [
            {
              group: ['node:*', '**/ui/*', '**/agent/*', '**/webview/*'],
              message: 'The protocol is shared by host and webview: no platform imports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/webview/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [
            {
              group: ['node:*', '**/ui/*', '**/agent/*', '**/sessions/*', '**/chat/*'],
              message: 'The webview uses only src/protocol.',
            },
          ],
        },
      ],
    },
  },
);
