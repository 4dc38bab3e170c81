/**
 * The syntax highlighter, bundled on its own (dist/highlight.js) and loaded by the chat page the
 * first time a finished message shows a fenced code block with a language (see highlighter.ts).
 * highlight.js: its output is spans with `hljs-*` classes, which the page's stylesheet colours
 * from the theme (no inline styles, so the strict CSP holds), it needs no WASM or eval, and its
 * languages can be picked one by one. The common set plus a few that agents write often.
 */
import hljs from 'highlight.js/lib/common';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import powershell from 'highlight.js/lib/languages/powershell';

hljs.registerLanguage('dockerfile', dockerfile);
hljs.registerLanguage('powershell', powershell);
hljs.configure({ ignoreUnescapedHTML: true, throwUnescapedHTML: false });

/** Highlights `code` as `language`: HTML with `hljs-*` spans around escaped text, or undefined for an unknown language. */
export function highlight(code: string, language: string): string | undefined {
  if (!hljs.getLanguage(language)) return undefined;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
