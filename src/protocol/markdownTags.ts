/**
 * The tags a message's Markdown may become in the chat: what markdown-it writes with raw HTML off
 * (images become links), and nothing else. The webview's sanitiser allows these alone
 * (src/webview/markdown.ts), and so does the host's first screen of a hit (src/chat/firstScreen.ts).
 */
export const MARKDOWN_TAGS: readonly string[] = [
  'a',
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  's',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'sup',
  'sub',
];
