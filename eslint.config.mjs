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
    // The session library is a room of its own: it uses agent, protocol and base only.
    files: ['src/library/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [
            {
              group: ['**/ui/*', '**/webview/*', '**/chat/*', '**/sessions/*'],
              message:
                'The library uses only src/agent, src/protocol and src/base; chat and sessions hand it what they see.',
            },
          ],
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
